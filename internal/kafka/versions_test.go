package kafka_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// TestOffsetFetchBatchingFollowsTheBroker: a broker that supports OffsetFetch v8
// gets many groups per request; one that stops at v7 (negotiated through
// ApiVersions, never hard-coded) gets one group per request, with the same result.
func TestOffsetFetchBatchingFollowsTheBroker(t *testing.T) {
	const groups = 12
	for _, c := range []struct {
		name     string
		max      int16
		requests func(hits int) bool
	}{
		{"v8 batches per coordinator", 8, func(h int) bool { return h <= 3 }},
		{"v7 sends one group per request", 7, func(h int) bool { return h == groups }},
	} {
		t.Run(c.name, func(t *testing.T) {
			vs := kversion.Stable()
			vs.SetMaxKeyVersion(int16(kmsg.OffsetFetch), c.max)
			k := kafkatest.Cluster(t, kfake.MaxVersions(vs))
			if err := k.CreateTopic("t", 3, nil); err != nil {
				t.Fatal(err)
			}
			s := kafkatest.NewSeed(t, k.ListenAddrs())
			s.ProduceN("t", 0, 10, tsAt(time.Now().Unix()))
			for i := range groups {
				s.Commit(fmt.Sprintf("g%02d", i), map[model.TP]int64{{Topic: "t", Partition: 0}: int64(i)})
			}
			cl := newClient(t, k.ListenAddrs(), nil)
			rc := kafkatest.CountRequests(k, kmsg.OffsetFetch)
			snap, err := cl.Snapshot(context.Background(), model.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.requests(rc.Hits(kmsg.OffsetFetch)) {
				t.Errorf("%d OffsetFetch requests for %d groups", rc.Hits(kmsg.OffsetFetch), groups)
			}
			if len(snap.Groups) != groups {
				t.Fatalf("%d groups in the snapshot, want %d", len(snap.Groups), groups)
			}
			for i := range groups {
				g := findGroup(t, snap, fmt.Sprintf("g%02d", i))
				if g.Error != nil {
					t.Fatalf("%s: %v", g.Group, g.Error)
				}
				if p := findPartition(t, g, "t", 0); p.Committed == nil || *p.Committed != int64(i) || g.Error != nil {
					t.Errorf("%s: committed %v error %v", g.Group, val(p.Committed), g.Error)
				}
			}
		})
	}
}

// TestOffsetFetchFallbackCannotDeadlock: with brokers below OffsetFetch v8 and
// more batches than concurrency slots, the one-group-per-request fallback runs
// inside the slot it holds and the snapshot completes.
func TestOffsetFetchFallbackCannotDeadlock(t *testing.T) {
	vs := kversion.Stable()
	vs.SetMaxKeyVersion(int16(kmsg.OffsetFetch), 7)
	k := kafkatest.Cluster(t, kfake.MaxVersions(vs))
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 3, tsAt(time.Now().Unix()))
	const groups = 30
	for i := range groups {
		s.Commit(fmt.Sprintf("g%02d", i), map[model.TP]int64{{Topic: "t", Partition: 0}: 1})
	}
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	snap, err := cl.Snapshot(ctx, model.Query{})
	if err != nil || len(snap.Groups) != groups || ctx.Err() != nil {
		t.Fatalf("snapshot: %d groups, %v, ctx %v", len(snap.Groups), err, ctx.Err())
	}
}

// TestDescribeAndOffsetErrorsTogether: when describing a group and fetching its
// offsets both fail (they run concurrently), the group carries one of the errors
// and is unknown, without a data race (run with -race).
func TestDescribeAndOffsetErrorsTogether(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 3, tsAt(time.Now().Unix()))
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 1})
	k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch, kmsg.DescribeGroups}, Group: "g",
		Err: kerr.GroupAuthorizationFailed, Count: -1})
	snap, err := newClient(t, k.ListenAddrs(), nil).Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	g := findGroup(t, snap, "g")
	if g.Error == nil || g.Error.Kind != model.KindDenied || g.WorstStatus != model.StatusUnknown {
		t.Errorf("g: error %+v worst %v", g.Error, g.WorstStatus)
	}
}

