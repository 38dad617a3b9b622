package views

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// A reset executed from the TUI moves ship-svc's commit back from 3 to 1. The
// time axis learns of the write from the reset's result, so the refreshes after
// it show no rewind, no rate across the jump (they did: ETA "rewound", and the
// time to loss gone until the window forgot the jump).
func TestOwnResetIsNotConsumption(t *testing.T) {
	var committed atomic.Int64
	committed.Store(3)
	clk := newClock()
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := fixtureSnapshot(clk.now(), q.FetchBudget > 0)
		for i := range s.Groups {
			if g := &s.Groups[i]; g.Group == "ship-svc" {
				p := &g.Partitions[0]
				p.Committed, p.Lag = model.Ptr(committed.Load()), model.Ptr(*p.High-committed.Load())
				g.TotalLag = p.Lag
			}
		}
		s.Cluster.TakenAt = model.Stamp{Time: clk.now()}
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}}
	rs := &fakeResetter{result: func(p plan.Plan) plan.ResetResult {
		committed.Store(1) // what the write did on the cluster
		res := appliedResult(p)
		res.Plan.Rows = slices.Clone(res.Plan.Rows) // the planner's plan shares them: it is read on screen meanwhile
		for i := range res.Plan.Rows {
			res.Plan.Rows[i].Result = plan.WriteWritten
		}
		return res
	}}
	opts := optsWith(src, clk)
	opts.Resetter = rs
	hs := newHarness(t, opts, 120, 40)
	refresh := func() {
		clk.advance(6 * time.Second)
		hs.send(clockTickedMsg{})
	}
	hs.rewindShipSvc() // ship-svc's screen reads ship-svc alone from here on
	refresh()
	refresh()
	hs.send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	if p := hs.planner(); p == nil || p.result == nil || p.result.Outcome != plan.OutcomeApplied {
		t.Fatalf("the reset did not run:\n%s", hs.view())
	}
	hs.send(keyType(tea.KeyEsc)) // back to ship-svc, which reads it again
	judged := 0
	for range 3 {
		refresh()
		g := hs.m.snap.Groups[0]
		for _, gr := range hs.m.snap.Groups {
			if gr.Group == "ship-svc" {
				g = gr
			}
		}
		if g.Time == nil {
			continue
		}
		judged++
		if g.Time.Evaluation == model.EvalRewound || g.Time.ETA == model.ETARewound {
			t.Fatalf("after the TUI's own reset: evaluation %s, ETA %s; want neither rewound", g.Time.Evaluation, g.Time.ETA)
		}
		if r := g.Time.ConsumeRate; r.OK && r.V < 0 {
			t.Fatalf("after the TUI's own reset: consume rate %v: the jump back was read as consumption", r.V)
		}
	}
	if judged < 2 {
		t.Fatalf("ship-svc had rates on %d of the 3 refreshes after the reset: nothing was judged", judged)
	}
}
