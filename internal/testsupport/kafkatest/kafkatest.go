// Package kafkatest holds the fake-cluster pieces that tests of several packages
// share: a 3-broker kfake cluster closed when the test ends, the seeding client
// of internal/seed wrapped to fail the test on error, and a server-side request
// counter. Only _test.go files import it.
package kafkatest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/seed"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Cluster starts a 3-broker kfake cluster (plus opts) and closes it when the test
// ends.
func Cluster(t testing.TB, opts ...kfake.Opt) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(3)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Seed is the shared seeding client (internal/seed) for a test: it builds the
// truth a test knows and reads it back, never through internal/kafka, and fails
// the test on any error.
type Seed struct {
	t      testing.TB
	seeder *seed.Seeder
	Client *kgo.Client
	Adm    *kadm.Client
}

// NewSeed connects a Seed to addrs and closes it when the test ends.
func NewSeed(t testing.TB, addrs []string) *Seed {
	t.Helper()
	s, err := seed.New(addrs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &Seed{t: t, seeder: s, Client: s.Client, Adm: s.Adm}
}

func ctxFor(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// Produce writes one record per timestamp to one partition, in order, in one
// ProduceSync.
func (s *Seed) Produce(topic string, partition int32, ts ...time.Time) {
	s.t.Helper()
	recs := make([]*kgo.Record, len(ts))
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition, Value: []byte("v"), Timestamp: ts[i]}
	}
	ctx, cancel := ctxFor(30 * time.Second)
	defer cancel()
	if err := s.seeder.Produce(ctx, recs...); err != nil {
		s.t.Fatal(err)
	}
}

// ProduceN writes n records to one partition, record i stamped ts(i).
func (s *Seed) ProduceN(topic string, partition int32, n int, ts func(i int) time.Time) {
	s.t.Helper()
	stamps := make([]time.Time, n)
	for i := range stamps {
		stamps[i] = ts(i)
	}
	s.Produce(topic, partition, stamps...)
}

// Commit writes a group's offsets in the admin form (no member, generation −1).
func (s *Seed) Commit(group string, offs map[model.TP]int64) {
	s.t.Helper()
	ctx, cancel := ctxFor(15 * time.Second)
	defer cancel()
	if err := s.seeder.Commit(ctx, group, offs); err != nil {
		s.t.Fatal(err)
	}
}

// SetGroupConfig sets one group config (share.auto.offset.reset, …).
func (s *Seed) SetGroupConfig(group, name, value string) {
	s.t.Helper()
	ctx, cancel := ctxFor(15 * time.Second)
	defer cancel()
	if err := s.seeder.SetGroupConfig(ctx, group, name, value); err != nil {
		s.t.Fatal(err)
	}
}

// Committed reads a group's committed offsets (partitions without a commit are
// left out).
func (s *Seed) Committed(group string) map[model.TP]int64 {
	s.t.Helper()
	ctx, cancel := ctxFor(15 * time.Second)
	defer cancel()
	out, err := s.seeder.Committed(ctx, group)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// DeleteRecords moves the start offset of a partition to before and returns the
// partition's error (nil when the broker accepted it); a failed request fails
// the test.
func (s *Seed) DeleteRecords(topic string, partition int32, before int64) error {
	s.t.Helper()
	ctx, cancel := ctxFor(15 * time.Second)
	defer cancel()
	partErr, err := s.seeder.DeleteRecords(ctx, topic, partition, before)
	if err != nil {
		s.t.Fatal(err)
	}
	return partErr
}

// RequestCounter counts, on the server side, the requests a kfake cluster
// receives: in all, and per API key. It installs observing faults (one for all
// keys, one per counted key); an observing fault counts a request once, however
// many entities it names, and changes nothing.
type RequestCounter struct {
	all     *kfake.FaultHandle
	handles [kmsg.MaxKey + 1]*kfake.FaultHandle // nil: key not counted
}

// CountRequests starts counting the requests of k: per key for the keys given,
// or for every key when none is.
func CountRequests(k *kfake.Cluster, keys ...kmsg.Key) *RequestCounter {
	rc := &RequestCounter{all: k.Fault(kfake.Fault{Observe: true, Count: -1})}
	if len(keys) == 0 {
		for key := range int16(kmsg.MaxKey + 1) {
			keys = append(keys, kmsg.Key(key))
		}
	}
	for _, key := range keys {
		rc.handles[key] = k.Fault(kfake.Fault{Keys: []kmsg.Key{key}, Observe: true, Count: -1})
	}
	return rc
}

// Hits is how many requests of key the cluster has received since counting
// started. key must be one the counter counts.
func (rc *RequestCounter) Hits(key kmsg.Key) int {
	h := rc.handles[key]
	if h == nil {
		panic(fmt.Sprintf("kafkatest: %s requests are not counted", kmsg.NameForKey(int16(key))))
	}
	return h.Hits()
}

// Remove uninstalls the counting faults.
func (rc *RequestCounter) Remove() {
	rc.all.Remove()
	for _, h := range rc.handles {
		if h != nil {
			h.Remove()
		}
	}
}

// RequestCounts is a reading of a RequestCounter.
type RequestCounts struct {
	Total  int                  // every request, whatever its key
	PerKey [kmsg.MaxKey + 1]int // per counted key
}

// Read returns the counts so far.
func (rc *RequestCounter) Read() RequestCounts {
	var out RequestCounts
	out.Total = rc.all.Hits()
	for key, h := range rc.handles {
		if h != nil {
			out.PerKey[key] = h.Hits()
		}
	}
	return out
}

// Since returns the requests counted between before and now.
func (rc *RequestCounter) Since(before RequestCounts) RequestCounts {
	now := rc.Read()
	now.Total -= before.Total
	for i := range now.PerKey {
		now.PerKey[i] -= before.PerKey[i]
	}
	return now
}

// Breakdown renders per-key counts divided by n, busiest first:
// "OffsetFetch=15 ListOffsets=12 ...", noting when the per-key counts do not add
// up to the total.
func (c RequestCounts) Breakdown(n int) string {
	type kv struct {
		key int16
		v   int
	}
	var kvs []kv
	sum := 0
	for key, v := range c.PerKey {
		if v > 0 {
			kvs = append(kvs, kv{int16(key), v})
			sum += v
		}
	}
	slices.SortFunc(kvs, func(a, b kv) int {
		if a.v != b.v {
			return b.v - a.v
		}
		return int(a.key) - int(b.key)
	})
	s := ""
	for _, e := range kvs {
		s += fmt.Sprintf("%s=%g ", kmsg.NameForKey(e.key), float64(e.v)/float64(n))
	}
	if sum != c.Total {
		s += fmt.Sprintf("(per-key sum %d differs from the all-keys count %d)", sum, c.Total)
	}
	return s
}
