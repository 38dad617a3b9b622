package kafka_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

// BenchmarkSnapshot times a whole-cluster snapshot of the scale cluster (200
// topics × 50 partitions, 1,000 groups × 50 commits) and counts the requests
// it costs on the server side:
//
//   - cold: a new client per snapshot (kafka.New + Snapshot + Close), as one
//     run of `offsettui describe` does;
//   - warm: one client, repeated snapshots (the TUI's refresh);
//   - warm-fetch: warm with the default fetch budget for committed-record
//     timestamps.
//
// Targets (2 cores): warm under 250 ms; warm requests a small
// multiple of the broker count, not of groups or partitions.
func BenchmarkSnapshot(b *testing.B) {
	benchScale(b, scale1k)
}

// benchScale runs the cold, warm and warm-fetch snapshots of a scale cluster.
func benchScale(b *testing.B, s scaleSpec) {
	k := sharedScaleCluster(b, s)
	addrs := k.ListenAddrs()
	rc := kafkatest.CountRequests(k)
	defer rc.Remove()

	b.Run("cold", func(b *testing.B) {
		check := true
		benchSnapshots(b, rc, s, model.Query{}, func() (*kafka.Client, func()) {
			c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: addrs, Timeout: 10 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			return c, func() { _ = c.Close() }
		}, &check)
	})
	b.Run("warm", func(b *testing.B) {
		benchWarm(b, rc, addrs, s, model.Query{})
	})
	b.Run("warm-fetch", func(b *testing.B) {
		benchWarm(b, rc, addrs, s, model.Query{FetchBudget: model.DefaultFetchBudget})
	})
}

// BenchmarkSnapshotOneGroup times `describe --group G` on a warm client: one
// 50-partition group of the scale cluster.
func BenchmarkSnapshotOneGroup(b *testing.B) {
	k := sharedScaleCluster(b, scale1k)
	rc := kafkatest.CountRequests(k)
	defer rc.Remove()
	benchWarm(b, rc, k.ListenAddrs(), scale1k, model.Query{Groups: []string{scale1k.oneGroup}})
}

// benchWarm takes one untimed snapshot to connect and fill caches, then times
// repeated snapshots on the same client.
func benchWarm(b *testing.B, rc *kafkatest.RequestCounter, addrs []string, s scaleSpec, q model.Query) {
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: addrs, Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	snap, err := c.Snapshot(context.Background(), q)
	if err != nil {
		b.Fatal(err)
	}
	checkScaleSnapshot(b, s, snap, q)
	check := false
	benchSnapshots(b, rc, s, q, func() (*kafka.Client, func()) { return c, func() {} }, &check)
}

