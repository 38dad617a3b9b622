package plan

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TargetFollowsWatermarks names exactly the rows whose target Refresh re-reads.
func TestTargetFollowsWatermarks(t *testing.T) {
	in := fixture()
	in.Committed = map[model.TP]int64{{Topic: "orders", Partition: 0}: 50}
	orders := Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 1}}}}
	grown := fixture()
	for tp, o := range grown.Offsets {
		grown.Offsets[tp] = model.PartitionOffsets{Low: model.Ptr(*o.Low + 1), High: model.Ptr(*o.High + 7)}
	}
	grown.Committed = in.Committed
	for _, tc := range []struct {
		st     Strategy
		follow [2]bool // orders-0 (committed), orders-1 (no commit)
	}{
		{mustStrategy(t, ToEarliest, ""), [2]bool{true, true}},
		{mustStrategy(t, ToLatest, ""), [2]bool{true, true}},
		{mustStrategy(t, ToCurrent, ""), [2]bool{false, true}},
		{mustStrategy(t, ToOffset, "60"), [2]bool{false, false}},
	} {
		p := Make(orders, tc.st, in)
		q := p.Refresh(grown)
		for i, r := range p.Rows {
			if got := p.TargetFollowsWatermarks(r); got != tc.follow[i] {
				t.Errorf("%s %s: follows = %v, want %v", tc.st.Kind, r.TP(), got, tc.follow[i])
			}
			// The rule is Refresh's: a following target is re-read, another is kept.
			if moved := *q.Rows[i].Target != *r.Target; moved != tc.follow[i] {
				t.Errorf("%s %s: Refresh moved the target %v, want %v", tc.st.Kind, r.TP(), moved, tc.follow[i])
			}
		}
	}
}
