package kafka_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// scaleSpec is one size of the scale cluster: 3 brokers, topics × 50
// partitions, groupsPerTopic offsets-only groups per topic, each committed on
// all 50 partitions of its topic. Every commit is in range, so the truth is
// simple: lag = high − committed, status ok (the records are an hour old, far
// from any retention threshold).
type scaleSpec struct {
	topics, groupsPerTopic int
	// oneGroup is a 50-partition group for the one-group figures.
	oneGroup string
}

var (
	// scale1k: 200 topics, 1,000 groups, 50,000 rows.
	scale1k = scaleSpec{topics: 200, groupsPerTopic: 5, oneGroup: "g0500"}
	// scale10k: 400 topics, 10,000 groups, 500,000 rows.
	scale10k = scaleSpec{topics: 400, groupsPerTopic: 25, oneGroup: "g5000"}
)

const (
	scalePartitions      = 50
	scaleRecordsPerBatch = 3
)

func (s scaleSpec) groups() int { return s.topics * s.groupsPerTopic }
func (s scaleSpec) rows() int   { return s.groups() * scalePartitions }

// topic names topic i, group group i (g0000 to g9999).
func (s scaleSpec) topic(i int) string { return fmt.Sprintf("t%03d", i) }
func (s scaleSpec) group(i int) string { return fmt.Sprintf("g%04d", i) }

// groupTopic is the topic group i commits on.
func (s scaleSpec) groupTopic(g int) string { return s.topic(g / s.groupsPerTopic) }

// scaleSpecFor picks the spec with n groups.
func scaleSpecFor(n int) (scaleSpec, error) {
	for _, s := range []scaleSpec{scale1k, scale10k} {
		if s.groups() == n {
			return s, nil
		}
	}
	return scaleSpec{}, fmt.Errorf("no scale cluster of %d groups (1000 or 10000)", n)
}

// scaleRecords is how many records partition p of every scale topic holds (3..6).
func scaleRecords(p int32) int { return scaleRecordsPerBatch + int(p)%4 }

// scaleCommit is the offset group g commits on partition p of its topic: 0..2
// below the high watermark.
func scaleCommit(g int, p int32) int64 { return int64(scaleRecords(p) - (g+int(p))%3) }

// buildScaleCluster starts and seeds a scale cluster. The caller closes it.
// Topics are created through kfake's admin path, records go out in one
// batched kgo produce, commits through kadm from 16 workers.
func buildScaleCluster(tb testing.TB, s scaleSpec) *kfake.Cluster {
	tb.Helper()
	start := time.Now()
	k, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		tb.Fatal(err)
	}
	ok := false
	defer func() {
		if !ok {
			k.Close()
		}
	}()
	for i := range s.topics {
		if err := k.CreateTopic(s.topic(i), scalePartitions, nil); err != nil {
			tb.Fatalf("create %s: %v", s.topic(i), err)
		}
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.MaxBufferedRecords(1<<20))
	if err != nil {
		tb.Fatal(err)
	}
	defer cl.Close()
	records := produceScale(tb, cl, s, start.Add(-time.Hour))
	produced := time.Since(start)
	commitScale(tb, kadm.NewClient(cl), s)
	tb.Logf("scale cluster: %d topics × %d partitions, %d records, %d groups; produced in %v, seeded in %v",
		s.topics, scalePartitions, records, s.groups(), produced.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	ok = true
	return k
}

// produceScale writes every partition's records, stamped an hour ago, and
// returns how many.
func produceScale(tb testing.TB, cl *kgo.Client, s scaleSpec, stamp time.Time) int {
	tb.Helper()
	var recs []*kgo.Record
	for i := range s.topics {
		for p := range int32(scalePartitions) {
			for r := range scaleRecords(p) {
				recs = append(recs, &kgo.Record{Topic: s.topic(i), Partition: p, Value: []byte("v"),
					Timestamp: stamp.Add(time.Duration(r) * time.Second)})
			}
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		tb.Fatalf("produce %d records: %v", len(recs), err)
	}
	return len(recs)
}

// commitScale commits every group's 50 offsets from 16 workers.
func commitScale(tb testing.TB, adm *kadm.Client, s scaleSpec) {
	tb.Helper()
	ctx := context.Background()
	jobs := make(chan int)
	errs := make(chan error, s.groups())
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for g := range jobs {
				o := kadm.Offsets{}
				for p := range int32(scalePartitions) {
					o.Add(kadm.Offset{Topic: s.groupTopic(g), Partition: p, At: scaleCommit(g, p), LeaderEpoch: -1})
				}
				resp, err := adm.CommitOffsets(ctx, s.group(g), o)
				if err == nil {
					err = resp.Error()
				}
				if err != nil {
					errs <- fmt.Errorf("commit %s: %w", s.group(g), err)
				}
			}
		})
	}
	for g := range s.groups() {
		jobs <- g
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		tb.Fatal(err)
	}
}

var (
	scaleMu       sync.Mutex
	scaleClusters = map[scaleSpec]*kfake.Cluster{}
)

// sharedScaleCluster builds each scale cluster once per test binary; benchmark
// functions run several times (b.N = 1, then the real N) and share it. It is
// never closed: it lives as long as the test process.
func sharedScaleCluster(tb testing.TB, s scaleSpec) *kfake.Cluster {
	tb.Helper()
	scaleMu.Lock()
	defer scaleMu.Unlock()
	if k, ok := scaleClusters[s]; ok {
		if k == nil {
			tb.Fatal("scale cluster failed to build earlier in this process")
		}
		return k
	}
	scaleClusters[s] = nil
	k := buildScaleCluster(tb, s)
	scaleClusters[s] = k
	return k
}
