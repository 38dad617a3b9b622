package views

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// Until a key moves it, the cursor stays on the first row, whatever a refresh
// reorders: it started on row 4 once the second snapshot moved the group it
// was on. Once a key moved it, it follows its group.
func TestCursorStaysOnTheFirstRowUntilMoved(t *testing.T) {
	clk := newClock()
	reads := 0
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		reads++
		s := fixtureSnapshot(fixtureNow, false)
		if reads > 1 { // ship-svc's next record is deleted in a minute: it leads the list
			for i := range s.Groups {
				if g := &s.Groups[i]; g.Group == "ship-svc" {
					g.Partitions[0].Status, g.Partitions[0].ExpiresInMs = model.StatusAtRisk, model.Ptr(int64(60_000))
					g.Counts, g.WorstStatus = model.Counts{model.StatusAtRisk: 1}, model.StatusAtRisk
				}
			}
			model.SortGroupsByUrgency(s.Groups)
		}
		return s, nil
	}}
	hs := newHarness(t, optsWith(src, clk), 120, 40)
	g := hs.m.stack[0].(*groupsScreen)
	if g.cursor != 0 || g.current().g.Group != "audit-export" {
		t.Fatalf("first snapshot: cursor %d on %s", g.cursor, g.current().g.Group)
	}
	hs.send(keyRunes("r"))
	if g.cursor != 0 || g.current().g.Group != "ship-svc" {
		t.Fatalf("after a refresh that reordered: cursor %d on %s, want row 0 (ship-svc)", g.cursor, g.current().g.Group)
	}
	hs.send(keyRunes("j")) // now the cursor is the operator's: it follows its group
	on := g.current().g.Group
	reads = 0 // the next read is the fixture again: ship-svc falls back
	hs.send(keyRunes("r"))
	if g.current().g.Group != on {
		t.Errorf("after a key moved it, the cursor left its group %s for %s", on, g.current().g.Group)
	}
}
