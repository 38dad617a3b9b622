package views

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

func TestGoldenPlannerPlan(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.rewindShipSvc()
	goldenView(t, hs, 120, 40)
}

func TestGoldenPlannerPlan80x24(t *testing.T) {
	hs, _ := plannerHarness(t, 80, 24, &fakeResetter{}, false)
	hs.rewindShipSvc()
	goldenView(t, hs, 80, 24)
}

// billing has a live member: the plan is shown with its blocker, never armable.
func TestGoldenPlannerBlocked(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("billing").send(keyRunes("R"), keyRunes("l"), keyRunes("l"), keyType(tea.KeyTab)).typeText("-5")
	goldenView(t, hs, 120, 40)
	hs.send(keyType(tea.KeyEnter))
	if p := hs.planner(); p.phase != phaseEdit {
		t.Errorf("a plan with blockers was armed (phase %d)", p.phase)
	}
}

func TestGoldenPlannerArmed(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-sv")
	goldenView(t, hs, 120, 40)
}

func TestGoldenPlannerResult(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	goldenView(t, hs, 120, 40)
}

func TestGoldenPlannerResult80x24(t *testing.T) {
	hs, _ := plannerHarness(t, 80, 24, &fakeResetter{}, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	goldenView(t, hs, 80, 24)
}

// Marks on the group screen, then the planner on them: a partition without a
// commit shows its note.
func TestGoldenGroupMarked(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("audit-export").send(keyRunes(" "), keyRunes("G"), keyRunes(" "))
	goldenView(t, hs, 120, 40)
}

func TestGoldenPlannerMarked(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("audit-export").send(keyRunes(" "), keyRunes("G"), keyRunes(" "), keyRunes("R"), keyRunes("h"), keyRunes("h"))
	goldenView(t, hs, 120, 40)
	plans, _ := rs.calls()
	got := plans[len(plans)-1]
	want := plan.Scope{Topics: []plan.TopicScope{{Topic: "orders", Partitions: []int32{0, 5}}}}
	if got.st.Kind != plan.ToEarliest || !scopeEqual(got.scope, want) {
		t.Errorf("planned %s over %+v, want --to-earliest over the marked %+v", got.st.Kind, got.scope, want)
	}
}

func scopeEqual(a, b plan.Scope) bool {
	return a.AllTopics == b.AllTopics && slices.EqualFunc(a.Topics, b.Topics, func(x, y plan.TopicScope) bool {
		return x.Topic == y.Topic && slices.Equal(x.Partitions, y.Partitions)
	})
}

// The scope cycles from the selection to the group's topics and all topics.
func TestPlannerScopes(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("R"))
	p := hs.planner()
	if p == nil {
		t.Fatal("R did not open the planner")
	}
	var ids []string
	for _, c := range p.scopes {
		ids = append(ids, c.id)
	}
	if !slices.Equal(ids, []string{"topic:shipments", "all"}) {
		t.Fatalf("scopes %v", ids)
	}
	// The default plan is of the selected row's topic (docs/tui.md), and moves
	// nothing: --to-current, on a topic whose every partition has a commit.
	plans, _ := rs.calls()
	if first := plans[0]; first.scope.AllTopics || len(first.scope.Topics) != 1 || first.scope.Topics[0].Topic != "shipments" ||
		first.st.Kind != plan.ToCurrent {
		t.Errorf("default plan: %+v", first)
	}
	if v := hs.view(); !strings.Contains(v, "topic shipments (all 1 partition)") {
		t.Errorf("scope label missing:\n%s", v)
	}
	hs.send(keyType(tea.KeyDown), keyRunes("l")) // strategy → scope (to-current has no value to type)
	plans, _ = rs.calls()
	if last := plans[len(plans)-1]; !last.scope.AllTopics {
		t.Errorf("after → on the scope: %+v", last)
	}
}

// R with nothing marked plans the selected row's topic: on audit-export's
// orders, whose partition 5 has no commit, its five partitions with a commit,
// so the first plan (--to-current) writes no first commit. It was every topic.
func TestPlannerDefaultScopeIsTheRowsTopic(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("audit-export").send(keyRunes("R"))
	plans, _ := rs.calls()
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	sc := plans[0].scope
	if sc.AllTopics || len(sc.Topics) != 1 || sc.Topics[0].Topic != "orders" || !slices.Equal(sc.Topics[0].Partitions, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("default scope %+v, want orders 0-4", sc)
	}
	if v := hs.view(); !strings.Contains(v, "topic orders: its 5 partitions with a commit") || !strings.Contains(v, "skips 0 ·") {
		t.Errorf("default plan:\n%s", v)
	}
}

