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

// The filter grammar: names by substring, fields by keyword, !negation, and
// every word must match.
func TestFilterGrammar(t *testing.T) {
	hs := loaded(t, 120, 40)
	g := hs.m.stack[0].(*groupsScreen)
	for _, tc := range []struct {
		filter string
		want   []string
	}{
		{"!ok", []string{"audit-export", "fanout", "replay", "new-svc"}},
		{"ok", []string{"billing", "ledger", "r11-trace", "ship-svc"}},
		{"expired", []string{"fanout"}},
		{"missing", []string{"audit-export", "new-svc"}},
		{"at-risk", []string{"audit-export"}},
		{"stable", []string{"billing", "new-svc"}},
		{"orders !ok", []string{"audit-export", "replay"}},
		{"orders empty", []string{"audit-export", "replay"}},
		{"OUTBOX", []string{"fanout", "new-svc"}},
		{"classic !empty", []string{"billing", "new-svc"}},
		{"warn", []string{"audit-export", "fanout", "billing", "ledger", "r11-trace", "ship-svc"}}, // lag that did not fall
		{"zzz", nil},
		{"!", []string{"audit-export", "fanout", "billing", "replay", "new-svc", "ledger", "r11-trace", "ship-svc"}},
	} {
		g.setFilter(tc.filter)
		var got []string
		for _, i := range g.visible {
			got = append(got, g.rows[i].g.Group)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("/%s kept %v, want %v", tc.filter, got, tc.want)
		}
	}
}

// The group screen: totals, the cursor on the first problem, a filter that
// esc clears before it goes back, problems-only and sort.
func TestGroupScreenListKeys(t *testing.T) {
	hs := loaded(t, 120, 40).openGroup("audit-export")
	g := hs.m.top().(*groupScreen)
	if p := g.current(); p == nil || p.Partition != 0 || p.Status != model.StatusAtRisk {
		t.Fatalf("cursor on %+v, want the first problem, orders-0", p)
	}
	if v := hs.view(); !strings.Contains(v, "6 partitions · total lag 250 · MISSING 1  AT-RISK 2  OK 3 · 3 columns hidden · sort: position") {
		t.Errorf("no totals line:\n%s", v)
	}
	names := func() string {
		var out []string
		for _, i := range g.visible {
			out = append(out, g.g.Partitions[i].TP().String())
		}
		return strings.Join(out, " ")
	}
	hs.send(keyRunes("p"))
	if got := names(); got != "orders-0 orders-1 orders-5" {
		t.Errorf("problems only: %s", got)
	}
	hs.send(keyRunes("p"), keyRunes("s"))
	if got := names(); got != "orders-5 orders-0 orders-1 orders-2 orders-3 orders-4" {
		t.Errorf("worst first: %s", got)
	}
	hs.send(keyRunes("s"))
	if got := names(); got != "orders-0 orders-1 orders-4 orders-3 orders-2 orders-5" {
		t.Errorf("by lag: %s", got)
	}
	hs.send(keyRunes("S"))
	if got := names(); got != "orders-5 orders-2 orders-3 orders-4 orders-1 orders-0" {
		t.Errorf("by lag, reversed: %s", got)
	}
	hs.send(keyRunes("/")).typeText("orders-5").send(keyType(tea.KeyEnter))
	if got := names(); got != "orders-5" || !strings.Contains(hs.view(), "1 of 6 partitions") {
		t.Errorf("filter orders-5: %s\n%s", got, hs.view())
	}
	hs.send(keyType(tea.KeyEsc))
	if len(hs.m.stack) != 2 || g.filter.text != "" || len(g.visible) != 6 {
		t.Fatalf("the first esc clears the filter and stays: %d screens, filter %q", len(hs.m.stack), g.filter.text)
	}
	hs.send(keyType(tea.KeyEsc))
	if len(hs.m.stack) != 1 {
		t.Fatalf("the second esc goes back: %d screens", len(hs.m.stack))
	}
}

// :group NAME opens a group by its name, or the only one containing it.
func TestCommandGroup(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes(":")).typeText("group ship-svc").send(keyType(tea.KeyEnter))
	if hs.m.top().Crumb() != "ship-svc" || len(hs.m.stack) != 2 {
		t.Fatalf(":group ship-svc: top %q", hs.m.top().Crumb())
	}
	hs.send(keyRunes(":")).typeText("g r11").send(keyType(tea.KeyEnter))
	if hs.m.top().Crumb() != "r11-trace" || len(hs.m.stack) != 2 {
		t.Fatalf(":g r11 opens r11-trace from the list: top %q, %d screens", hs.m.top().Crumb(), len(hs.m.stack))
	}
	for cmd, want := range map[string]string{
		"group svc":    "2 groups contain svc",
		"group nosuch": "no group named nosuch",
		"group":        "usage: :group NAME",
		"groups now":   ":groups takes no argument",
		"ctx":          "unknown command :ctx (try :groups, :group NAME, :help, :quit)",
	} {
		hs.send(keyRunes(":")).typeText(cmd).send(keyType(tea.KeyEnter))
		if v := hs.view(); !strings.Contains(v, want) {
			t.Errorf(":%s: the status line lacks %q:\n%s", cmd, want, v)
		}
	}
}

