package kafka_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafkatest"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The cost of reading __consumer_offsets for N groups each committed on 50 partitions
// (OFFSETTUI_MEASURE_COMMIT_LOG=N; not run by default): on the fake cluster, whose
// __consumer_offsets (50 partitions) this test writes as Kafka's coordinator would, and,
// with the main broker's environment, on the real broker (kadm commits; its
// __consumer_offsets has the test broker's 3 partitions). It logs the first read (time,
// requests, records, bytes), the memory the read keeps (the client's state and the
// CommitLogs, live heap after a collection), and a second read (only what was appended).
func TestMeasureCommitLog(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("OFFSETTUI_MEASURE_COMMIT_LOG"))
	if n <= 0 {
		t.Skip("set OFFSETTUI_MEASURE_COMMIT_LOG=<groups> to measure")
	}
	groups := make([]string, n)
	for i := range groups {
		groups[i] = fmt.Sprintf("measure-grp-%05d", i)
	}
	t.Run("fake", func(t *testing.T) {
		k := kafkatest.Cluster(t)
		log := newFakeOffsetsTopic(t, k, 50)
		at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
		start := time.Now()
		var recs []*kgo.Record
		for _, g := range groups {
			for p := range int32(50) {
				recs = append(recs, log.commitRecord(g, "orders", p, int64(p), at))
			}
			if len(recs) >= 50_000 {
				log.write(recs...)
				recs = recs[:0]
			}
		}
		log.write(recs...)
		t.Logf("wrote %d commits in %s", n*50, time.Since(start).Round(time.Millisecond))
		measureRead(t, newClient(t, k.ListenAddrs(), time.Now), groups, func() {
			log.commit(groups[0], "orders", 0, 99, time.Now())
		})
	})
	t.Run("real", func(t *testing.T) {
		b := realkafka.Main(t)
		s := b.Seed(t)
		topic := realkafka.Name("measure-clog")
		s.CreateTopic(topic, 50, nil)
		prefix := realkafka.Name("mclog")
		names := make([]string, n)
		start := time.Now()
		var wg sync.WaitGroup
		sem := make(chan struct{}, 16)
		for i := range names {
			names[i] = fmt.Sprintf("%s-%05d", prefix, i)
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				offs := kadm.Offsets{}
				for p := int32(0); p < 50; p++ {
					offs.Add(kadm.Offset{Topic: topic, Partition: p, At: int64(i), LeaderEpoch: -1})
				}
				if _, err := s.Adm.CommitOffsets(realkafka.Ctx(t, 2*time.Minute), names[i], offs); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		t.Logf("committed %d groups × 50 partitions in %s", n, time.Since(start).Round(time.Millisecond))
		measureRead(t, newClient(t, []string{b.Addr}, time.Now), names, func() {
			offs := kadm.Offsets{}
			offs.Add(kadm.Offset{Topic: topic, Partition: 0, At: 99, LeaderEpoch: -1})
			if _, err := s.Adm.CommitOffsets(realkafka.Ctx(t, time.Minute), names[0], offs); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// measureRead reads groups' commit logs twice, the second time after more() appended.
func measureRead(t *testing.T, c *kafka.Client, groups []string, more func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// As a snapshot of a Stable fleet reads it: no group keeps history.
	opt := kafka.CommitLogOptions{History: func(string) bool { return false }}
	got, scan := c.ReadCommitLog(context.Background(), groups, opt)
	runtime.GC()
	runtime.ReadMemStats(&after)
	commits := 0
	for _, g := range groups {
		if l := got[g]; l == nil || l.Status != model.CommitLogRead {
			t.Fatalf("%s: %+v", g, l)
		}
		commits += len(got[g].Commits)
	}
	t.Logf("%d groups: first read %s: %d partitions of __consumer_offsets, %d requests, %d records, %.1f MB of keys and values; "+
		"%d commits kept; live heap +%.1f MiB (the client's state and the CommitLogs)", len(groups), scan.Took.Round(time.Millisecond),
		scan.Partitions, scan.Requests, scan.Records, float64(scan.Bytes)/1e6, commits, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
	more()
	got, scan = c.ReadCommitLog(context.Background(), groups, opt)
	t.Logf("second read (one commit appended): %s, %d requests, %d records", scan.Took.Round(time.Millisecond), scan.Requests, scan.Records)
	runtime.KeepAlive(got)
}
