package model

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkHistoryAddAnnotate is one TUI refresh at fleet scale: 10,000
// groups × 50 partitions recorded and annotated, with 16 samples kept.
func BenchmarkHistoryAddAnnotate(b *testing.B) {
	const groups, parts = 10_000, 50
	topics := make([]string, groups/25)
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%04d", i)
	}
	snap := func(k int) *Snapshot {
		s := &Snapshot{Cluster: Cluster{TakenAt: Stamp{t0.Add(time.Duration(k) * 5 * time.Second)}}, Groups: make([]Group, groups)}
		for g := range s.Groups {
			ps := make([]GroupPartition, parts)
			for p := range ps {
				c, h := int64(k*10+p), int64(k*12+p+100)
				ps[p] = GroupPartition{Topic: topics[g/25], Partition: int32(p), Committed: &c, High: &h, Lag: Ptr(h - c)}
			}
			s.Groups[g] = Group{Group: fmt.Sprintf("group-%05d", g), Members: []Member{{}}, Partitions: ps, TotalLag: Ptr(int64(1))}
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
		s.Cluster.TakenAt = Stamp{t0.Add(time.Duration(17+i) * 5 * time.Second)}
		h.Add(s, true)
		h.Annotate(s, TimeOptions{})
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap-history+1-snapshot")
}
