package views

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// TestPlannerWritesAPlanFile: w outside the value field writes the plan shown (as counted on
// screen) to a plan file in the report directory and says how it is applied; in the value
// field w is text; a blocked plan (the planner's first, --to-current, changes nothing) is not
// written; a read-only TUI writes plan files too (read-only is the planner's setting, not the
// plan's).
func TestPlannerWritesAPlanFile(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 160, 50, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("R"))
	hs.send(keyRunes("w"))
	if len(rs.planFiles) != 0 || !strings.Contains(hs.view(), "no plan file written: the plan is blocked") {
		t.Fatalf("a blocked plan: %d plan files\n%s", len(rs.planFiles), hs.view())
	}
	hs.send(keyRunes("l"), keyType(tea.KeyTab)).typeText("1w") // the value field takes w as text
	if len(rs.planFiles) != 0 || hs.planner().value.Value() != "1w" {
		t.Fatalf("w in the value field: %d plan files, value %q", len(rs.planFiles), hs.planner().value.Value())
	}
	hs.send(keyType(tea.KeyBackspace), keyType(tea.KeyEsc), keyRunes("?"))
	if v := hs.view(); !strings.Contains(v, "write the plan to a plan file for another person to apply") {
		t.Errorf("the help does not offer w:\n%s", v)
	}
	hs.send(keyType(tea.KeyEsc), keyRunes("w"))
	p := hs.planner()
	if len(rs.planFiles) != 1 || rs.planFiles[0].p.Totals != p.plan.Totals || model.Deref(rs.planFiles[0].p.Rows[0].Target) != 1 {
		t.Fatalf("plan files %+v; want the plan shown, --to-offset 1", rs.planFiles)
	}
	if path := rs.planFiles[0].path; !strings.HasPrefix(path, "offsettui-plan-ship-svc-") || !strings.HasSuffix(path, ".json") {
		t.Errorf("plan file path %q", path)
	}
	if v := hs.view(); !strings.Contains(v, "plan file written: /abs/offsettui-plan-ship-svc-") || !strings.Contains(v, "offsettui apply") {
		t.Errorf("no word of the plan file:\n%s", v)
	}

	ro := &fakeResetter{readOnly: true}
	hs, _ = plannerHarness(t, 160, 50, ro, true)
	hs.rewindShipSvc().send(keyType(tea.KeyEsc), keyRunes("w"))
	if len(ro.planFiles) != 1 {
		t.Errorf("read-only: %d plan files, want 1\n%s", len(ro.planFiles), hs.view())
	}
}
