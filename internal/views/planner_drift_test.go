package views

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// setWatermarks is a fakeResetter edit: tp's watermarks are low and high now.
func setWatermarks(tp model.TP, low, high int64) func(in *plan.Input) {
	return func(in *plan.Input) {
		in.Offsets[tp] = model.PartitionOffsets{Low: model.Ptr(low), High: model.Ptr(high)}
	}
}

var shipments0 = model.TP{Topic: "shipments", Partition: 0}

// refreshWith makes the next plans from state edited by edit, and refreshes:
// the planner re-plans on the new snapshot.
func refreshWith(hs *harness, clk *clock, rs *fakeResetter, edit func(in *plan.Input)) {
	rs.mu.Lock()
	rs.edit = edit
	rs.mu.Unlock()
	clk.advance(6 * time.Second)
	hs.send(clockTickedMsg{})
}

// Watermark growth alone is not drift. A target that follows the
// watermarks is re-read right before the commit, so a topic being written to
// must not disarm the plan each refresh; anything else that changes still does.
func TestPlannerArmedAcrossRefresh(t *testing.T) {
	latest := func(hs *harness) { hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("h")) }
	earliest := func(hs *harness) { hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("h"), keyRunes("h")) }
	toOffset10 := func(hs *harness) { // clamped to high 5: a target that does not follow
		hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab)).typeText("10").send(keyType(tea.KeyEsc))
	}
	for _, tc := range []struct {
		name  string
		group string
		open  func(hs *harness)
		kind  plan.StrategyKind
		edit  func(in *plan.Input)
		armed bool
		// want is in the view after the refresh: the new target, or what changed.
		want string
	}{
		{"to-latest, high grew", "ship-svc", latest, plan.ToLatest, setWatermarks(shipments0, 0, 9), true, "SKIPS 6"},
		{"to-earliest, low grew", "ship-svc", earliest, plan.ToEarliest, setWatermarks(shipments0, 2, 9), true, "re-reads 1"},
		{"to-current without a commit, high grew", "audit-export", func(hs *harness) {
			hs.openGroup("audit-export").send(keyRunes("G"), keyRunes(" "), keyRunes("R"))
		}, plan.ToCurrent, setWatermarks(model.TP{Topic: "orders", Partition: 5}, 40, 130), true, "- → 130"},

		{"to-latest, commit moved", "ship-svc", latest, plan.ToLatest, func(in *plan.Input) {
			in.Committed[shipments0] = 4
		}, false, "shipments-0 committed 3 → 4"},
		{"to-latest, high went back", "ship-svc", latest, plan.ToLatest, setWatermarks(shipments0, 0, 4), false,
			"shipments-0 high watermark went back 5 → 4"},
		{"to-latest, a member joined", "ship-svc", latest, plan.ToLatest, func(in *plan.Input) {
			in.State, in.Members = "Stable", []model.Member{member("ship-svc-1", "shipments", 0)}
		}, false, "state Empty → Stable"},
		{"to-offset clamped to high, high grew", "ship-svc", toOffset10, plan.ToOffset, setWatermarks(shipments0, 0, 9), false,
			"shipments-0 target 5 → 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := &fakeResetter{}
			hs, clk := plannerHarness(t, 120, 40, rs, false)
			tc.open(hs)
			p := hs.planner()
			if p == nil || plannerKinds[p.kind] != tc.kind {
				t.Fatalf("planner not on %s", tc.kind)
			}
			hs.send(keyType(tea.KeyEnter)).typeText(tc.group[:3])
			if p.phase != phaseArmed {
				t.Fatalf("not armed:\n%s", hs.view())
			}
			planned := len(first(rs.calls()))
			refreshWith(hs, clk, rs, tc.edit)
			if len(first(rs.calls())) == planned {
				t.Fatal("the refresh did not re-plan")
			}
			v := hs.view()
			checkFits(t, v, 120, 40)
			if !strings.Contains(v, tc.want) {
				t.Errorf("the view lacks %q:\n%s", tc.want, v)
			}
			if !tc.armed {
				if p.phase != phaseEdit || !strings.Contains(v, "the plan changed while armed") {
					t.Errorf("still armed after the change (phase %d):\n%s", p.phase, v)
				}
				return
			}
			if p.phase != phaseArmed || strings.Contains(v, "CHANGED") || p.confirm.Value() != tc.group[:3] {
				t.Fatalf("watermark growth disarmed or flagged the plan (phase %d, typed %q):\n%s", p.phase, p.confirm.Value(), v)
			}
			hs.typeText(tc.group[3:]).send(keyType(tea.KeyEnter))
			if _, ex := rs.calls(); len(ex) != 1 || p.phase != phaseResult {
				t.Fatalf("confirming after the refresh: %d executions, phase %d", len(ex), p.phase)
			}
		})
	}
}

