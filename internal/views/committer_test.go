package views

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// shipLog is ship-svc's records in __consumer_offsets in these tests: a client outside the
// group (a classic group that never had a member) commits every 5 s, 100 offsets each time.
func shipLog(taken time.Time) *model.CommitLog {
	l := &model.CommitLog{Status: model.CommitLogRead, ReadAt: taken}
	for i := range 4 {
		l.Recent = append(l.Recent, model.CommitRecord{TP: model.TP{Topic: "shipments", Partition: 0}, Offset: int64(100 * i),
			CommittedAt: taken.Add(time.Duration(i-3) * 5 * time.Second)})
	}
	return l
}

// committerHarness serves the fixture with ship-svc flagged as committed for from outside.
func committerHarness(t *testing.T, rs Resetter) *harness {
	clk := newClock()
	src := &fakeSource{now: clk.now}
	src.reply = func(q model.Query) (model.Snapshot, error) {
		s := fixtureSnapshot(clk.now(), q.FetchBudget > 0)
		for i := range s.Groups {
			if s.Groups[i].Group == "ship-svc" {
				s.Groups[i].CommitLog = shipLog(s.Cluster.TakenAt.Time)
			}
		}
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}
	opts := optsWith(src, clk)
	opts.Resetter = rs
	return newHarness(t, opts, 200, 40)
}

// TestCommitterShownInTheTUI: the groups table marks the members "0+ext", `/committer`
// finds the group, and its screen says what was seen and that a reset is refused.
func TestCommitterShownInTheTUI(t *testing.T) {
	hs := committerHarness(t, &fakeResetter{})
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "0+ext") {
		t.Errorf("the groups table does not mark ship-svc's members:\n%s", v)
	}
	hs.send(keyRunes("/")).typeText("committer").send(keyType(tea.KeyEnter))
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "ship-svc") || strings.Contains(v, "billing") {
		t.Errorf("/committer does not show ship-svc alone:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter))
	v := ansi.Strip(hs.view())
	for _, want := range []string{"COMMITTER  a client outside the group commits for it: 4 commits over 15s, every 5s, moving the offsets 20/s (seen in __consumer_offsets)",
		"resets refused while it runs"} {
		if !strings.Contains(v, want) {
			t.Errorf("the group screen lacks %q:\n%s", want, v)
		}
	}
}

// TestPlannerCommitterGuard: what the time axis saw blocks the planner's plan; ! overrides
// it for this screen (the plan carries the override, the Resetter checks it again); ! again
// restores it.
func TestPlannerCommitterGuard(t *testing.T) {
	rs := &fakeResetter{}
	hs := committerHarness(t, rs)
	hs.rewindShipSvc()
	p := hs.planner()
	if p.plan == nil || p.plan.Executable() || p.plan.Blockers[0].Kind != plan.BlockCommitter {
		t.Fatalf("plan %+v: want blocked by the committer", p.plan)
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "[committer]") || !strings.Contains(v, "Stop the consumer that commits for this group") {
		t.Errorf("the planner does not show the committer blocker:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter))
	if p.phase != phaseEdit {
		t.Fatalf("a plan blocked by a committer was armed")
	}
	hs.send(keyType(tea.KeyShiftTab), keyRunes("!")) // leave the value field first: there ! is typed
	if !p.plan.Executable() || !p.plan.AllowCommitter || p.plan.Committer == nil {
		t.Fatalf("after !: plan %+v", p.plan)
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "COMMITTER GUARD OFF") {
		t.Errorf("the override is not shown:\n%s", v)
	}
	hs.send(keyType(tea.KeyTab), keyRunes("2")) // a new plan keeps the override
	if !p.plan.Executable() || !p.plan.AllowCommitter {
		t.Fatalf("a re-plan lost the override: %+v", p.plan.Blockers)
	}
	hs.send(keyType(tea.KeyShiftTab), keyRunes("!"))
	if p.plan.Executable() || p.plan.AllowCommitter {
		t.Fatalf("! again did not restore the guard: %+v", p.plan)
	}
	hs.send(keyRunes("!"), keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if len(rs.executed) != 1 || !rs.executed[0].AllowCommitter {
		t.Fatalf("executed %d plans; want one carrying the override", len(rs.executed))
	}
}

// TestPlannerCountdown: the execution's progress shows in the planner as a countdown, and
// executePlanCmd hands over the newest progress, then the result.
func TestPlannerCountdown(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.rewindShipSvc()
	p := hs.planner()
	p.phase = phaseExecuting
	hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseObserve, Left: 7 * time.Second}}})
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "watching — nothing written yet (esc cancels) · for a consumer committing from outside the group: 7s left") {
		t.Errorf("no countdown before the write:\n%s", v)
	}
	hs.send(screenMsg{to: p.id, msg: resetProgressMsg{progress: plan.Progress{Phase: plan.PhaseWatch, Left: 3 * time.Second}}})
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "watching for an overwrite by a consumer outside the group: 3s left") {
		t.Errorf("no countdown after the write:\n%s", v)
	}

	rs := progressResetter{steps: []plan.Progress{{Phase: plan.PhaseObserve, Left: 10 * time.Second}, {Phase: plan.PhaseObserve, Left: 0}}}
	var got []string
	cmd := executePlanCmd(context.Background(), rs, 7, plan.Plan{})
	for cmd != nil {
		msg := cmd().(screenMsg)
		switch m := msg.msg.(type) {
		case resetProgressMsg:
			got = append(got, m.progress.Phase)
			cmd = m.next
		case resetExecutedMsg:
			got = append(got, string(m.res.Outcome))
			cmd = nil
		}
	}
	if last := got[len(got)-1]; last != string(plan.OutcomeApplied) || len(got) < 2 || len(got) > 3 {
		t.Errorf("messages %v: want the progress, then the result", got)
	}
}

// progressResetter reports its steps, waiting for each to be taken, then applies.
type progressResetter struct{ steps []plan.Progress }

func (r progressResetter) Plan(context.Context, string, plan.Scope, plan.Strategy) (plan.Plan, error) {
	return plan.Plan{}, nil
}
func (r progressResetter) Execute(ctx context.Context, p plan.Plan) plan.ResetResult {
	for _, s := range r.steps {
		plan.ReportProgress(ctx, s)
		time.Sleep(20 * time.Millisecond)
	}
	return plan.ResetResult{Plan: p, Outcome: plan.OutcomeApplied}
}
func (r progressResetter) Backups(context.Context, string) ([]plan.Backup, error) { return nil, nil }
