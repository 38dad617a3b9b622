package kafka_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// hangBroker makes broker id accept requests and never answer them while on is
// set: a broker that accepts TCP and then goes silent.
func hangBroker(k *kfake.Cluster, id int32, on *atomic.Bool) {
	k.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		return nil, nil, on.Load() && k.CurrentNode() == id // handled without an answer: silence
	})
}

// TestHungBrokerCostsOneTimeoutPerSnapshot: a broker that never answers costs
// one --timeout per snapshot, not one per request: it is not asked again within
// the snapshot, even after a Metadata answer lists it. What it leads or
// coordinates is unknown with a timeout, everything else is read.
func TestHungBrokerCostsOneTimeoutPerSnapshot(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 6, nil); err != nil {
		t.Fatal(err)
	}
	// kfake picks each partition's leader at random: once in about 250 runs t-0's leader,
	// the broker hung below, led all six, and nothing was left to read. t-1 goes to
	// another broker when it is on t-0's.
	if l := k.LeaderFor("t", 0); k.LeaderFor("t", 1) == l {
		if err := k.MoveTopicPartition("t", 1, (l+1)%3); err != nil {
			t.Fatal(err)
		}
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	commits := map[model.TP]int64{}
	for p := range int32(6) {
		s.ProduceN("t", p, 5, tsAt(time.Now().Unix()))
		commits[model.TP{Topic: "t", Partition: p}] = 2
	}
	for _, g := range []string{"a", "b", "c", "d", "e", "f"} {
		s.Commit(g, commits)
	}
	// 3s, and a bound of two timeouts: a hung broker asked twice in a snapshot costs
	// two timeouts (cut by the snapshot's deadline at 2×), over the bound even on a
	// loaded machine, while one timeout leaves a whole timeout of slack.
	const timeout = 3 * time.Second
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	// Hang the leader of t-0, so the hung broker surely leads something.
	meta, err := s.Adm.Metadata(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	hung := meta.Topics["t"].Partitions[0].Leader
	var on atomic.Bool
	hangBroker(k, hung, &on)
	on.Store(true)
	for round := range 2 {
		start := time.Now()
		snap, err := cl.Snapshot(context.Background(), model.Query{})
		if err != nil {
			t.Fatalf("after %v: %v", time.Since(start), err)
		}
		if d := time.Since(start); d >= 2*timeout {
			t.Errorf("snapshot %d took %v; the hung broker should cost one %v timeout", round, d, timeout)
		}
		hungErr, known, unknown := false, 0, 0
		for _, e := range snap.Errors {
			hungErr = hungErr || e.Broker != nil && *e.Broker == hung && e.Kind == model.KindTimeout
		}
		for _, g := range snap.Groups {
			for _, p := range g.Partitions {
				if p.Status == model.StatusUnknown {
					unknown++
				} else {
					known++
				}
			}
			if g.TotalLag != nil && len(g.Partitions) < 6 {
				t.Errorf("group %s: %d partitions but a whole total lag %d", g.Group, len(g.Partitions), *g.TotalLag)
			}
		}
		if !hungErr || known == 0 || unknown == 0 {
			t.Errorf("snapshot %d: broker %d timeout reported %v, %d partitions read, %d unknown; errors %+v", round, hung, hungErr, known, unknown, snap.Errors)
		}
	}
}

// TestAllSeedsHungFailsWithinOneTimeout: three seeds that accept TCP and never
// answer cost about one --timeout in all, not one (or three) per seed.
func TestAllSeedsHungFailsWithinOneTimeout(t *testing.T) {
	k := kafkatest.Cluster(t)
	var on atomic.Bool
	on.Store(true)
	k.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		return nil, nil, on.Load()
	})
	// One timeout per seed, one after another, would be 3 timeouts: over the bound of 2.
	const timeout = 3 * time.Second
	start := time.Now()
	_, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: timeout})
	if err == nil {
		t.Fatal("connected to a cluster that never answers")
	}
	if d := time.Since(start); d >= 2*timeout {
		t.Errorf("took %v to give up on three hung seeds", d)
	}
	on.Store(false)
}
