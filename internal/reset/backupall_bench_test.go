package reset

import (
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// BenchmarkSaveBackups: the archive of 1,000 groups of two partitions each, written,
// synced and read back whole (the disk's share of backup --all-groups).
func BenchmarkSaveBackups(b *testing.B) {
	snap := model.Snapshot{Cluster: model.Cluster{ID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true)}}
	for i := range 1000 {
		snap.Groups = append(snap.Groups, model.Group{Group: fmt.Sprintf("it-bk-g-60e2e57e-%04d", i), Type: model.TypeClassic,
			Partitions: []model.GroupPartition{{Topic: "it-bk-5d1c2b7a", Partition: 0, Committed: model.Ptr(int64(i % 4))},
				{Topic: "it-bk-5d1c2b7a", Partition: 1, Committed: model.Ptr(int64(1))}}})
	}
	s := &Service{User: "bench", Now: time.Now}
	for b.Loop() {
		for _, sv := range s.SaveBackups(snap, b.TempDir()) {
			if sv.Err != nil {
				b.Fatal(sv.Err)
			}
		}
	}
}