// first returns the first of two results.
func first[T, U any](t T, _ U) T { return t }

// --by-duration resolves now − d once, when the value is typed: each refresh
// re-plans the same time, and the result names it.
func TestPlannerByDurationTimeFixed(t *testing.T) {
	rs := &fakeResetter{}
	hs, clk := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("R"))
	for plannerKinds[hs.planner().kind] != plan.ByDuration {
		hs.send(keyRunes("l"))
	}
	hs.send(keyType(tea.KeyTab)).typeText("2h")
	typed := fixtureNow.Add(-2 * time.Hour)
	lastTime := func() time.Time {
		plans := first(rs.calls())
		return plans[len(plans)-1].st.Time
	}
	if got := lastTime(); !got.Equal(typed) {
		t.Fatalf("planned %s, want %s", got, typed)
	}
	hs.send(keyType(tea.KeyEsc), keyType(tea.KeyEnter)).typeText("ship")
	for range 3 {
		planned := len(first(rs.calls()))
		refreshWith(hs, clk, rs, nil)
		if len(first(rs.calls())) == planned {
			t.Fatal("the refresh did not re-plan")
		}
		if got := lastTime(); !got.Equal(typed) {
			t.Fatalf("after %s the plan's time moved to %s, want %s as typed", clk.now().Sub(fixtureNow), got, typed)
		}
	}
	v := hs.view()
	if p := hs.planner(); p.phase != phaseArmed {
		t.Errorf("disarmed (phase %d):\n%s", p.phase, v)
	}
	if !strings.Contains(v, "--by-duration 2h: the first record at or after 2026-11-29T06:53:36.000Z (2h before 08:53:36, when it was typed)") {
		t.Errorf("the resolved time is not shown:\n%s", v)
	}
	hs.typeText("-svc").send(keyType(tea.KeyEnter))
	if _, ex := rs.calls(); len(ex) != 1 || !ex[0].Strategy.Time.Equal(typed) {
		t.Fatalf("executed %+v, want one plan at %s", ex, typed)
	}
	if v := hs.view(); !strings.Contains(v, "Reset of ship-svc · --by-duration 2h (2026-11-29T06:53:36.000Z) · APPLIED") {
		t.Errorf("the result does not name the time:\n%s", v)
	}

	// A new value is a new time, from now.
	hs.send(keyType(tea.KeyEsc), keyRunes("R"))
	for plannerKinds[hs.planner().kind] != plan.ByDuration {
		hs.send(keyRunes("l"))
	}
	hs.send(keyType(tea.KeyTab)).typeText("1h")
	if got, want := lastTime(), clk.now().Add(-time.Hour); !got.Equal(want) {
		t.Errorf("a new value planned %s, want %s", got, want)
	}
}

// ctrl+c while a reset is being written (its backup begun) does not quit: the commit may
// land, and its result and undo command must be seen. Once the result shows, it quits.
func TestQuitWaitsForTheReset(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc")
	_, execute := hs.m.Update(keyType(tea.KeyEnter)) // the reset starts; its reply held back
	p := hs.planner()
	if p.phase != phaseExecuting {
		t.Fatalf("not executing: phase %d", p.phase)
	}
	// The backup has begun: from here nothing stops the write.
	hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseWrite}}})
	for _, k := range []tea.KeyMsg{keyType(tea.KeyCtrlC), keyRunes("q"), keyType(tea.KeyEsc), keyType(tea.KeyCtrlC)} {
		hs.send(k)
		if hs.quit || hs.m.ctx.Err() != nil || hs.planner() != p {
			t.Fatalf("%s during the reset: quit %v, context %v", k, hs.quit, hs.m.ctx.Err())
		}
	}
	if v := hs.view(); !strings.Contains(v, writingNote) {
		t.Errorf("ctrl+c is not answered:\n%s", v)
	}
	hs.run(execute)
	v := hs.view()
	if p.phase != phaseResult || !strings.Contains(v, "APPLIED") || !strings.Contains(v, "put the previous offsets back") {
		t.Fatalf("no result after the reset:\n%s", v)
	}
	rs.mu.Lock()
	ctxErrs := slices.Clone(rs.ctxErrs)
	rs.mu.Unlock()
	if len(ctxErrs) != 1 || ctxErrs[0] != nil {
		t.Errorf("the reset ran under a canceled context: %v", ctxErrs)
	}
	hs.send(keyType(tea.KeyCtrlC))
	if !hs.quit {
		t.Error("ctrl+c on the result does not quit")
	}
	hs.send(keyRunes("?"))
	if v := hs.view(); !strings.Contains(v, "ctrl+c  quit (not while a reset is written)") {
		t.Errorf("the help does not say so:\n%s", v)
	}
}

