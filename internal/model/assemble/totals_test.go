package assemble

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// TestTotalLagIsNeverAPartialSum: a group with any partition whose lag could not
// be read, a group whose offsets could not be read, and every group when topics
// may be hidden from the principal get a null totalLag; what could be read is a
// lower bound, never a bare total.
func TestTotalLagIsNeverAPartialSum(t *testing.T) {
	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	tp := func(p int32) model.TP { return model.TP{Topic: "orders", Partition: p} }
	topic := model.Topic{Topic: "orders", Partitions: 3, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1))}
	stalled := model.Error{Kind: model.KindTimeout, Message: "list offsets: i/o timeout"}
	base := func() model.Observation {
		return model.Observation{TakenAt: now, AllTopicsVisible: model.Ptr(true),
			Topics: map[string]model.Topic{"orders": topic},
			Offsets: map[model.TP]model.PartitionOffsets{
				tp(0): {Low: model.Ptr(int64(0)), High: model.Ptr(int64(100))},
				tp(1): {Low: model.Ptr(int64(0)), High: model.Ptr(int64(300))},
				tp(2): {Low: model.Ptr(int64(0)), High: model.Ptr(int64(50))},
			},
			Groups: []model.GroupObservation{{Group: "g", State: "Empty", Committed: map[model.TP]int64{tp(0): 0, tp(1): 85, tp(2): 42}}},
		}
	}
	for _, c := range []struct {
		name           string
		mutate         func(*model.Observation)
		total, atLeast *int64
	}{
		{"every partition read", func(*model.Observation) {}, model.Ptr(int64(100 + 215 + 8)), nil},
		{"one leader stalled", func(o *model.Observation) { o.Offsets[tp(1)] = model.PartitionOffsets{Error: &stalled} }, nil, model.Ptr(int64(108))},
		{"every leader stalled", func(o *model.Observation) {
			for p := range int32(3) {
				o.Offsets[tp(p)] = model.PartitionOffsets{Error: &stalled}
			}
		}, nil, nil},
		{"every leader stalled, topics may be hidden", func(o *model.Observation) {
			o.AllTopicsVisible = model.Ptr(false)
			for p := range int32(3) {
				o.Offsets[tp(p)] = model.PartitionOffsets{Error: &stalled}
			}
		}, nil, nil},
		{"offsets of the group unreadable", func(o *model.Observation) {
			o.Groups[0].Committed, o.Groups[0].Error = nil, stalled.WithGroup("g")
		}, nil, nil},
		{"topics may be hidden", func(o *model.Observation) { o.AllTopicsVisible = model.Ptr(false) }, nil, model.Ptr(int64(323))},
		{"visibility unknown", func(o *model.Observation) { o.AllTopicsVisible = nil }, nil, model.Ptr(int64(323))},
		{"share group, every lag given", func(o *model.Observation) {
			o.Groups[0] = shareObservation(map[model.TP]int64{tp(0): 100, tp(1): 215, tp(2): 8})
		}, model.Ptr(int64(323)), nil},
		{"share group, one lag not given", func(o *model.Observation) {
			o.Groups[0] = shareObservation(map[model.TP]int64{tp(0): 100, tp(2): 8})
		}, nil, model.Ptr(int64(108))},
		{"share group, no lag given (Kafka 4.1)", func(o *model.Observation) {
			o.Groups[0] = shareObservation(map[model.TP]int64{})
		}, nil, model.Ptr(int64(0))},
		// A group that never committed (a live member assigned orders-0) has no lag
		// to sum: not 0, which says caught up.
		{"never committed", func(o *model.Observation) {
			o.Groups[0].Committed, o.Groups[0].State = map[model.TP]int64{}, "Stable"
			o.Groups[0].Members = []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}, Assignments: []model.Assignment{{Topic: "orders", Partitions: []int32{0}}}}}
		}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := base()
			c.mutate(&o)
			g := Snapshot(o, Options{}).Groups[0]
			if text.Num(g.TotalLag) != text.Num(c.total) || text.Num(g.TotalLagAtLeast) != text.Num(c.atLeast) {
				t.Errorf("totalLag %s, at least %s; want %s, %s", text.Num(g.TotalLag), text.Num(g.TotalLagAtLeast), text.Num(c.total), text.Num(c.atLeast))
			}
			if c.total == nil && g.Error != nil && g.WorstStatus != model.StatusUnknown {
				t.Errorf("worst status %s, want unknown", g.WorstStatus)
			}
		})
	}
}

// shareObservation is a share group at start offsets 0, 85, 42 of orders with the
// broker's lag where lag has one.
func shareObservation(lag map[model.TP]int64) model.GroupObservation {
	tp := func(p int32) model.TP { return model.TP{Topic: "orders", Partition: p} }
	return model.GroupObservation{Group: "g", Type: model.TypeShare, State: "Empty",
		StartOffsets: map[model.TP]int64{tp(0): 0, tp(1): 85, tp(2): 42}, ShareLag: lag}
}

// TestSortPutsPartialTotalsFirst: within a status, a group whose total is only a
// lower bound sorts before whole totals (its missing part may be the largest),
// and lower bounds never compete with whole totals on size.
func TestSortPutsPartialTotalsFirst(t *testing.T) {
	gs := []model.Group{
		{Group: "whole-big", TotalLag: model.Ptr(int64(1000))},
		{Group: "partial-small", TotalLagAtLeast: model.Ptr(int64(5))},
		{Group: "nothing-known"},
		{Group: "whole-small", TotalLag: model.Ptr(int64(1))},
	}
	model.SortGroupsByUrgency(gs)
	var got []string
	for _, g := range gs {
		got = append(got, g.Group)
	}
	want := []string{"partial-small", "nothing-known", "whole-big", "whole-small"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
