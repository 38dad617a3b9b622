package views

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The planner's operations besides resets to a target: delete-offsets, delete-group and
// --from-group, each planned, confirmed and executed as a reset is.

// lastPlan is the last plan the Resetter was asked for.
func lastPlan(t *testing.T, rs *fakeResetter) planCall {
	t.Helper()
	plans, _ := rs.calls()
	if len(plans) == 0 {
		t.Fatal("no plan was asked for")
	}
	return plans[len(plans)-1]
}

// confirmWith arms the plan and types name, then enter.
func (h *harness) confirmWith(name string) *harness {
	return h.send(keyType(tea.KeyEnter)).typeText(name).send(keyType(tea.KeyEnter))
}

// joinedCommands reads the Kafka commands back from the plan screen: the lines under the
// heading, each command's continuations joined, as a shell reads a paste of them.
func joinedCommands(view string) []string {
	lines := strings.Split(ansi.Strip(view), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Kafka's tool (") })
	if i < 0 {
		return nil
	}
	for i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "kafka-") {
		i++ // the heading, wrapped
	}
	var cmds []string
	for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "kafka-") {
		var cmd []string
		for ; i < len(lines); i++ {
			l := strings.TrimSpace(lines[i])
			cmd = append(cmd, strings.TrimSuffix(l, " \\"))
			if !strings.HasSuffix(l, "\\") {
				i++
				break
			}
		}
		cmds = append(cmds, strings.Join(cmd, " "))
	}
	return cmds
}