// Under --demo the undo command names the demo's ports, gone when offsettui
// exits: the result says so, next to the command.
func TestPlannerDemoUndoNote(t *testing.T) {
	for _, demo := range []bool{true, false} {
		for _, size := range [][2]int{{120, 40}, {80, 24}} {
			clk := newClock()
			opts := optsWith(&fakeSource{now: clk.now}, clk)
			opts.Resetter, opts.Demo = &fakeResetter{}, demo
			hs := newHarness(t, opts, size[0], size[1])
			hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
			v := hs.view()
			checkFits(t, v, size[0], size[1])
			flat := strings.Join(strings.Fields(v), " ")
			if got := strings.Contains(flat, demoUndoNote); got != demo {
				t.Errorf("demo %v, %dx%d: note shown %v:\n%s", demo, size[0], size[1], got, v)
			}
		}
	}
}

// SIGTERM (QuitRequestedMsg) while a reset is being written waits for its result,
// then quits by itself: the outcome is audited and the undo command shown first.
func TestSignalQuitWaitsForTheReset(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc")
	_, execute := hs.m.Update(keyType(tea.KeyEnter)) // the reset starts; its reply held back
	hs.send(QuitRequestedMsg{})
	if hs.quit || hs.m.ctx.Err() != nil {
		t.Fatalf("quit during the reset: quit %v, context %v", hs.quit, hs.m.ctx.Err())
	}
	hs.run(execute)
	if !hs.quit {
		t.Error("the requested quit did not happen once the result was in")
	}
}

// TestCancelDuringTheWatch: while the reset still watches the group before its backup, the
// status line says nothing is written yet; esc cancels it (the reset's context is
// cancelled, the screen stays, nothing quits) and its result says cancelled; ctrl+c does the
// same, and q cancels and quits once the result is in (docs/tui.md).
func TestCancelDuringTheWatch(t *testing.T) {
	for _, k := range []tea.KeyMsg{keyType(tea.KeyEsc), keyType(tea.KeyCtrlC), keyRunes("q")} {
		t.Run(k.String(), func(t *testing.T) {
			rs := &fakeResetter{untilCancel: true}
			hs, _ := plannerHarness(t, 120, 40, rs, false)
			hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc")
			_, execute := hs.m.Update(keyType(tea.KeyEnter))
			p := hs.planner()
			hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseObserve, Left: 8 * time.Second}}})
			if v := hs.view(); !strings.Contains(v, "watching — nothing written yet (esc cancels)") {
				t.Fatalf("the watch does not say nothing is written:\n%s", v)
			}
			hs.send(k)
			if hs.quit || hs.planner() != p || !p.cancelling {
				t.Fatalf("%s: quit %v, cancelling %v", k, hs.quit, p.cancelling)
			}
			if v := hs.view(); !strings.Contains(v, "CANCELLING") {
				t.Errorf("no CANCELLING:\n%s", v)
			}
			hs.run(execute)
			if v := hs.view(); p.phase != phaseResult || !strings.Contains(v, "CANCELLED") || strings.Contains(v, "put the previous offsets back") {
				t.Fatalf("result after the cancel:\n%s", v)
			}
			rs.mu.Lock()
			cancelled := rs.cancelled
			rs.mu.Unlock()
			if !cancelled {
				t.Error("the reset's context was not cancelled")
			}
			if n := ExitNotes(hs.m); !strings.Contains(n, "cancelled before anything was written: ship-svc") || strings.Contains(n, "executed") {
				t.Errorf("exit notes after a cancel: %q", n)
			}
			if quits := k.String() == "q"; hs.quit != quits {
				t.Errorf("%s: quit %v once the result is in, want %v", k, hs.quit, quits)
			}
		})
	}
}

// TestCancelTooLate: a cancel that comes as the backup begins (the write phase's progress
// after esc) is not a cancel: the status stops saying "cancelling … nothing written", the
// flash says it is too late, and quitting is refused again until the answer.
func TestCancelTooLate(t *testing.T) {
	rs := &fakeResetter{untilCancel: true}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc")
	hs.m.Update(keyType(tea.KeyEnter))
	p := hs.planner()
	hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseObserve, Left: time.Second}}})
	hs.send(keyType(tea.KeyEsc))
	if !p.cancelling {
		t.Fatal("esc during the watch did not cancel")
	}
	hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseWrite}}})
	if p.cancelling || !strings.Contains(p.flash, "too late to cancel") || p.Busy() != writingNote {
		t.Errorf("after the backup began: cancelling %v, flash %q, busy %q", p.cancelling, p.flash, p.Busy())
	}
	if v := hs.view(); strings.Contains(v, "CANCELLING") {
		t.Errorf("still says CANCELLING:\n%s", v)
	}
}
