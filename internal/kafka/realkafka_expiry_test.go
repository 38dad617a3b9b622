package kafka_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
)

// The commit-expiry clock against the broker's own sweep (timers broker: Kafka 4.4.0,
// offsets.retention.minutes=1, a sweep every 2 s), for a classic group that consumed and
// left, a consumer-protocol group that did the same, a group with admin commits only, and a
// Stable classic group's commit on a topic no member subscribes to (groups made by Kafka's
// Java clients: realkafka.Expiry). With Read on __consumer_offsets each predicted time is
// within one check interval before the deletion measured (the commit's tombstone in
// __consumer_offsets); alice, without it, gets clocks that say which time they could not
// know, with Kafka's default retention labelled assumed (she may not read the broker's).
func TestRealKafkaCommitExpiryClock(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	s := b.Seed(t)
	c := newClient(t, []string{b.Addr}, time.Now)
	alice := scramClient(t, b, "alice")
	// The groups' commits go a minute after their base time, and Kafka's tools take tens of
	// seconds each on a loaded machine: snapshots are taken from the start, in the background,
	// and each group is judged in the first that shows it in its final state.
	p := newExpiryPoller(c, alice)
	defer p.stop()
	st := b.StaleTopic(t)
	p.add(realkafka.ExpiryGroup{Kind: "stable-stale", Group: st.Group, Topic: st.Stale}, "Stable")
	s.Allow("User:alice", []string{st.Stale, st.Active}, []string{st.Group}, kadm.OpDescribe, kadm.OpRead)
	const stay = 20 * time.Second
	var members []*realkafka.Shape
	for _, kind := range []string{"classic", "consumer"} {
		g := realkafka.ExpiryGroup{Kind: kind, Group: realkafka.Name("clock-" + kind), Topic: realkafka.Name("clock-" + kind)}
		s.CreateTopic(g.Topic, 1, nil)
		s.Allow("User:alice", []string{g.Topic}, []string{g.Group}, kadm.OpDescribe, kadm.OpRead)
		b.Produce(t, g.Topic, 0, "", 10)
		members = append(members, b.StartConsume(t, realkafka.ConsumeSpec{Group: g.Group, Topic: g.Topic, Protocol: kind, Stay: stay}))
		p.add(g, "Empty")
	}
	admin := realkafka.ExpiryGroup{Kind: "admin-only", Group: realkafka.Name("clock-admin"), Topic: realkafka.Name("clock-admin")}
	s.CreateTopic(admin.Topic, 1, nil)
	s.Allow("User:alice", []string{admin.Topic}, []string{admin.Group}, kadm.OpDescribe, kadm.OpRead)
	b.AdminCommit(t, admin.Group, map[model.TP]int64{{Topic: admin.Topic}: 3})
	p.add(admin, "Empty")
	for _, m := range members {
		m.Wait(t, "left", 1, stay+2*time.Minute)
	}
	seen, aliceSeen, groups := p.wait(t, time.Minute)

	want := map[string]model.ExpiryRule{"classic": model.ExpiryEmptyTime, "consumer": model.ExpiryCommitTime,
		"admin-only": model.ExpiryCommitTime, "stable-stale": model.ExpiryCommitTime}
	predicted := map[string]time.Time{}
	for _, g := range groups {
		grp := seen[g.Kind]
		p := partitionOf(t, grp, g.Topic)
		if p.CommitsExpireBy != want[g.Kind] || p.CommitsExpireAt == nil {
			t.Errorf("%s: expires by %q at %v, want %s at a known time (clock %+v)", g.Kind, p.CommitsExpireBy, p.CommitsExpireAt, want[g.Kind], grp.CommitsExpiry)
			continue
		}
		predicted[g.Kind] = p.CommitsExpireAt.Time
		if ex := grp.CommitsExpiry; ex.RetentionAssumed || ex.RetentionMs != 60_000 || ex.CheckIntervalMs == nil || *ex.CheckIntervalMs != 2000 || ex.CommitLog != model.CommitLogRead {
			t.Errorf("%s: clock %+v, want the broker's 1m and 2 s, the log read", g.Kind, ex)
		}
		if g.Kind == "stable-stale" && grp.CommitsExpiry.Rule != model.ExpiryUnsubscribed {
			t.Errorf("the Stable group: rule %s, want %s", grp.CommitsExpiry.Rule, model.ExpiryUnsubscribed)
		}
		// Without Read on __consumer_offsets: the rule, and the time it could not know.
		ag := aliceSeen[g.Kind]
		ap, ex := partitionOf(t, ag, g.Topic), ag.CommitsExpiry
		if ex == nil || ap.CommitsExpireAt != nil || ap.CommitsExpireBy != want[g.Kind] || ex.UnknownTime != want[g.Kind] ||
			ex.CommitLog != model.CommitLogDenied || ex.Latest == nil || !ex.RetentionAssumed {
			t.Errorf("alice, %s: partition by %q at %v, clock %+v; want %s unknown, denied, retention assumed", g.Kind, ap.CommitsExpireBy, ap.CommitsExpireAt, ex, want[g.Kind])
		}
	}
	checkInterval := 2 * time.Second

	// The deletions as the broker made them: each commit's tombstone in __consumer_offsets.
	var table []string
	for _, g := range groups {
		at, ok := predicted[g.Kind]
		if !ok {
			continue
		}
		var deleted time.Time
		realkafka.WaitUntil(t, time.Until(at)+time.Minute, g.Kind+"'s commit deleted", func() (bool, string) {
			recs, _, err := realkafka.GroupRecords(context.Background(), []string{b.Addr}, g.Group)
			if err != nil {
				return false, err.Error()
			}
			for _, r := range recs {
				if r.Type == realkafka.RecordOffsetCommit && r.Topic == g.Topic && r.Tombstone {
					deleted = r.Timestamp
					return true, ""
				}
			}
			return false, "no tombstone yet"
		})
		// One check interval, and some seconds for a loaded machine's timers (the kinds'
		// predictions differ by the 20 s stay or more).
		if deleted.Before(at) || deleted.After(at.Add(checkInterval+6*time.Second)) {
			t.Errorf("%s: predicted %s, deleted at %s: want within one check interval (%s) after the prediction",
				g.Kind, at.Format(time.StampMilli), deleted.Format(time.StampMilli), checkInterval)
		}
		table = append(table, fmt.Sprintf("| %s | %s | %s | %.1f s |", g.Kind, at.Format(time.StampMilli), deleted.Format(time.StampMilli), deleted.Sub(at).Seconds()))
	}
	t.Logf("predicted and measured deletions (retention 1m, sweep every 2 s):\n| group | predicted | deleted | after |\n| --- | --- | --- | --- |\n%s",
		strings.Join(table, "\n"))
}

