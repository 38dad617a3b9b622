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

// The scale cluster: 3 brokers, 200 topics × 50 partitions, 1,000
// offsets-only groups, each committed on all 50 partitions of one topic (five
// groups per topic). Every commit is in range, so the truth is simple: lag =
// high − committed, status ok (the records are an hour old, far from any
// retention threshold).
const (
	scaleTopics          = 200
	scalePartitions      = 50
	scaleGroupsPerTopic  = 5
	scaleGroups          = scaleTopics * scaleGroupsPerTopic
	scaleOneGroup        = "g0500" // a 50-partition group for the one-group figures
	scaleRecordsPerBatch = 3
)

func scaleTopic(i int) string { return fmt.Sprintf("t%03d", i) }
func scaleGroup(i int) string { return fmt.Sprintf("g%04d", i) }

// scaleRecords is how many records partition p of every scale topic holds (3..6).
func scaleRecords(p int32) int { return scaleRecordsPerBatch + int(p)%4 }

// scaleCommit is the offset group g commits on partition p of its topic: 0..2
// below the high watermark.
func scaleCommit(g int, p int32) int64 { return int64(scaleRecords(p) - (g+int(p))%3) }

// buildScaleCluster starts and seeds the scale cluster. The caller closes it.
// Seeding takes a few seconds: topics are created through kfake's admin path,
// records go out in one batched kgo produce, commits through kadm from 16
// workers.
func buildScaleCluster(tb testing.TB) *kfake.Cluster {
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
	for i := range scaleTopics {
		if err := k.CreateTopic(scaleTopic(i), scalePartitions, nil); err != nil {
			tb.Fatalf("create %s: %v", scaleTopic(i), err)
		}
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.MaxBufferedRecords(1<<20))
	if err != nil {
		tb.Fatal(err)
	}
	defer cl.Close()
	stamp := start.Add(-time.Hour)
	var recs []*kgo.Record
	for i := range scaleTopics {
		for p := range int32(scalePartitions) {
			for r := range scaleRecords(p) {
				recs = append(recs, &kgo.Record{Topic: scaleTopic(i), Partition: p, Value: []byte("v"),
					Timestamp: stamp.Add(time.Duration(r) * time.Second)})
			}
		}
	}
	ctx := context.Background()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		tb.Fatalf("produce %d records: %v", len(recs), err)
	}
	produced := time.Since(start)

	adm := kadm.NewClient(cl)
	jobs := make(chan int)
	errs := make(chan error, scaleGroups)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for g := range jobs {
				o := kadm.Offsets{}
				for p := range int32(scalePartitions) {
					o.Add(kadm.Offset{Topic: scaleTopic(g / scaleGroupsPerTopic), Partition: p, At: scaleCommit(g, p), LeaderEpoch: -1})
				}
				resp, err := adm.CommitOffsets(ctx, scaleGroup(g), o)
				if err == nil {
					err = resp.Error()
				}
				if err != nil {
					errs <- fmt.Errorf("commit %s: %w", scaleGroup(g), err)
				}
			}
		})
	}
	for g := range scaleGroups {
		jobs <- g
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		tb.Fatal(err)
	}
	tb.Logf("scale cluster: %d topics × %d partitions, %d records, %d groups; produced in %v, seeded in %v",
		scaleTopics, scalePartitions, len(recs), scaleGroups, produced.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	ok = true
	return k
}

var (
	scaleOnce    sync.Once
	scaleCluster *kfake.Cluster
)

// sharedScaleCluster builds the scale cluster once per test binary; benchmark
// functions run several times (b.N = 1, then the real N) and share it. It is
// never closed: it lives as long as the test process.
func sharedScaleCluster(tb testing.TB) *kfake.Cluster {
	tb.Helper()
	scaleOnce.Do(func() { scaleCluster = buildScaleCluster(tb) })
	if scaleCluster == nil {
		tb.Fatal("scale cluster failed to build earlier in this process")
	}
	return scaleCluster
}
