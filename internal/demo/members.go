package demo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// memberSessionTimeout is above kfake's 6 s minimum and, with a 3 s
// heartbeat, keeps the members stable without rebalancing.
const memberSessionTimeout = 10 * time.Second

// memberHeartbeat is how often a live member heartbeats.
const memberHeartbeat = 3 * time.Second

// member is one live classic consumer-group member (range assignor, as the
// Java client's default). It polls and drops records and never commits:
// auto-commit is off and it never commits by hand, so the group's committed
// offsets stay as seeded.
type member struct {
	group  string
	cl     *kgo.Client
	cancel context.CancelFunc
	done   chan struct{}
	// ready is closed once the member has its first assignment.
	ready chan struct{}
}

func startMember(bootstrap []string, group string, topics []string, logf func(string, ...any)) (*member, error) {
	ready := make(chan struct{})
	var once sync.Once
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(bootstrap...),
		kgo.ClientID("offsettui-demo-"+group),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topics...),
		kgo.Balancers(kgo.RangeBalancer()),
		kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()),
		kgo.SessionTimeout(memberSessionTimeout),
		kgo.HeartbeatInterval(memberHeartbeat),
		kgo.RetryBackoffFn(func(int) time.Duration { return 100 * time.Millisecond }),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) { once.Do(func() { close(ready) }) }),
	)
	if err != nil {
		return nil, fmt.Errorf("start live member of group %s: %w", group, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{group: group, cl: cl, cancel: cancel, done: make(chan struct{}), ready: ready}
	go m.run(ctx, logf)
	return m, nil
}

// run polls and drops records until the member is stopped; the client
// heartbeats and rejoins on its own.
func (m *member) run(ctx context.Context, logf func(string, ...any)) {
	defer close(m.done)
	for ctx.Err() == nil {
		fs := m.cl.PollFetches(ctx)
		fs.EachError(func(topic string, p int32, err error) {
			if ctx.Err() == nil {
				logf("demo: live member of group %s: %s-%d: %v", m.group, topic, p, err)
			}
		})
	}
}

// stop leaves the group (without committing) and waits for run to return.
func (m *member) stop() {
	m.cancel()
	<-m.done
	m.cl.Close() // leaves the group; nothing is committed with auto-commit off
}