// A flash belongs to the screen that raised it: it does not follow the
// operator to the next screen, nor come back after it.
func TestFlashBelongsToItsScreen(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes(":")).typeText("nope").send(keyType(tea.KeyEnter))
	if !strings.Contains(hs.view(), "unknown command :nope") {
		t.Fatal("no flash")
	}
	hs.send(keyType(tea.KeyEnter)) // open fanout
	if strings.Contains(hs.view(), "unknown command") {
		t.Errorf("the groups screen's flash shows on fanout:\n%s", hs.view())
	}
	hs.send(keyRunes(":")).typeText("nope2").send(keyType(tea.KeyEnter), keyType(tea.KeyEsc))
	if v := hs.view(); strings.Contains(v, "nope2") {
		t.Errorf("fanout's flash outlived its screen:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter), keyType(tea.KeyEsc))
	if v := hs.view(); strings.Contains(v, "unknown command") {
		t.Errorf("an old flash came back:\n%s", v)
	}
}

// The help says what / matches, and lists the : commands.
func TestHelpSaysWhatFilterMatches(t *testing.T) {
	for _, open := range []func(*harness) *harness{
		func(h *harness) *harness { return h },
		func(h *harness) *harness { return h.openGroup("audit-export") },
	} {
		hs := open(loaded(t, 200, 60)).send(keyRunes("?"))
		v := hs.view()
		for _, want := range []string{"Every word must match;", "!word must not", "a state (empty", ":group NAME", "open a group by name"} {
			if !strings.Contains(v, want) {
				t.Errorf("help of %s lacks %q:\n%s", hs.m.stack[len(hs.m.stack)-2].Crumb(), want, v)
			}
		}
	}
}

// Restore from the TUI: u on a group chooses among its backups (newest
// first), plans the restore with the Resetter and confirms as any plan.
func TestPlannerRestore(t *testing.T) {
	dir := t.TempDir()
	older, newer := dir+"/ship-svc-20261128T080000.000Z.csv", dir+"/ship-svc-20261129T080000.000Z.csv"
	writeFile(t, older, "shipments,0,1\n")
	writeFile(t, newer, "shipments,0,4\n")
	rs := &fakeResetter{backups: []plan.Backup{
		{Path: newer, Taken: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)},
		{Path: older, Taken: time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)},
	}}
	hs, _ := plannerHarness(t, 120, 40, rs, false)
	hs.openGroup("ship-svc").send(keyRunes("u"))
	p := hs.planner()
	if p == nil || plannerKinds[p.kind] != plan.Restore {
		t.Fatalf("u did not open a restore plan")
	}
	v := hs.view()
	for _, want := range []string{"Restore plan for ship-svc", "ship-svc-20261129T080000.000Z.csv (taken 2026-11-29T08:00:00.000", "1 of 2",
		"3 → 4", "restore", "SKIPS 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("restore plan lacks %q:\n%s", want, v)
		}
	}
	hs.send(keyRunes("l")) // the older backup
	if v := hs.view(); !strings.Contains(v, "2 of 2") || !strings.Contains(v, "3 → 1") {
		t.Errorf("→ did not choose the older backup:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter)).typeText("ship-svc").send(keyType(tea.KeyEnter))
	_, executed := rs.calls()
	if len(executed) != 1 || executed[0].Strategy.Kind != plan.Restore || *executed[0].Rows[0].Target != 1 {
		t.Fatalf("executed %+v, want the restore of the older backup", executed)
	}
}

// A group without backups says so and cannot be armed.
func TestPlannerRestoreWithoutBackups(t *testing.T) {
	hs, _ := plannerHarness(t, 120, 40, &fakeResetter{}, false)
	hs.openGroup("ship-svc").send(keyRunes("u"))
	if v := hs.view(); !strings.Contains(v, "no backup of ship-svc") {
		t.Errorf("no word on the missing backups:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter))
	if hs.planner().phase != phaseEdit {
		t.Error("a restore without a backup was armed")
	}
}

// A paste into the : prompt is text: its newline does not run the command.
func TestPasteIntoPrompt(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes(":"), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("group fanout\n"), Paste: true})
	if !hs.m.prompt.Focused() || hs.m.prompt.Value() != "group fanout" || len(hs.m.stack) != 1 {
		t.Fatalf("prompt %q focused=%v, %d screens: the pasted newline ran the command", hs.m.prompt.Value(), hs.m.prompt.Focused(), len(hs.m.stack))
	}
	hs.send(keyType(tea.KeyEnter))
	if hs.m.top().Crumb() != "fanout" {
		t.Fatalf("enter after the paste: top %q", hs.m.top().Crumb())
	}
}

// A lag that is not known (no commit) is never drawn in the ok colour.
func TestUnknownLagNotOK(t *testing.T) {
	st := newStyles(false)
	if st.lag(nil).GetForeground() == st.ok.GetForeground() {
		t.Error("an unknown lag has the ok colour")
	}
	if st.lag(model.Ptr[int64](0)).GetForeground() != st.ok.GetForeground() || st.lag(model.Ptr[int64](3)).GetForeground() != st.lagging.GetForeground() {
		t.Error("known lags lost their colours")
	}
}
