package serve

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// fleetSnapshot is the fleet of docs/testing.md#speed as serve sees it:
// groups × 50 partitions, each group on a topic of its own, with lag and a
// time lag, every partition ok, and bad partitions in every tenth group.
func fleetSnapshot(groups int, at time.Time) model.Snapshot {
	s := snapshotAt(at)
	for g := range groups {
		parts := make([]model.GroupPartition, 50)
		topic := fmt.Sprintf("t%04d", g%400)
		for p := range parts {
			parts[p] = part(topic, int32(p), 90, 100, model.StatusOK)
			parts[p].TimeLagMs = model.Ptr(int64(1000 * p))
		}
		if g%10 == 0 {
			parts[0].Status = model.StatusExpired
			parts[0].SetLost(model.Ptr(int64(5)))
		}
		s.Groups = append(s.Groups, group(fmt.Sprintf("g%05d", g), 1, parts...))
	}
	return s
}

// BenchmarkScrape10k is one scrape of /metrics at 10,000 groups × 50
// partitions, rates included (two snapshots taken).
func BenchmarkScrape10k(b *testing.B) {
	clk := &fixedClock{now: t0}
	src := &scripted{snap: fleetSnapshot(10000, t0)}
	e, err := New(Options{Targets: []Target{{Cluster: "prod", Source: src}}, Interval: 30 * time.Second,
		Deadline: 20 * time.Second, Clock: clk.clock()})
	if err != nil {
		b.Fatal(err)
	}
	e.pollers[0].take(b.Context())
	clk.now = t0.Add(30 * time.Second)
	src.snap = fleetSnapshot(10000, clk.now)
	e.pollers[0].take(b.Context())
	b.ReportAllocs()
	b.ResetTimer()
	var size int64
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		n, _ := io.Copy(io.Discard, rec.Result().Body)
		size = n
	}
	b.ReportMetric(float64(size), "bytes/scrape")
}

// BenchmarkPublish10k is what serve adds to each snapshot at 10,000 groups ×
// 50 partitions: the view and its series (the history's part is
// BenchmarkHistoryAddAnnotate in internal/model).
func BenchmarkPublish10k(b *testing.B) {
	snap := fleetSnapshot(10000, t0)
	for _, gran := range []Granularity{GranularityPartition, GranularityTopic, GranularityGroup} {
		b.Run(gran.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := buildView(&snap, model.DefaultRiskWindow, DefaultMaxPartitionSeries, &Selection{Granularity: gran})
				_ = viewFamilies("prod", v, gran)
			}
		})
	}
}
