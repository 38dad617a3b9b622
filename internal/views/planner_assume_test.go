package views

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// TestPlannerSwitchesTheAssumption: a plan of audit-export's orders that includes its
// partition without a commit (5) names the auto.offset.reset its counts assume; a counts
// them under earliest, then none, then latest again, without a new plan and without
// changing what is written; the plan executed carries the assumption shown.
func TestPlannerSwitchesTheAssumption(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 160, 50, rs, false)
	hs.openGroup("audit-export").send(keyRunes("R"))
	hs.send(keyRunes("h"), keyRunes("h")) // --to-earliest, of the whole topic (orders-5 has no commit)
	hs.send(keyType(tea.KeyDown), keyRunes("l"))
	p := hs.planner()
	if p.plan == nil || p.plan.AssumeReset != model.ResetLatest || len(p.plan.Rows) != 6 {
		t.Fatalf("plan %+v", p.plan)
	}
	targets := func() []int64 {
		var out []int64
		for _, r := range p.plan.Rows {
			out = append(out, model.Deref(r.Target))
		}
		return out
	}
	before, latest := targets(), p.plan.Totals
	if v := hs.view(); !strings.Contains(v, "assuming auto.offset.reset=latest, the Kafka client default; with earliest:") {
		t.Fatalf("no assumption named:\n%s", v)
	}
	calls, _ := rs.calls()
	hs.send(keyRunes("a"))
	if p.plan.AssumeReset != model.ResetEarliest || p.plan.Totals == latest {
		t.Fatalf("after a: %s %+v (latest %+v)", p.plan.AssumeReset, p.plan.Totals, latest)
	}
	if got := p.plan.Totals; got != p.plan.WithAssumeReset(model.ResetEarliest).Totals {
		t.Errorf("earliest counts %+v", got)
	}
	if v := hs.view(); !strings.Contains(v, "assuming auto.offset.reset=earliest; with latest:") {
		t.Errorf("the switch is not shown:\n%s", v)
	}
	hs.send(keyRunes("a"), keyRunes("a"))
	if p.plan.AssumeReset != model.ResetLatest || p.plan.Totals != latest {
		t.Errorf("a three times: %s %+v, want latest %+v", p.plan.AssumeReset, p.plan.Totals, latest)
	}
	if again, _ := rs.calls(); len(again) != len(calls) || !slices.Equal(targets(), before) {
		t.Errorf("switching re-planned (%d → %d calls) or moved targets %v → %v", len(calls), len(again), before, targets())
	}
	hs.send(keyRunes("a")) // earliest, then arm and execute
	hs.send(keyType(tea.KeyEnter)).typeText("audit-export").send(keyType(tea.KeyEnter))
	_, executed := rs.calls()
	if len(executed) != 1 || executed[0].AssumeReset != model.ResetEarliest {
		t.Fatalf("executed %+v", executed)
	}
}
