package realkafka

// The commit-expiry shapes, for the timers broker (offsets.retention.minutes=1, checked
// every 2 s): one group of each kind whose commits the broker will delete, with the times
// that decide when.

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// ExpiryGroup is one group whose commits will expire, with the times the broker's rule
// starts from. Left is zero for a group that never had a member or that stays Stable.
type ExpiryGroup struct {
	Kind   string // what the group is, for messages
	Group  string
	Topic  string // the topic whose commit expires (partition 0)
	Commit Event  // its last commit on Topic
	Member *Shape // the member's JVM (nil for an admin-only group)
}

// Left waits (up to d) for the member to leave the group and returns when it did; zero for a
// group without a member.
func (g ExpiryGroup) Left(t testing.TB, d time.Duration) time.Time {
	t.Helper()
	if g.Member == nil || g.Kind == "stable-stale" {
		return time.Time{}
	}
	return g.Member.Wait(t, "left", 1, d).At()
}

// ExpiryShape is one group of every kind whose commit expiry differs, built at the same time.
type ExpiryShape struct {
	Retention, CheckInterval time.Duration // the broker's offsets.retention.minutes and check interval
	Classic                  ExpiryGroup   // classic: read, committed, stayed Stay, left (Empty)
	Consumer                 ExpiryGroup   // consumer protocol (KIP-848): the same
	ConsumerLong             ExpiryGroup   // consumer protocol that stayed longer than the retention before leaving
	AdminOnly                ExpiryGroup   // Admin.alterConsumerGroupOffsets only, never a member
	Stale                    ExpiryGroup   // a Stable classic group's commit on a topic it no longer subscribes to
	Stay, LongStay           time.Duration // 20 s and retention + 15 s
}

// Groups lists the shape's groups.
func (e ExpiryShape) Groups() []ExpiryGroup {
	return []ExpiryGroup{e.Classic, e.Consumer, e.ConsumerLong, e.AdminOnly, e.Stale}
}

// Expiry builds an ExpiryShape on b (the timers broker; on another broker the commits only
// expire after its own retention, 7 days by default). The members run in parallel JVMs; it
// returns once every group has committed (members still in their groups).
func (b Broker) Expiry(t testing.TB) ExpiryShape {
	t.Helper()
	s := b.Seed(t)
	e := ExpiryShape{Stay: 20 * time.Second}
	e.Retention, e.CheckInterval = OffsetsRetention(t, s)
	e.LongStay = e.Retention + 15*time.Second
	mk := func(kind, protocol string, stay time.Duration) ExpiryGroup {
		g := ExpiryGroup{Kind: kind, Group: Name("exp-" + kind), Topic: Name("exp-" + kind)}
		s.CreateTopic(g.Topic, 1, nil)
		b.Produce(t, g.Topic, 0, "", 10)
		g.Member = b.StartConsume(t, ConsumeSpec{Group: g.Group, Topic: g.Topic, Protocol: protocol, Stay: stay})
		return g
	}
	e.Classic = mk("classic", "classic", e.Stay)
	e.Consumer = mk("consumer", "consumer", e.Stay)
	e.ConsumerLong = mk("consumer-long", "consumer", e.LongStay)
	e.AdminOnly = ExpiryGroup{Kind: "admin-only", Group: Name("exp-admin-only"), Topic: Name("exp-admin-only")}
	s.CreateTopic(e.AdminOnly.Topic, 1, nil)
	e.AdminOnly.Commit = b.AdminCommit(t, e.AdminOnly.Group, map[model.TP]int64{{Topic: e.AdminOnly.Topic}: 3})
	st := b.StaleTopic(t)
	e.Stale = ExpiryGroup{Kind: "stable-stale", Group: st.Group, Topic: st.Stale, Commit: st.StaleCommit, Member: st.Member}
	for _, g := range []*ExpiryGroup{&e.Classic, &e.Consumer, &e.ConsumerLong} {
		g.Commit = g.Member.Wait(t, "commit", 1, 90*time.Second)
	}
	return e
}

// OffsetsRetention reads the broker's offsets.retention.minutes and
// offsets.retention.check.interval.ms (DescribeConfigs).
func OffsetsRetention(t testing.TB, s *Seed) (retention, check time.Duration) {
	t.Helper()
	get := func(name string) int64 {
		v, ok := s.BrokerConfig(name)
		if !ok {
			t.Fatalf("the broker does not describe %s", name)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("broker config %s=%q: %v", name, v, err)
		}
		return n
	}
	return time.Duration(get("offsets.retention.minutes")) * time.Minute,
		time.Duration(get("offsets.retention.check.interval.ms")) * time.Millisecond
}

// BrokerConfig returns the broker's value of a config (DescribeConfigs); false when the broker
// does not describe it (an internal config left at its default is not described).
func (s *Seed) BrokerConfig(name string) (string, bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	brokers, err := s.Adm.BrokerMetadata(ctx)
	if err != nil {
		s.t.Fatalf("broker metadata: %v", err)
	}
	// Naming the broker: with no id, DescribeConfigs answers the cluster's dynamic defaults only.
	rc, err := s.Adm.DescribeBrokerConfigs(ctx, brokers.Brokers.NodeIDs()...)
	if err != nil {
		s.t.Fatalf("describe broker configs: %v", err)
	}
	for _, r := range rc {
		for _, c := range r.Configs {
			if c.Key == name && c.Value != nil {
				return *c.Value, true
			}
		}
	}
	return "", false
}