// scramClient is a client of user on b's SASL listener (ACLs enforced; alice and bob have no
// ACL but those a test grants).
func scramClient(t *testing.T, b realkafka.Broker, user string) *kafka.Client {
	t.Helper()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{b.SASLAddr}, Timeout: 10 * time.Second, Client: withProps(t, map[string]string{
		"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "SCRAM-SHA-512",
		"sasl.jaas.config": fmt.Sprintf(`org.apache.kafka.common.security.scram.ScramLoginModule required username=%q password=%q;`, user, user+"-secret")})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// expiryPoller snapshots its groups, as a super user and as alice, every 300 ms, and keeps
// each group's first snapshot in its final state with its commit.
type expiryPoller struct {
	mu              sync.Mutex
	groups          []realkafka.ExpiryGroup
	final           map[string]string
	seen, aliceSeen map[string]model.Group
	errs            []string
	cancel          context.CancelFunc
	done            chan struct{}
}

func newExpiryPoller(c, alice *kafka.Client) *expiryPoller {
	ctx, cancel := context.WithCancel(context.Background())
	p := &expiryPoller{final: map[string]string{}, seen: map[string]model.Group{}, aliceSeen: map[string]model.Group{},
		cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for ctx.Err() == nil {
			p.mu.Lock()
			groups := slices.Clone(p.groups)
			p.mu.Unlock()
			if len(groups) > 0 {
				p.take(ctx, c, groups, p.seen)
				p.take(ctx, alice, groups, p.aliceSeen)
			}
			select {
			case <-ctx.Done():
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	return p
}

func (p *expiryPoller) add(g realkafka.ExpiryGroup, final string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.groups = append(p.groups, g)
	p.final[g.Kind] = final
}

func (p *expiryPoller) take(ctx context.Context, c *kafka.Client, groups []realkafka.ExpiryGroup, into map[string]model.Group) {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.Group
	}
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	snap, err := c.Snapshot(sctx, model.Query{Groups: names, RiskWindow: 24 * time.Hour, CommitLog: true, FetchBudget: model.DefaultFetchBudget})
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.errs = append(p.errs, err.Error())
		return
	}
	for _, g := range groups {
		if _, ok := into[g.Kind]; ok {
			continue
		}
		for _, grp := range snap.Groups {
			if grp.Group == g.Group && grp.State == p.final[g.Kind] && slices.ContainsFunc(grp.Partitions, func(gp model.GroupPartition) bool {
				return gp.Topic == g.Topic && gp.Committed != nil
			}) {
				into[g.Kind] = grp
			}
		}
	}
}

// wait waits up to d for every group to be seen by both principals, then stops.
func (p *expiryPoller) wait(t *testing.T, d time.Duration) (seen, aliceSeen map[string]model.Group, groups []realkafka.ExpiryGroup) {
	t.Helper()
	realkafka.WaitUntil(t, d, "every group seen in its final state by both principals", func() (bool, string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.seen) == len(p.groups) && len(p.aliceSeen) == len(p.groups), fmt.Sprintf("seen %d and %d of %d; snapshot errors %v", len(p.seen), len(p.aliceSeen), len(p.groups), p.errs)
	})
	p.stop()
	return p.seen, p.aliceSeen, p.groups
}

func (p *expiryPoller) stop() {
	p.cancel()
	<-p.done
}

// partitionOf is partition 0 of topic in g, or fails.
func partitionOf(t *testing.T, g model.Group, topic string) model.GroupPartition {
	t.Helper()
	for _, p := range g.Partitions {
		if p.Topic == topic && p.Partition == 0 {
			return p
		}
	}
	t.Fatalf("%s has no partition %s-0: %+v", g.Group, topic, g.Partitions)
	return model.GroupPartition{}
}