// benchSnapshots times b.N snapshots, each on the client open returns, and
// reports the server-side requests per snapshot.
func benchSnapshots(b *testing.B, rc *kafkatest.RequestCounter, s scaleSpec, q model.Query, open func() (*kafka.Client, func()), check *bool) {
	ctx := context.Background()
	b.ReportAllocs()
	before := rc.Read()
	cpu0 := processCPU()
	b.ResetTimer()
	for range b.N {
		c, done := open()
		snap, err := c.Snapshot(ctx, q)
		done()
		if err != nil {
			b.Fatal(err)
		}
		if *check {
			b.StopTimer()
			checkScaleSnapshot(b, s, snap, q)
			*check = false
			b.StartTimer()
		}
	}
	b.StopTimer()
	got := rc.Since(before)
	b.ReportMetric(float64(got.Total)/float64(b.N), "requests/op")
	// CPU of the whole process (client, the in-process kfake brokers, GC) per
	// snapshot: steadier than ns/op on a shared machine.
	b.ReportMetric(float64((processCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.Logf("N=%d, requests per snapshot by key: %s", b.N, got.Breakdown(b.N))
}

// processCPU is the user+system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// checkScaleSnapshot makes sure a benchmark times a complete, correct snapshot
// rather than a fast failure.
func checkScaleSnapshot(tb testing.TB, s scaleSpec, snap model.Snapshot, q model.Query) {
	tb.Helper()
	if len(snap.Errors) > 0 {
		tb.Fatalf("snapshot errors: %d, first %+v", len(snap.Errors), snap.Errors[0])
	}
	want := s.groups()
	if len(q.Groups) > 0 {
		want = len(q.Groups)
	}
	if len(snap.Groups) != want {
		tb.Fatalf("snapshot has %d groups, want %d", len(snap.Groups), want)
	}
	for _, g := range snap.Groups {
		var gi int
		if _, err := fmt.Sscanf(g.Group, "g%d", &gi); err != nil {
			tb.Fatalf("unexpected group %q", g.Group)
		}
		if len(g.Partitions) != scalePartitions || g.Error != nil {
			tb.Fatalf("%s: %d partitions, error %v; want %d and none", g.Group, len(g.Partitions), g.Error, scalePartitions)
		}
		for _, p := range g.Partitions {
			wantLag := int64(scaleRecords(p.Partition)) - scaleCommit(gi, p.Partition)
			if p.Topic != s.groupTopic(gi) || p.Status != model.StatusOK || p.Lag == nil || *p.Lag != wantLag {
				tb.Fatalf("%s %s-%d: status %v lag %v; want %s, ok, lag %d", g.Group, p.Topic, p.Partition, p.Status, val(p.Lag),
					s.groupTopic(gi), wantLag)
			}
		}
	}
}

// TestServeScaleCluster is not a test: with OFFSETTUI_SCALE_SERVE=1 it builds
// the scale cluster, writes its bootstrap servers (comma separated) to the file
// named by OFFSETTUI_SCALE_ADDR_FILE and serves until that file is removed or
// OFFSETTUI_SCALE_TIMEOUT (a Go duration, default 10m) passes.
// OFFSETTUI_SCALE_GROUPS picks the size: 1000 (the default) or 10000.
// scripts/bench-process.sh uses it to time the built binary.
func TestServeScaleCluster(t *testing.T) {
	if os.Getenv("OFFSETTUI_SCALE_SERVE") != "1" {
		t.Skip("set OFFSETTUI_SCALE_SERVE=1 (and OFFSETTUI_SCALE_ADDR_FILE) to serve the scale cluster")
	}
	file := os.Getenv("OFFSETTUI_SCALE_ADDR_FILE")
	if file == "" {
		t.Fatal("OFFSETTUI_SCALE_ADDR_FILE is not set")
	}
	timeout := 10 * time.Minute
	if s := os.Getenv("OFFSETTUI_SCALE_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("OFFSETTUI_SCALE_TIMEOUT: %v", err)
		}
		timeout = d
	}
	spec, err := scaleSpecFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	k := buildScaleCluster(t, spec)
	defer k.Close()
	serveUntilRemoved(t, k, file, timeout)
}

// scaleSpecFromEnv reads OFFSETTUI_SCALE_GROUPS (default 1000).
func scaleSpecFromEnv() (scaleSpec, error) {
	n := 1000
	if v := os.Getenv("OFFSETTUI_SCALE_GROUPS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return scaleSpec{}, fmt.Errorf("OFFSETTUI_SCALE_GROUPS: %w", err)
		}
	}
	return scaleSpecFor(n)
}

// serveUntilRemoved publishes the bootstrap atomically (write, then rename) so
// a reader never sees half of it, then waits for the file to go away.
func serveUntilRemoved(t *testing.T, k *kfake.Cluster, file string, timeout time.Duration) {
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(k.ListenAddrs(), ",")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	t.Logf("serving %s until %s is removed (at most %v)", strings.Join(k.ListenAddrs(), ","), file, timeout)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(file); os.IsNotExist(err) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("timeout: %s still exists after %v", file, timeout)
}
