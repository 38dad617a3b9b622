package views

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// noteResetter is a fakeResetter whose plans carry the note reset.Service adds when a
// rewind's target record is about to be deleted by retention.
type noteResetter struct{ *fakeResetter }

func (n noteResetter) Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	p, err := n.fakeResetter.Plan(ctx, group, scope, st)
	p.Notes = append(p.Notes, plan.Note{Kind: plan.NoteTargetExpires, Topic: model.Ptr("shipments"), Partition: model.Ptr(int32(0)),
		Message: "shipments-0: retention may delete the target record 1 itself in 4m: unless the group reads it before, it is expired again and its consumers jump to auto.offset.reset"})
	return p, err
}

// TestPlannerWarnsTheTargetExpires: the planner shows a plan's target-expires note before
// it is armed, on a wide screen whole and on a short one at least its start: a rewind
// whose target retention deletes in minutes is never planned in silence.
func TestPlannerWarnsTheTargetExpires(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {60, 15}} {
		hs, _ := plannerHarness(t, size[0], size[1], noteResetter{&fakeResetter{}}, false)
		hs.rewindShipSvc()
		v := ansi.Strip(hs.view())
		want := "NOTE  shipments-0: retention may delete the target record 1 itself in 4m"
		if size[0] < 100 {
			want = "NOTE  shipments-0: retention may"
		}
		if !strings.Contains(strings.Join(strings.Fields(v), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("%dx%d: no target-expires note:\n%s", size[0], size[1], v)
		}
	}
}