func TestPlannerValidationAsTyped(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab))
	if v := hs.view(); !strings.Contains(v, "type a value for --to-offset") {
		t.Errorf("an empty value should say what to type:\n%s", v)
	}
	before, _ := rs.calls()
	hs.typeText("1x")
	v := hs.view()
	if !strings.Contains(v, `✗ --to-offset "1x": not a whole number; e.g. --to-offset 1200`) {
		t.Errorf("no inline error for 1x:\n%s", v)
	}
	if strings.Contains(v, "re-delivers") || !strings.Contains(v, "fix the value to see the plan") {
		t.Errorf("a plan for other inputs is still shown:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter))
	if p := hs.planner(); p.phase != phaseEdit {
		t.Fatal("enter armed an invalid form")
	}
	after, _ := rs.calls()
	if len(after)-len(before) != 1 || after[len(after)-1].st.Offset != 1 {
		t.Errorf("plans while typing 1x: %+v; want one, for 1", after[len(before):])
	}
	hs.send(keyType(tea.KeyBackspace))
	if v := hs.view(); !strings.Contains(v, "re-delivers 2 records") || strings.Contains(v, "✗") {
		t.Errorf("fixing the value should plan again:\n%s", v)
	}

	// Each strategy validates its own value; switching keeps what was typed.
	for _, c := range []struct {
		right int
		value string
		want  string
	}{
		{1, "x", `--shift-by "x": not a whole number`},
		{2, "2026-13-01T00:00:00", "✗ --to-datetime"},
		{3, "-2h", "negative duration"},
		{3, "2h", "the first record at or after 2026-11-29T06:53:36.000Z (2h before 08:53:36, when it was typed)"},
		{2, "2026-11-29T08:00:00.000+01:00", "the first record at or after 2026-11-29T07:00:00.000Z"},
	} {
		hs.send(keyType(tea.KeyEsc))
		p := hs.planner()
		for p.kind != slices.Index(plannerKinds, plan.ToOffset) {
			hs.send(keyRunes("l"))
		}
		for range c.right {
			hs.send(keyRunes("l"))
		}
		hs.send(keyType(tea.KeyTab))
		p.value.SetValue("")
		p.values[plannerKinds[p.kind]] = ""
		hs.typeText(c.value)
		if v := hs.view(); !strings.Contains(v, c.want) {
			t.Errorf("%s %q: view lacks %q:\n%s", plannerKinds[p.kind], c.value, c.want, v)
		}
	}
	hs.send(keyType(tea.KeyEsc))
	for hs.planner().kind != slices.Index(plannerKinds, plan.ToOffset) {
		hs.send(keyRunes("h"))
	}
	if v := hs.view(); !strings.Contains(v, "value      1") {
		t.Errorf("to-offset's value was not kept:\n%s", v)
	}
}

func TestPlannerWrongNameRefused(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.rewindShipSvc()
	hs.send(keyType(tea.KeyEnter), keyType(tea.KeyEnter)) // arm, then enter with no name
	p := hs.planner()
	if p.phase != phaseArmed || !strings.Contains(hs.view(), "type the group name ship-svc first; nothing was written") {
		t.Fatalf("enter enter: phase %d\n%s", p.phase, hs.view())
	}
	for _, wrong := range []string{"ship-sv", "ship-svc ", "SHIP-SVC", "billing"} {
		p.confirm.SetValue("")
		hs.typeText(wrong).send(keyType(tea.KeyEnter))
		if v := hs.view(); !strings.Contains(v, "is not the group name:") || !strings.Contains(v, "nothing was written") {
			t.Errorf("%q: no refusal shown:\n%s", wrong, v)
		}
		if p.phase != phaseArmed {
			t.Errorf("%q: a wrong name left the armed state (phase %d)", wrong, p.phase)
		}
	}
	if _, ex := rs.calls(); len(ex) != 0 {
		t.Fatalf("a wrong name executed %d plans", len(ex))
	}
	hs.send(keyType(tea.KeyEsc))
	if p.phase != phaseEdit || len(hs.m.stack) != 3 || !strings.Contains(hs.view(), "disarmed: nothing was written") {
		t.Fatalf("esc should disarm and stay: phase %d, %d screens", p.phase, len(hs.m.stack))
	}
	queries := len(hs.m.src.(*fakeSource).seen())
	hs.send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	_, ex := rs.calls()
	if len(ex) != 1 || ex[0].Rows[0].Target == nil || *ex[0].Rows[0].Target != 1 {
		t.Fatalf("the confirmed plan was not executed once: %+v", ex)
	}
	if p.phase != phaseResult {
		t.Fatalf("no result shown: phase %d", p.phase)
	}
	if n := len(hs.m.src.(*fakeSource).seen()); n <= queries {
		t.Errorf("the offsets written were not re-read: %d reads before, %d after", queries, n)
	}
	hs.send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
	if _, ex := rs.calls(); len(ex) != 1 {
		t.Errorf("enter on the result executed again: %d executions", len(ex))
	}
	hs.send(keyType(tea.KeyEsc))
	if len(hs.m.stack) != 2 {
		t.Errorf("esc on the result should go back to the group: %d screens", len(hs.m.stack))
	}
}

func TestPlannerStalePlanReplyDropped(t *testing.T) {
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab))
	p := hs.planner()

	_, held := hs.m.Update(keyRunes("1")) // the plan for 1 is in flight; its reply held back
	if !p.req.inFlight {
		t.Fatal("no plan in flight after typing 1")
	}
	_, cmd := hs.m.Update(keyRunes("0")) // 10: coalesced, not sent while one is in flight
	hs.run(cmd)
	if plans, _ := rs.calls(); len(plans) != 1 {
		t.Fatalf("%d plans requested; the second must wait for the first", len(plans))
	}
	hs.run(held) // the reply for 1 arrives: dropped, and the plan for 10 starts
	plans, _ := rs.calls()
	if len(plans) != 3 || plans[2].st.Offset != 10 {
		t.Fatalf("plans %+v: want the follow-up for 10", plans)
	}
	if p.plan == nil || *p.plan.Rows[0].Target != 5 || p.plan.Rows[0].Reason != plan.ReasonClampedToHigh {
		t.Fatalf("the plan for 10 is not the one shown: %+v", p.plan)
	}
	if v := hs.view(); strings.Contains(v, "re-delivers 2 records") || !strings.Contains(v, "SKIPS 2") {
		t.Errorf("the stale plan for 1 shows:\n%s", v)
	}

	// A reply of an older generation, or of a planner closed before, is dropped.
	shown := p.plan
	hs.send(screenMsg{to: p.id, msg: planMadeMsg{gen: p.req.gen - 1, key: p.key, plan: plan.Plan{Group: "ghost"}}})
	hs.send(screenMsg{to: p.id + 100, msg: planMadeMsg{gen: p.req.gen, key: p.key, plan: plan.Plan{Group: "ghost"}}})
	if p.plan != shown || strings.Contains(hs.view(), "ghost") {
		t.Error("a stale reply replaced the plan")
	}
}