// TestOneGroupOffsetFetchesArePipelined: below OffsetFetch v8 the one-group requests to a
// coordinator are out together, not one after another: with the broker's answers held,
// several requests still reach it.
func TestOneGroupOffsetFetchesArePipelined(t *testing.T) {
	vs := kversion.Stable()
	vs.SetMaxKeyVersion(int16(kmsg.OffsetFetch), 7)
	k := kafkatest.Cluster(t, kfake.NumBrokers(1), kfake.MaxVersions(vs))
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 40, tsAt(time.Now().Unix()))
	const groups = 20
	for i := range groups {
		s.Commit(fmt.Sprintf("g%02d", i), map[model.TP]int64{{Topic: "t", Partition: 0}: int64(i)})
	}
	// The first one-group request's answer is held for a second (the answers behind it on the
	// connection wait too): one after another, no other request would reach the broker meanwhile.
	p := faultproxy.New(t, k.ListenAddrs())
	p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: kmsg.OffsetFetch, Action: faultproxy.Pass, Times: 1}) // the batch, answered for one group
	p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: kmsg.OffsetFetch, Action: faultproxy.DelayResponse, Delay: time.Second, Times: 1})
	cl := newClient(t, p.Addrs(), nil)
	type result struct {
		snap model.Snapshot
		err  error
	}
	done := make(chan result, 1)
	go func() {
		snap, err := cl.Snapshot(context.Background(), model.Query{})
		done <- result{snap, err}
	}()
	held := time.Now().Add(800 * time.Millisecond)
	for p.Requests(faultproxy.AnyBroker, kmsg.OffsetFetch) < 1+4 && time.Now().Before(held) {
		time.Sleep(10 * time.Millisecond)
	}
	if out := p.Requests(faultproxy.AnyBroker, kmsg.OffsetFetch) - 1; out < 4 {
		t.Errorf("%d one-group OffsetFetch requests reached the broker while the first answer was held; want 4 or more (pipelined)", out)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	for i := range groups {
		g := findGroup(t, r.snap, fmt.Sprintf("g%02d", i))
		if pp := findPartition(t, g, "t", 0); pp.Committed == nil || *pp.Committed != int64(i) || g.Error != nil {
			t.Errorf("%s: committed %v error %v", g.Group, val(pp.Committed), g.Error)
		}
	}
}

// TestCapabilitiesFollowTheBrokers: the snapshot says what brokers of the 2.8 line cannot be
// asked and reads every group with the older requests (ListGroups v4, OffsetFetch v7);
// brokers that answer every request offsettui uses leave nothing missing but what kfake lacks.
func TestCapabilitiesFollowTheBrokers(t *testing.T) {
	for _, c := range []struct {
		name     string
		versions *kversion.Versions
		line     string
		missing  []string
	}{
		{"2.8", kversion.V2_8_0(), model.KafkaLine28, []string{model.CapabilityConsumerGroups, model.CapabilityShareGroups,
			model.CapabilityStreamsGroups, model.CapabilityBatchedFetch, model.CapabilityListTypeFilter}},
		{"3.7", kversion.V3_7_0(), model.KafkaLine30, []string{model.CapabilityConsumerGroups, model.CapabilityShareGroups,
			model.CapabilityStreamsGroups, model.CapabilityListTypeFilter}},
		{"3.9", kversion.V3_9_0(), model.KafkaLine38, []string{model.CapabilityShareGroups, model.CapabilityStreamsGroups}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := kafkatest.Cluster(t, kfake.MaxVersions(c.versions))
			if err := k.CreateTopic("t", 2, nil); err != nil {
				t.Fatal(err)
			}
			s := kafkatest.NewSeed(t, k.ListenAddrs())
			s.ProduceN("t", 0, 10, tsAt(time.Now().Unix()))
			s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 4})
			snap, err := newClient(t, k.ListenAddrs(), nil).Snapshot(context.Background(), model.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if v := snap.Cluster.KafkaVersion; v == nil || *v != c.line {
				t.Errorf("kafkaVersion %v, want %s", val(v), c.line)
			}
			var got []string
			for _, cp := range snap.Cluster.Capabilities {
				got = append(got, cp.Missing)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.missing) {
				t.Errorf("missing %v, want %v", got, c.missing)
			}
			g := findGroup(t, snap, "g")
			if p := findPartition(t, g, "t", 0); g.Error != nil || g.Type != model.TypeClassic || g.State != "Empty" ||
				p.Committed == nil || *p.Committed != 4 || p.Lag == nil || *p.Lag != 6 {
				t.Errorf("g: type %s state %s committed %v lag %v error %v", g.Type, g.State, val(p.Committed), val(p.Lag), g.Error)
			}
		})
	}
}
