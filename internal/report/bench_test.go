package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// fleetSnapshot is groups × 50 committed rows in the shape of the scale
// cluster: every number known, status ok, no member.
func fleetSnapshot(groups int) model.Snapshot {
	s := model.Snapshot{Cluster: model.Cluster{Bootstrap: "k:9092", Brokers: 3}, Topics: []model.Topic{}, Errors: []model.Error{}}
	for g := range groups {
		grp := model.Group{Group: fmt.Sprintf("g%05d", g), Type: "classic", State: "Empty", Members: []model.Member{},
			TotalLag: model.Ptr(int64(50)), WorstStatus: model.StatusOK, Counts: model.Counts{model.StatusOK: 50}}
		topic := fmt.Sprintf("t%03d", g/25)
		for p := range int32(50) {
			grp.Partitions = append(grp.Partitions, model.GroupPartition{Topic: topic, Partition: p, Low: model.Ptr(int64(0)),
				High: model.Ptr(int64(6)), LastStable: model.Ptr(int64(6)), Committed: model.Ptr(int64(5)), Lag: model.Ptr(int64(1)),
				TimeLagMs: model.Ptr(int64(3_600_000))})
		}
		s.Groups = append(s.Groups, grp)
	}
	return s
}

// BenchmarkDescribeOutput: the fleet's 10,000 groups × 50 rows as a table
// and as JSON, written to nowhere.
func BenchmarkDescribeOutput(b *testing.B) {
	s := fleetSnapshot(10_000)
	table := func(w io.Writer, s model.Snapshot) error { return DescribeFit(w, s, 0) }
	for name, write := range map[string]func(io.Writer, model.Snapshot) error{"table": table, "json": DescribeJSON} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := write(io.Discard, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
