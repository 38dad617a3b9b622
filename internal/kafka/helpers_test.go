package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// fakeCluster starts a 3-broker kfake cluster for one test.
func fakeCluster(t testing.TB, opts ...kfake.Opt) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(3)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// newClient connects internal/kafka to addrs.
func newClient(t testing.TB, addrs []string, now func() time.Time) *kafka.Client {
	t.Helper()
	c, err := kafka.New(kafka.Config{Bootstrap: addrs, Timeout: 5 * time.Second, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// seed is an independent franz-go client used to build clusters whose truth the
// test knows; it never goes through internal/kafka.
type seed struct {
	t   testing.TB
	cl  *kgo.Client
	adm *kadm.Client
}

func newSeed(t testing.TB, addrs []string) *seed {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.MaxBufferedRecords(1<<16))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &seed{t: t, cl: cl, adm: kadm.NewClient(cl)}
}

// produce writes n records to one partition, record i stamped ts(i).
func (s *seed) produce(topic string, partition int32, n int, ts func(i int) time.Time) {
	s.t.Helper()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition, Value: []byte("v"), Timestamp: ts(i)}
	}
	if err := s.cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		s.t.Fatalf("produce %s-%d: %v", topic, partition, err)
	}
}

// commit writes a group's offsets in the admin form (no member, generation -1).
func (s *seed) commit(group string, offs map[model.TP]int64) {
	s.t.Helper()
	o := kadm.Offsets{}
	for tp, off := range offs {
		o.Add(kadm.Offset{Topic: tp.Topic, Partition: tp.Partition, At: off, LeaderEpoch: -1})
	}
	resp, err := s.adm.CommitOffsets(context.Background(), group, o)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		s.t.Fatalf("commit %s: %v", group, err)
	}
}

// findGroup returns the named group of a snapshot or fails.
func findGroup(t testing.TB, s model.Snapshot, name string) model.Group {
	t.Helper()
	for _, g := range s.Groups {
		if g.Group == name {
			return g
		}
	}
	t.Fatalf("group %q not in snapshot", name)
	return model.Group{}
}

// findPartition returns one partition of a group or fails.
func findPartition(t testing.TB, g model.Group, topic string, p int32) model.GroupPartition {
	t.Helper()
	for _, gp := range g.Partitions {
		if gp.Topic == topic && gp.Partition == p {
			return gp
		}
	}
	t.Fatalf("group %s has no partition %s-%d", g.Group, topic, p)
	return model.GroupPartition{}
}

func val(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// tsAt returns record timestamps one second apart starting at unix second base.
func tsAt(base int64) func(int) time.Time {
	return func(i int) time.Time { return time.Unix(base+int64(i), 0) }
}