// A refresh re-makes the plan: a commit landing meanwhile shows as CHANGED and
// disarms an armed plan.
func TestPlannerDriftDisarms(t *testing.T) {
	rs := &fakeResetter{}
	hs, clk := plannerHarness(t, 120, 40, rs, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-s")
	rs.mu.Lock()
	rs.edit = func(in *plan.Input) { in.Committed[model.TP{Topic: "shipments", Partition: 0}] = 4 }
	rs.mu.Unlock()
	clk.advance(6 * time.Second)
	hs.send(clockTickedMsg{})
	p := hs.planner()
	v := hs.view()
	if p.phase != phaseEdit || !strings.Contains(v, "the plan changed while armed") {
		t.Fatalf("drift did not disarm (phase %d):\n%s", p.phase, v)
	}
	if !strings.Contains(v, "CHANGED at 08:53:42 since the previous plan: shipments-0 committed 3 → 4") ||
		!strings.Contains(v, "re-delivers 3 records") {
		t.Errorf("drift not shown:\n%s", v)
	}
	if _, ex := rs.calls(); len(ex) != 0 {
		t.Fatal("executed")
	}
	checkFits(t, v, 120, 40)
}

// Read-only: the plan is shown, never armed, and arming is not offered.
func TestPlannerReadOnlyNeverArms(t *testing.T) {
	for _, blocker := range []bool{true, false} {
		rs := &fakeResetter{readOnly: blocker}
		hs, _ := plannerHarness(t, 120, 40, rs, true)
		hs.rewindShipSvc()
		v := hs.view()
		if !strings.Contains(v, "re-delivers 2 records") || !strings.Contains(v, "READ-ONLY  this plan can be reviewed, never executed") {
			t.Errorf("read-only plan not shown as such:\n%s", v)
		}
		if strings.Contains(v, "enter arm") {
			t.Errorf("arming offered in read-only mode:\n%s", v)
		}
		hs.send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
		if _, ex := rs.calls(); len(ex) != 0 || hs.planner().phase != phaseEdit {
			t.Errorf("read-only armed or executed (resetter blocker %v)", blocker)
		}
		hs.send(keyType(tea.KeyEsc), keyRunes("?"))
		if v := hs.view(); strings.Contains(v, "arm the plan") || !strings.Contains(v, "next field") {
			t.Errorf("read-only help lists arming:\n%s", v)
		}
	}
}

// A result other than applied says what was and was not written.
func TestPlannerRefusedResult(t *testing.T) {
	rs := &fakeResetter{result: func(p plan.Plan) plan.ResetResult {
		p.Blockers = append(p.Blockers, plan.Blocker{Kind: plan.BlockDrift,
			Message: "committed offset of shipments-0 changed from 3 to 4 since the plan"})
		return plan.ResetResult{Plan: p, Outcome: plan.OutcomeRefused, Notes: []string{"nothing written: the state changed since the plan"}}
	}}
	hs, _ := plannerHarness(t, 80, 24, rs, false)
	hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	v := hs.view()
	for _, want := range []string{"REFUSED: nothing was written", "verified  nothing to verify: nothing was written",
		"[drift] committed offset of shipments-0 changed from 3 to 4", "nothing written: the state changed since the plan", "none written"} {
		if !strings.Contains(v, want) {
			t.Errorf("refused result lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "not checked") {
		t.Errorf("a refused result says its verification was not checked; nothing was written to check:\n%s", v)
	}
	checkFits(t, v, 80, 24)
}

func TestPlannerHelpAndMarks(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("audit-export")
	if v := hs.view(); !strings.Contains(v, "space mark") || !strings.Contains(v, "R plan a reset") {
		t.Errorf("group help lacks space and R:\n%s", v)
	}
	hs.send(keyRunes(" "), keyRunes("k"), keyRunes(" ")) // mark p0, back up, unmark it
	g := hs.m.top().(*groupScreen)
	if len(g.marked) != 0 {
		t.Errorf("space twice on a row leaves marks %v", g.marked)
	}
	hs.send(keyRunes("R"), keyRunes("?"))
	v := hs.view()
	for _, want := range []string{"keys: reset plan", "tab/↓", "choose the strategy, backup or scope", "arm the plan: asks for the group name",
		"with the exact name typed: execute"} {
		if !strings.Contains(v, want) {
			t.Errorf("planner help lacks %q:\n%s", want, v)
		}
	}
}

func TestShellLines(t *testing.T) {
	cmd := "offsettui reset --bootstrap-server 127.0.0.1:39092 --group 'a b' --restore '/tmp/it'\\''s here/a.csv' --execute"
	if w := shellWords(cmd); len(w) != 9 || w[5] != "'a b'" || w[7] != `'/tmp/it'\''s here/a.csv'` {
		t.Fatalf("words %q", w)
	}
	for _, width := range []int{30, 50, 80, 200} {
		lines := shellLines(cmd, width)
		for _, l := range lines {
			if len([]rune(l)) > width {
				t.Errorf("width %d: line %q too long", width, l)
			}
		}
		joined := strings.ReplaceAll(strings.Join(lines, "\n"), " \\\n  ", " ")
		if joined != cmd {
			t.Errorf("width %d: lines do not join back:\n%s", width, strings.Join(lines, "\n"))
		}
	}
}

// Every planner state fits: nothing wraps or is cut by the terminal, and the
// action line (the name prompt) stays on screen even when the rest scrolls.
func TestPlannerFits(t *testing.T) {
	steps := []struct {
		name, action string
		do           func(hs *harness)
	}{
		{"blocked", "cannot be armed while it has blockers", func(hs *harness) {
			hs.openGroup("billing").send(keyRunes("R"), keyRunes("l"), keyRunes("l"), keyType(tea.KeyTab)).typeText("-5")
		}},
		{"invalid", "enter arms the plan once it is made", func(hs *harness) {
			hs.openGroup("ship-svc").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab)).typeText("1x")
		}},
		{"armed", "ARMED", func(hs *harness) {
			hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc-and-then-some-more")
		}},
		{"marked", "enter arms this plan", func(hs *harness) {
			hs.openGroup("audit-export").send(keyRunes(" "), keyRunes("G"), keyRunes(" "), keyRunes("R"), keyRunes("h"), keyRunes("h"))
		}},
		{"result", "esc goes back to the group", func(hs *harness) {
			hs.rewindShipSvc().send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
		}},
		{"delete-offsets", "enter arms this plan", func(hs *harness) {
			hs.openGroup("replay").send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
		}},
		{"delete-group armed", "ARMED", func(hs *harness) {
			hs.openGroup("ledger").send(keyRunes("R")).chooseKind(plan.DeleteGroup).send(keyType(tea.KeyEnter)).typeText("ledg")
		}},
		{"from-group source", "enter arms this plan", func(hs *harness) {
			hs.openGroup("audit-export").send(keyRunes("R")).chooseKind(plan.FromGroup).send(keyType(tea.KeyTab)).typeText("e")
		}},
		{"delete refused", "esc goes back to the group", func(hs *harness) {
			hs.openGroup("billing").send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
			rs := hs.planner().rs.(*fakeResetter)
			rs.mu.Lock()
			rs.result = subscribedRefusal
			rs.mu.Unlock()
			hs.confirmWith("billing")
		}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 16}} {
		w, h := size[0], size[1]
		for _, step := range steps {
			t.Run(step.name+"/"+itoa(w), func(t *testing.T) {
				hs, _ := plannerHarness(t, w, h, &fakeResetter{}, false)
				step.do(hs)
				if hs.planner() == nil {
					t.Fatal("no planner")
				}
				v := hs.view()
				checkFits(t, v, w, h)
				if !strings.Contains(v, step.action) {
					t.Errorf("the action line %q is off screen:\n%s", step.action, v)
				}
			})
		}
	}
}

// --from-file reads its file in the plan's tea.Cmd; a file that cannot be read
// or parsed is an error in the guard panel, not a plan.
func TestPlannerFromFile(t *testing.T) {
	dir := t.TempDir()
	good, bad := dir+"/good.csv", dir+"/bad.csv"
	if err := os.WriteFile(good, []byte("orders,0,5\norders,2,500\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("orders,0,5\norders,x,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rs := &fakeResetter{}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("audit-export").send(keyRunes("R"))
	for hs.planner().kind != slices.Index(plannerKinds, plan.FromFile) {
		hs.send(keyRunes("l"))
	}
	hs.send(keyType(tea.KeyTab)).typeText(good)
	v := hs.view()
	for _, want := range []string{"the partitions the file names", "orders    0    0         10 → 5", "orders    2    0        100 → 100",
		"clamped-to-high", "re-delivers 5 records"} {
		if !strings.Contains(v, want) {
			t.Errorf("from-file plan lacks %q:\n%s", want, v)
		}
	}
	hs.planner().value.SetValue("")
	hs.send(keyType(tea.KeyBackspace)).typeText(bad)
	if v := hs.view(); !strings.Contains(v, "cannot make the plan: --from-file:") || !strings.Contains(v, "line 2") {
		t.Errorf("a bad file is not reported with its line:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter))
	if hs.planner().phase != phaseEdit {
		t.Error("armed without a plan")
	}
}

// TestPlannerConfirmTakesAnyGroupName: Kafka sets no short limit on group ids, so the
// confirmation takes a name of any length (a 400-character one here) whole.
func TestPlannerConfirmTakesAnyGroupName(t *testing.T) {
	long := strings.Repeat("payments-", 45)[:400]
	m := New(Options{Source: &fakeSource{}, Now: func() time.Time { return fixtureNow }}).(*app)
	p := newPlannerScreen(m.c, context.Background(), &fakeResetter{}, long)
	p.confirm.Focus()
	p.confirm, _ = p.confirm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(long), Paste: true})
	if p.confirm.Value() != long {
		t.Fatalf("the confirmation holds %d of the name's %d characters", len(p.confirm.Value()), len(long))
	}
}