// TestPlannerDeleteOffsets: without marks, delete-offsets plans the selected row's topic
// (orders, every commit of replay on it); with marks, the marked partitions. The plan shows
// Kafka's command; a wrong name executes nothing; the exact name executes the plan the
// screen showed, and the result has each row deleted (never "written": a delete speaks of
// deleting), the backup and the undo.
func TestPlannerDeleteOffsets(t *testing.T) {
	rs := &fakeResetter{result: writtenResult}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("replay").send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
	got := lastPlan(t, rs)
	want := plan.Scope{Topics: []plan.TopicScope{{Topic: "orders"}}}
	if got.st.Kind != plan.DeleteOffsets || !scopeEqual(got.scope, want) {
		t.Fatalf("planned %s over %+v, want delete-offsets of topic orders", got.st.Kind, got.scope)
	}
	v := hs.view()
	for _, w := range []string{"groups › replay › delete-offsets plan", "Delete-offsets plan for replay", "scope      topic orders (all 6 partitions)",
		"orders    2    0        150 → (delete)", "nothing blocks this plan"} {
		if !strings.Contains(v, w) {
			t.Errorf("the plan lacks %q:\n%s", w, v)
		}
	}
	if cmd := joinedCommands(v); !slices.Equal(cmd, []string{"kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:39092 --delete-offsets --group replay --topic orders:0,1,2,3,4,5"}) {
		t.Errorf("Kafka's command on screen: %q, want the delete alone (it has no dry run)", cmd)
	}
	hs.confirmWith("replay-")
	if _, ex := rs.calls(); len(ex) != 0 || hs.planner().phase != phaseArmed || !strings.Contains(hs.view(), "is not the group name") {
		t.Fatalf("a wrong name: %d executions, phase %d", len(ex), hs.planner().phase)
	}
	hs.planner().confirm.SetValue("")
	hs.typeText("replay").send(keyType(tea.KeyEnter))
	_, ex := rs.calls()
	if len(ex) != 1 || ex[0].Strategy.Kind != plan.DeleteOffsets || len(ex[0].Rows) != 6 {
		t.Fatalf("executed %+v, want the delete-offsets plan of 6 rows", ex)
	}
	v = ansi.Strip(hs.view())
	for _, w := range []string{"Delete-offsets of replay · APPLIED", "backup    /home/oncall/.local/state/offsettui/replay-",
		"put the previous offsets back with this command:", "--group replay --restore", "RESULT", "(delete) deleted",
		"APPLIED: every commit was deleted", "verified  yes: the commits read back are gone"} {
		if !strings.Contains(v, w) {
			t.Errorf("the result lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "written") || strings.Contains(v, "every offset") {
		t.Errorf("the result of a delete speaks of writing offsets:\n%s", v)
	}

	// Marks make the scope: the marked partitions only.
	rs = &fakeResetter{}
	hs, _ = plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("replay").send(keyRunes(" "), keyRunes(" "))
	marked := hs.m.top().(*groupScreen).markedTPs()
	hs.send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
	got = lastPlan(t, rs)
	if len(marked) != 2 || len(got.scope.Topics) != 1 || len(got.scope.Topics[0].Partitions) != 2 ||
		got.scope.Topics[0].Partitions[0] != marked[0].Partition || got.scope.Topics[0].Partitions[1] != marked[1].Partition {
		t.Errorf("marked %v, planned %+v", marked, got.scope)
	}
	// space moved the cursor past the marks: the row R was pressed on is left out, and said so.
	if v := hs.view(); !strings.Contains(v, "under the cursor, is not marked") {
		t.Errorf("the scope does not say the cursor's row is left out:\n%s", v)
	}
	hs, _ = plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("replay").send(keyRunes(" "), keyType(tea.KeyUp), keyRunes("R"))
	if v := hs.view(); !strings.Contains(v, "marked: ") || strings.Contains(v, "under the cursor") {
		t.Errorf("the cursor's row is marked, yet:\n%s", v)
	}
}

// TestPlannerDeleteGroup: its one scope is the whole group; a live group is blocked
// (group-not-empty, as the CLI) and cannot be armed; an Empty one is deleted once the name
// is typed, with the undo that restores its commits into the same name.
func TestPlannerDeleteGroup(t *testing.T) {
	rs := &fakeResetter{result: writtenResult}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("billing").send(keyRunes("R")).chooseKind(plan.DeleteGroup)
	p := hs.planner()
	if p.plan == nil || !slices.ContainsFunc(p.plan.Blockers, func(b plan.Blocker) bool { return b.Kind == plan.BlockGroupNotEmpty }) {
		t.Fatalf("delete-group of a live group: %+v, want blocked (group-not-empty)", p.plan)
	}
	hs.confirmWith("billing")
	if _, ex := rs.calls(); len(ex) != 0 || p.phase != phaseEdit {
		t.Fatalf("a live group's delete was armed or executed: phase %d, %d executions", p.phase, len(ex))
	}

	hs.send(keyType(tea.KeyEsc), keyType(tea.KeyEsc)).openGroup("ledger").send(keyRunes("R")).chooseKind(plan.DeleteGroup)
	got := lastPlan(t, rs)
	if got.group != "ledger" || got.st.Kind != plan.DeleteGroup || !scopeEqual(got.scope, plan.DeleteGroupScope) {
		t.Fatalf("planned %+v, want delete-group of ledger, every commit", got)
	}
	hs.send(keyType(tea.KeyDown), keyRunes("l")) // the scope field offers nothing else
	if got := lastPlan(t, rs); !scopeEqual(got.scope, plan.DeleteGroupScope) {
		t.Errorf("→ on delete-group's scope planned %+v", got.scope)
	}
	v := hs.view()
	if !strings.Contains(v, "the whole group: every commit it has ▸") || !slices.Equal(joinedCommands(v), []string{"kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:39092 --delete --group ledger"}) {
		t.Errorf("delete-group plan:\n%s", v)
	}
	hs.confirmWith("ledger")
	_, ex := rs.calls()
	if len(ex) != 1 || ex[0].Strategy.Kind != plan.DeleteGroup || ex[0].Group != "ledger" || len(ex[0].Rows) != 3 {
		t.Fatalf("executed %+v", ex)
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "Delete-group of ledger · APPLIED") || !strings.Contains(v, "--group ledger --restore") {
		t.Errorf("the result lacks the outcome or the undo:\n%s", v)
	}
}

// TestPlannerFromGroup: the source is chosen from the other groups of the type, filtered
// as typed; ↑/↓ move the highlight and the plan follows it; the group itself is refused
// inline (bad input, as the CLI); the copy is executed like a reset, its Kafka command is
// --from-file with the source's commits clamped.
func TestPlannerFromGroup(t *testing.T) {
	rs := &fakeResetter{result: writtenResult}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("audit-export").send(keyRunes("R")).chooseKind(plan.FromGroup)
	before, _ := rs.calls()
	if v := hs.view(); !strings.Contains(v, "source     type a part of its name  (7 groups of this type listed)") || !strings.Contains(v, "fix the value") {
		t.Errorf("from-group before a source is chosen:\n%s", v)
	}
	hs.send(keyType(tea.KeyTab)).typeText("e")
	p := hs.planner()
	if !slices.Equal(p.src.matches, []string{"ledger", "new-svc", "r11-trace", "replay"}) {
		t.Fatalf("matches of %q: %v (audit-export itself must not be offered)", p.src.filter, p.src.matches)
	}
	if got := lastPlan(t, rs); got.st.Kind != plan.FromGroup || got.st.Raw != "ledger" {
		t.Errorf("the plan does not follow the highlight: %+v", got.st)
	}
	hs.send(keyType(tea.KeyDown), keyType(tea.KeyDown), keyType(tea.KeyDown), keyType(tea.KeyDown), keyType(tea.KeyUp))
	if got := lastPlan(t, rs); got.st.Raw != "r11-trace" {
		t.Errorf("after ↓↓↓↓↑ the source is %q, want r11-trace", got.st.Raw)
	}
	hs.typeText("pl") // "epl": replay alone
	if got := lastPlan(t, rs); got.st.Raw != "replay" || !scopeEqual(got.scope, plan.Scope{}) {
		t.Fatalf("typed epl: planned %+v over %+v, want replay over its commits", got.st, got.scope)
	}
	if plans, _ := rs.calls(); len(plans) <= len(before) {
		t.Fatal("no plan while choosing")
	}
	v := ansi.Strip(hs.view())
	for _, w := range []string{"▸ replay", "1 of 7 groups of this type match", "--from-group replay: the committed offsets of group replay",
		"orders    2    0        100 → 100       100 clamped-to-high", "with offsets.csv:", "    orders,2,100"} {
		if !strings.Contains(v, w) {
			t.Errorf("the copy's plan lacks %q:\n%s", w, v)
		}
	}
	const copyCmd = "kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:39092 --reset-offsets --group audit-export --from-file offsets.csv"
	if cmd := joinedCommands(v); !slices.Equal(cmd, []string{copyCmd + " --dry-run", copyCmd + " --execute"}) {
		t.Errorf("Kafka's commands: %q, want its dry run and the write", cmd)
	}

	// The group itself, typed whole: refused where it is typed, never planned.
	p.value.SetValue("")
	hs.send(keyType(tea.KeyBackspace)).typeText("audit-export")
	if v := hs.view(); !strings.Contains(v, "--from-group audit-export names the group being reset") || hs.planner().armable() {
		t.Errorf("the group as its own source:\n%s", v)
	}
	if slices.ContainsFunc(mustCalls(rs), func(c planCall) bool { return c.st.Raw == "audit-export" }) {
		t.Errorf("the group as its own source was planned")
	}

	p.value.SetValue("")
	hs.send(keyType(tea.KeyBackspace)).typeText("replay").send(keyType(tea.KeyEsc)).confirmWith("audit-export")
	_, ex := rs.calls()
	if len(ex) != 1 || ex[0].Strategy.Kind != plan.FromGroup || ex[0].Strategy.Source == nil || ex[0].Strategy.Source.Group != "replay" {
		t.Fatalf("executed %+v, want the copy from replay", ex)
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "Reset of audit-export · --from-group replay · APPLIED") || !strings.Contains(v, "--group audit-export --restore") {
		t.Errorf("the copy's result:\n%s", v)
	}
}

func mustCalls(rs *fakeResetter) []planCall {
	plans, _ := rs.calls()
	return plans
}

// TestSourceChooserTypes: the sources offered are the groups plan.CopiesFrom allows (a
// consumer group copies from classic and consumer groups, not from share or streams ones),
// never the group itself; a name no listed group matches is planned as typed.
func TestSourceChooserTypes(t *testing.T) {
	snap := &model.Snapshot{Groups: []model.Group{
		{Group: "orders-v2", Type: model.TypeConsumer}, {Group: "orders-v1", Type: model.TypeClassic},
		{Group: "orders-queue", Type: model.TypeShare}, {Group: "orders-app", Type: model.TypeStreams},
		{Group: "orders-new", Type: model.TypeConsumer},
	}}
	var c sourceChooser
	c.refresh(snap, &snap.Groups[4], "orders-new")
	if !slices.Equal(c.all, []string{"orders-v1", "orders-v2"}) || c.chosen() != "" {
		t.Fatalf("candidates %v chosen %q", c.all, c.chosen())
	}
	c.setFilter("V2")
	if c.chosen() != "orders-v2" {
		t.Errorf("typed V2: chose %q", c.chosen())
	}
	c.setFilter("orders-v")
	c.move(1)
	c.refresh(snap, &snap.Groups[4], "orders-new") // a refresh keeps the highlighted one
	if c.chosen() != "orders-v2" {
		t.Errorf("after ↓ and a refresh: %q", c.chosen())
	}
	c.setFilter("orders-queue")
	if c.chosen() != "orders-queue" || !strings.Contains(c.countText(true), "planned as typed") {
		t.Errorf("a share group typed whole: chosen %q, %q", c.chosen(), c.countText(true))
	}
	var share sourceChooser
	share.refresh(snap, &snap.Groups[2], "orders-queue")
	if len(share.all) != 0 || !strings.Contains(share.countText(false), "no other group of this type is listed") {
		t.Errorf("a share group's sources: %v, %q", share.all, share.countText(false))
	}
}

// TestPlannerOpsReadOnly: in read-only mode every operation is planned and shown, never
// armed, never executed.
func TestPlannerOpsReadOnly(t *testing.T) {
	for _, k := range []plan.StrategyKind{plan.DeleteOffsets, plan.DeleteGroup, plan.FromGroup} {
		rs := &fakeResetter{readOnly: true}
		hs, _ := plannerHarness(t, 120, 40, rs, true)
		hs.openGroup("audit-export").send(keyRunes("R")).chooseKind(k)
		if k == plan.FromGroup {
			hs.send(keyType(tea.KeyTab)).typeText("replay").send(keyType(tea.KeyEsc))
		}
		v := hs.view()
		if p := hs.planner().plan; p == nil || len(p.Rows) == 0 || !strings.Contains(v, "READ-ONLY  this plan can be reviewed, never executed") {
			t.Errorf("%s: read-only plan not shown as such:\n%s", k, v)
		}
		hs.confirmWith("audit-export")
		if _, ex := rs.calls(); len(ex) != 0 || hs.planner().phase != phaseEdit {
			t.Errorf("%s: read-only armed (phase %d) or executed (%d)", k, hs.planner().phase, len(ex))
		}
	}
}

// TestPlannerDeleteRefusedPerPartition: the broker refuses deleting a live group's
// subscribed topic (GROUP_SUBSCRIBED_TO_TOPIC); the plan said so beforehand (note), and
// the result shows each partition rejected, with the broker's code, never as deleted, and
// no undo.
func TestPlannerDeleteRefusedPerPartition(t *testing.T) {
	rs := &fakeResetter{result: subscribedRefusal}
	hs, _ := plannerHarness(t, 120, 80, rs, false)
	hs.openGroup("billing").send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
	if v := hs.view(); !strings.Contains(v, "the members of billing subscribe to orders: the broker will refuse deleting its commits") {
		t.Errorf("the plan does not say the broker will refuse:\n%s", v)
	}
	hs.confirmWith("billing")
	v := ansi.Strip(hs.view())
	if n := strings.Count(v, "(delete) rejected"); n != 6 || strings.Contains(v, " written ") {
		t.Errorf("%d rows shown rejected, want 6 and none written:\n%s", n, v)
	}
	if n := strings.Count(v, "GROUP_SUBSCRIBED_TO_TOPIC"); n < 6 {
		t.Errorf("%d refusals name GROUP_SUBSCRIBED_TO_TOPIC, want one per partition:\n%s", n, v)
	}
	for _, w := range []string{"Delete-offsets of billing · REFUSED", "REFUSED: nothing was deleted", "verified  nothing to verify: nothing was deleted",
		"none written", "the plan, not executed"} {
		if !strings.Contains(v, w) {
			t.Errorf("the refused result lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "--restore") {
		t.Errorf("an undo is offered for nothing written:\n%s", v)
	}
}

// The golden plan of delete-offsets, and the refused result (review both when they change).
func TestGoldenPlannerDeleteOffsets(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("replay").send(keyRunes("R")).chooseKind(plan.DeleteOffsets)
	goldenView(t, hs, 120, 40)
}

func TestGoldenPlannerDeleteOffsetsRefused(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{result: subscribedRefusal}, false)
	hs.openGroup("billing").send(keyRunes("R")).chooseKind(plan.DeleteOffsets).confirmWith("billing")
	goldenView(t, hs, 120, 40)
}

// The source field while typing: the matches, the highlighted one (replay, which has a
// commit above orders-2's high), the plan it makes and its Kafka command with the file.
func TestGoldenPlannerFromGroupSource(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("audit-export").send(keyRunes("R")).chooseKind(plan.FromGroup).send(keyType(tea.KeyTab)).typeText("e").
		send(keyType(tea.KeyDown), keyType(tea.KeyDown), keyType(tea.KeyDown))
	goldenView(t, hs, 120, 40)
}

// The Kafka commands on the plan screen are whole at every width: joined as a shell joins
// their continuation lines, they are the dry run and the command the CLI prints.
func TestPlannerKafkaCommandAtEveryWidth(t *testing.T) {
	for _, w := range []int{40, 60, 80, 120, 200} {
		rs := &fakeResetter{}
		hs, _ := plannerHarness(t, w, 60, rs, false)
		hs.openGroup("billing").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab)).typeText("1")
		p := hs.planner().plan
		if p == nil || p.KafkaEquivalent == nil || p.KafkaEquivalent.DryRunCommand == nil {
			t.Fatalf("%d: no plan, or no dry run", w)
		}
		checkFits(t, hs.view(), w, 60)
		body := strings.Join(hs.planner().body, "\n") // the whole plan, scrolled or not
		for _, l := range hs.planner().body {
			if ansi.StringWidth(l) > w {
				t.Errorf("%d columns: a line of the plan is %d wide: %q", w, ansi.StringWidth(l), l)
			}
		}
		want := []string{*p.KafkaEquivalent.DryRunCommand, p.KafkaEquivalent.Command}
		if got := joinedCommands(body); !slices.Equal(got, want) {
			t.Errorf("%d columns: the commands read back as\n%q\nwant\n%q\n%s", w, got, want, body)
		}
		flat := strings.Join(strings.Fields(ansi.Strip(body)), " ")
		if !strings.Contains(flat, "Kafka's tool (its dry run, then the write):") ||
			!strings.Contains(flat, "differs: Kafka's tool writes no backup and no audit line, does not re-read") {
			t.Errorf("%d columns: where Kafka's tool differs is not said:\n%s", w, body)
		}
	}
}

// TestGroupShrinksUnderThePlanner: a delete executed from the planner leaves the group fewer
// partitions; the refresh it forces reaches the group screen below, whose cursor was on a
// row (filtered to orders-5) the group no longer has. The screen crashed the program there
// (an index into the old partitions); it must show the group as it is now.
func TestGroupShrinksUnderThePlanner(t *testing.T) {
	rs := &fakeResetter{result: writtenResult}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("replay").send(keyRunes("/")).typeText("orders-5").send(keyType(tea.KeyEnter), keyRunes("R"))
	hs.chooseKind(plan.DeleteOffsets)
	src := hs.m.src.(*fakeSource)
	src.mu.Lock()
	src.reply = func(q model.Query) (model.Snapshot, error) {
		s := fixtureSnapshot(fixtureNow, q.FetchBudget > 0)
		for i := range s.Groups {
			if s.Groups[i].Group == "replay" {
				s.Groups[i].Partitions = s.Groups[i].Partitions[:2] // orders-2..5 deleted
			}
		}
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}
	src.mu.Unlock()
	hs.confirmWith("replay").send(keyType(tea.KeyEsc))
	g, ok := hs.m.top().(*groupScreen)
	if !ok || g.g == nil || len(g.g.Partitions) != 2 || g.current() != nil {
		t.Fatalf("the group screen after the delete: %+v", hs.m.top())
	}
	hs.send(keyType(tea.KeyEsc)) // the filter goes: the two partitions left
	if v := hs.view(); !strings.Contains(v, "orders    1") || strings.Contains(v, "orders    5") {
		t.Errorf("the group after the delete:\n%s", v)
	}
}

// TestPlannerOpsCommitterGuard: what the time axis saw of a client committing for the group
// from outside it blocks a copy and both deletes as it blocks a reset, until ! overrides it
// for the screen.
func TestPlannerOpsCommitterGuard(t *testing.T) {
	for _, k := range []plan.StrategyKind{plan.DeleteOffsets, plan.DeleteGroup, plan.FromGroup} {
		rs := &fakeResetter{}
		hs := committerHarness(t, rs)
		hs.openGroup("ship-svc").send(keyRunes("R")).chooseKind(k)
		if k == plan.FromGroup {
			hs.send(keyType(tea.KeyTab)).typeText("r11").send(keyType(tea.KeyEsc))
		}
		p := hs.planner()
		if p.plan == nil || !slices.ContainsFunc(p.plan.Blockers, func(b plan.Blocker) bool { return b.Kind == plan.BlockCommitter }) {
			t.Fatalf("%s: plan %+v, want blocked by the committer", k, p.plan)
		}
		hs.send(keyRunes("!"))
		if !p.plan.Executable() || !p.plan.AllowCommitter {
			t.Errorf("%s: after ! the plan is not executable: %+v", k, p.plan.Blockers)
		}
	}
}
