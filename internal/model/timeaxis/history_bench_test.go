package timeaxis

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// BenchmarkHistoryAddAnnotate is one TUI refresh at fleet scale: 10,000
// groups × 50 partitions recorded and annotated, with 16 samples kept.
func BenchmarkHistoryAddAnnotate(b *testing.B) {
	const groups, parts = 10_000, 50
	topics := make([]string, groups/25)
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%04d", i)
	}
	snap := func(k int) *model.Snapshot {
		s := &model.Snapshot{Cluster: model.Cluster{TakenAt: model.Stamp{Time: t0.Add(time.Duration(k) * 5 * time.Second)}}, Groups: make([]model.Group, groups)}
		for g := range s.Groups {
			ps := make([]model.GroupPartition, parts)
			for p := range ps {
				c, h := int64(k*10+p), int64(k*12+p+100)
				ps[p] = model.GroupPartition{Topic: topics[g/25], Partition: int32(p), Committed: &c, High: &h, Lag: model.Ptr(h - c)}
			}
			s.Groups[g] = model.Group{Group: fmt.Sprintf("group-%05d", g), Members: []model.Member{{}}, Partitions: ps, TotalLag: model.Ptr(int64(1))}
		}
		return s
	}
	h := NewHistory(16, 0)
	for k := range 16 {
		h.Add(snap(k), true)
	}
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	heap := mem.HeapAlloc
	s := snap(16)
	for i := 0; b.Loop(); i++ {
		s.Cluster.TakenAt = model.Stamp{Time: t0.Add(time.Duration(17+i) * 5 * time.Second)}
		h.Add(s, true)
		h.Annotate(s, Options{})
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap-history+1-snapshot")
}
