package demo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/IBM/sarama"
)

// memberSessionTimeout is above kfake's 6 s minimum and, with sarama's 3 s
// heartbeat, keeps the members stable without rebalancing.
const memberSessionTimeout = 10 * time.Second

// member is one live classic consumer-group member. It consumes and drops
// records and never commits: auto-commit is off and it never marks an
// offset, so the group's committed offsets stay as seeded.
type member struct {
	group  string
	cg     sarama.ConsumerGroup
	cancel context.CancelFunc
	done   chan struct{}
	// ready is closed after the member's first successful SyncGroup.
	ready chan struct{}
}

func startMember(bootstrap []string, group string, topics []string, logf func(string, ...any)) (*member, error) {
	cfg := seedConfig("offsettui-demo-" + group)
	cfg.Consumer.Offsets.AutoCommit.Enable = false
	cfg.Consumer.Offsets.Initial = sarama.OffsetNewest
	cfg.Consumer.Group.Session.Timeout = memberSessionTimeout
	cfg.Consumer.Group.Heartbeat.Interval = 3 * time.Second
	cfg.Consumer.Group.Rebalance.Retry.Backoff = 100 * time.Millisecond
	cg, err := sarama.NewConsumerGroup(bootstrap, group, cfg)
	if err != nil {
		return nil, fmt.Errorf("start live member of group %s: %w", group, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{group: group, cg: cg, cancel: cancel, done: make(chan struct{}), ready: make(chan struct{})}
	go m.run(ctx, topics, logf)
	return m, nil
}

// run keeps the member in its group: Consume returns at every rebalance and
// is called again until the member is stopped.
func (m *member) run(ctx context.Context, topics []string, logf func(string, ...any)) {
	defer close(m.done)
	h := &drainHandler{ready: m.ready}
	for {
		err := m.cg.Consume(ctx, topics, h)
		if ctx.Err() != nil || errors.Is(err, sarama.ErrClosedConsumerGroup) {
			return
		}
		if err != nil {
			logf("demo: live member of group %s: %v; rejoining", m.group, err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// stop leaves the group (without committing) and waits for run to return.
func (m *member) stop() {
	m.cancel()
	_ = m.cg.Close()
	<-m.done
}

// drainHandler is a sarama.ConsumerGroupHandler that reads and drops every
// record and never marks or commits an offset.
type drainHandler struct {
	ready chan struct{}
	once  sync.Once
}

// Setup signals that the member has its assignment.
func (h *drainHandler) Setup(sarama.ConsumerGroupSession) error {
	h.once.Do(func() { close(h.ready) })
	return nil
}

// Cleanup does nothing: there is nothing to commit.
func (h *drainHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

// ConsumeClaim drains the claim until the session ends. It must block: sarama
// ends the session as soon as one ConsumeClaim returns.
func (h *drainHandler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for {
		select {
		case _, ok := <-claim.Messages():
			if !ok {
				return nil
			}
		case <-sess.Context().Done():
			return nil
		}
	}
}
