package kafka_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The cost of reading __consumer_offsets for N groups each committed on 50 partitions
// (OFFSETTUI_MEASURE_COMMIT_LOG=N; not run by default; OFFSETTUI_MEASURE_COMMIT_LOG_AGE, 1h by
// default, is how long before the read the fake cluster's commits were made): on the fake cluster, whose
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
		age := time.Hour // OFFSETTUI_MEASURE_COMMIT_LOG_AGE=1m: as right after a seeding
		if d, err := time.ParseDuration(os.Getenv("OFFSETTUI_MEASURE_COMMIT_LOG_AGE")); err == nil {
			age = d
		}
		at := time.Now().Add(-age).Truncate(time.Millisecond)
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

// measureRead reads groups' commit logs twice, the second time after more() appended, as a
// client of many snapshots does (ReadCommitLog); then searches them as a one-shot command
// does (SearchCommitLog: every group's 50 last commits, and their history, as for groups
// without members right after a seeding). For each it logs the time, the requests, the
// records, the live heap the result keeps and the heap's peak during the read.
func measureRead(t *testing.T, c *kafka.Client, groups []string, more func()) {
	t.Helper()
	// As a snapshot of a Stable fleet reads it: no group keeps history.
	opt := kafka.CommitLogOptions{History: func(string) bool { return false }}
	var scan model.CommitLogScan
	var got map[string]*model.CommitLog
	kept, peak := measureHeap(func() { got, scan = c.ReadCommitLog(context.Background(), groups, opt) })
	commits := 0
	for _, g := range groups {
		if l := got[g]; l == nil || l.Status != model.CommitLogRead {
			t.Fatalf("%s: %+v", g, l)
		}
		commits += len(got[g].Commits)
	}
	t.Logf("%d groups: first read %s: %d partitions of __consumer_offsets, %d requests, %d records, %.1f MB of keys and values; "+
		"%d commits kept; live heap +%.1f MiB (the client's state and the CommitLogs), peak +%.1f MiB", len(groups), scan.Took.Round(time.Millisecond),
		scan.Partitions, scan.Requests, scan.Records, float64(scan.Bytes)/1e6, commits, kept, peak)
	more()
	got, scan = c.ReadCommitLog(context.Background(), groups, opt)
	t.Logf("second read (one commit appended): %s, %d requests, %d records", scan.Took.Round(time.Millisecond), scan.Requests, scan.Records)
	runtime.KeepAlive(got)
	got = nil
	// As a snapshot reads groups without members (a fleet just seeded): every group keeps history.
	all := newClient(t, strings.Split(c.Bootstrap(), ","), time.Now)
	kept, peak = measureHeap(func() { got, scan = all.ReadCommitLog(context.Background(), groups, kafka.CommitLogOptions{}) })
	recent := 0
	for _, g := range groups {
		recent += len(got[g].Recent)
	}
	t.Logf("first read with history: %s, %d requests, %d records; %d recent kept; live heap +%.1f MiB, peak +%.1f MiB",
		scan.Took.Round(time.Millisecond), scan.Requests, scan.Records, recent, kept, peak)
	runtime.KeepAlive(got)
	got = nil
	for _, history := range []bool{false, true} {
		needs := map[string]model.CommitLogNeed{}
		for _, g := range groups {
			n := model.CommitLogNeed{History: history}
			for p := range int32(50) {
				n.Commits = append(n.Commits, model.TP{Topic: "orders", Partition: p})
			}
			needs[g] = n
		}
		var found map[string]*model.CommitLog
		fresh := newClient(t, strings.Split(c.Bootstrap(), ","), time.Now)
		opt := kafka.CommitLogOptions{MinRecentTimes: model.CommitterMinCommits} // as a snapshot reads
		kept, peak := measureHeap(func() { found, scan = fresh.SearchCommitLog(context.Background(), needs, opt) })
		commits, recent := 0, 0
		for _, g := range groups {
			commits += len(found[g].Commits)
			recent += len(found[g].Recent)
		}
		t.Logf("search newest first (history %v): %s, %d requests, %d records, %.1f MB; %d commits and %d recent kept; live heap +%.1f MiB, peak +%.1f MiB",
			history, scan.Took.Round(time.Millisecond), scan.Requests, scan.Records, float64(scan.Bytes)/1e6, commits, recent, kept, peak)
		runtime.KeepAlive(found)
	}
}

// measureHeap runs read and returns, in MiB, the live heap it left (after a collection)
// and the largest heap in use while it ran (sampled every 5 ms), each above the heap
// before it.
func measureHeap(read func()) (kept, peak float64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	top := make(chan uint64)
	go func() {
		var most uint64
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				top <- most
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				most = max(most, ms.HeapInuse)
			}
		}
	}()
	read()
	close(stop)
	most := <-top
	runtime.GC()
	runtime.ReadMemStats(&after)
	mib := func(a, b uint64) float64 { return float64(int64(a)-int64(b)) / (1 << 20) }
	return mib(after.HeapAlloc, before.HeapAlloc), mib(most, before.HeapInuse)
}
