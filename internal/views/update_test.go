package views

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

func TestStaleReplyDropped(t *testing.T) {
	clk := newClock()
	src := &fakeSource{now: clk.now}
	hs := newHarness(t, optsWith(src, clk), 120, 40)
	m := hs.m

	clk.advance(6 * time.Second)
	_, pending := m.Update(clockTickedMsg{}) // generation 2 starts; its reply is held back
	if !m.ref.inFlight || m.ref.gen != 2 {
		t.Fatalf("refresh not started: inFlight=%v gen=%d", m.ref.inFlight, m.ref.gen)
	}

	ghost := model.Snapshot{Cluster: model.Cluster{Brokers: 1, TakenAt: model.Stamp{Time: clk.now()}},
		Groups: []model.Group{{Group: "ghost", Counts: model.Counts{}}}}
	hs.send(snapshotLoadedMsg{gen: 1, snap: ghost, started: clk.now(), ended: clk.now()})
	if v := hs.view(); strings.Contains(v, "ghost") || !strings.Contains(v, "fanout") {
		t.Fatalf("a reply of generation 1 was applied:\n%s", v)
	}
	if !m.ref.inFlight {
		t.Fatal("the stale reply ended the refresh in flight")
	}

	// While generation 2 is in flight, a due tick starts nothing: no pile-up.
	before := len(src.seen())
	clk.advance(10 * time.Second)
	hs.send(clockTickedMsg{})
	if n := len(src.seen()); n != before {
		t.Fatalf("%d reads started while one was in flight", n-before)
	}

	hs.run(pending)
	if m.ref.inFlight || m.snap.Cluster.TakenAt.Time != clk.now().Add(-snapshot) {
		t.Fatalf("the current reply was not applied: inFlight=%v takenAt=%v", m.ref.inFlight, m.snap.Cluster.TakenAt)
	}
}

func TestRefreshFailureKeepsDataAndMarksStale(t *testing.T) {
	clk := newClock()
	src := &fakeSource{now: clk.now}
	hs := newHarness(t, optsWith(src, clk), 120, 40)
	if v := hs.view(); !strings.Contains(v, "updated 3s ago") || strings.Contains(v, "STALE") {
		t.Fatalf("fresh data should say its age:\n%s", v)
	}

	src.mu.Lock()
	src.reply = func(model.Query) (model.Snapshot, error) {
		return model.Snapshot{}, errors.New("dial tcp 127.0.0.1:39092: connection refused")
	}
	src.mu.Unlock()
	clk.advance(6 * time.Second)
	hs.send(clockTickedMsg{})

	v := hs.view()
	for _, want := range []string{"fanout", "EXPIRED 1", "STALE: data from 9s ago", "refresh failed: dial tcp 127.0.0.1:39092: connection refused"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	checkFits(t, v, 120, 40)

	clk.advance(4 * time.Second) // the age keeps counting on ticks
	hs.send(clockTickedMsg{})
	if v := hs.view(); !strings.Contains(v, "STALE: data from 13s ago") {
		t.Errorf("age not recomputed on tick:\n%s", strings.SplitN(v, "\n", 2)[0])
	}

	src.mu.Lock()
	src.reply = nil
	src.mu.Unlock()
	clk.advance(2 * time.Second)
	hs.send(clockTickedMsg{})
	if v := hs.view(); strings.Contains(v, "STALE") || strings.Contains(v, "refresh failed") {
		t.Errorf("a good refresh should clear the stale warning:\n%s", v)
	}
}

func TestFirstRefreshFailureSaysSo(t *testing.T) {
	clk := newClock()
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) {
		return model.Snapshot{}, errors.New("cannot connect to any broker")
	}}
	hs := newHarness(t, optsWith(src, clk), 80, 24)
	v := hs.view()
	for _, want := range []string{"NO DATA", "cannot read the cluster", "cannot connect to any broker", "Likely causes",
		"without --command-config", "r tries again"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// Nothing was ever read: the status line must not promise the last good data.
	if strings.Contains(v, "last good data") {
		t.Errorf("the status line speaks of last good data that never was:\n%s", v)
	}
}

// TestConnectingShowsAtOnce: before the first snapshot arrives, the screen says
// which cluster it is connecting to.
func TestConnectingShowsAtOnce(t *testing.T) {
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { select {} }}
	m := New(optsWith(src, newClock()))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	o := optsWith(src, newClock())
	if v := m.View(); !strings.Contains(v, "connecting to "+o.Cluster) {
		t.Errorf("first view:\n%s", v)
	}
}

// slowSource takes d of the injected clock per snapshot.
type slowSource struct {
	fakeSource
	clk *clock
	d   time.Duration
}

func (s *slowSource) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	s.clk.advance(s.d)
	return s.fakeSource.Snapshot(ctx, q)
}

func TestRefreshWaitsThreeTimesTheLastDuration(t *testing.T) {
	clk := newClock()
	src := &slowSource{clk: clk, d: 2 * time.Second}
	hs := newHarness(t, optsWith(src, clk), 120, 40) // read from t0 to t0+2s
	if n := len(src.seen()); n != 1 {
		t.Fatalf("%d reads at start", n)
	}
	clk.advance(5 * time.Second) // t0+7s: the 5s interval has passed, 3×2s after the end has not
	hs.send(clockTickedMsg{})
	if n := len(src.seen()); n != 1 {
		t.Fatalf("a refresh started %v after the last one ended, sooner than 3× its 2s", 5*time.Second)
	}
	clk.advance(time.Second) // t0+8s
	hs.send(clockTickedMsg{})
	if n := len(src.seen()); n != 2 {
		t.Fatalf("no refresh once the backoff passed: %d reads", n)
	}
	hs.send(keyRunes("r")) // t0+10s: asked for, but 6s after the end have not passed
	if n := len(src.seen()); n != 2 {
		t.Fatalf("r started a read inside the backoff")
	}
	if v := hs.view(); !strings.Contains(v, "refresh in 6s") {
		t.Errorf("r inside the backoff should say when:\n%s", v)
	}
}

func TestQueries(t *testing.T) {
	clk := newClock()
	src := &fakeSource{}
	hs := newHarness(t, optsWith(src, clk), 120, 40)
	hs.send(keyType(tea.KeyEnter))
	qs := src.seen()
	if len(qs) != 2 {
		t.Fatalf("queries: %+v", qs)
	}
	if q := qs[0]; len(q.Groups) != 0 || q.FetchBudget != model.DefaultFetchBudget || !q.TimestampsAtRiskFirst || q.RiskWindow != 24*time.Hour {
		t.Errorf("groups screen query: %+v", q)
	}
	if q := qs[1]; len(q.Groups) != 1 || q.Groups[0] != "audit-export" || q.FetchBudget != model.DefaultFetchBudget || q.RiskWindow != 24*time.Hour {
		t.Errorf("group screen query: %+v", q)
	}
	// The merged group keeps the rest of the snapshot.
	if len(hs.m.snap.Groups) != 8 {
		t.Errorf("merge lost groups: %d", len(hs.m.snap.Groups))
	}
	// Going back does not read again before the interval.
	hs.send(keyType(tea.KeyEsc))
	if n := len(src.seen()); n != 2 {
		t.Errorf("esc started a read: %d", n)
	}
}

func TestResize(t *testing.T) {
	hs := loaded(t, 120, 40)
	states := []struct {
		name string
		keys []tea.Msg
	}{
		{"groups", nil},
		{"filter-input", []tea.Msg{keyRunes("/"), keyRunes("x")}},
		{"group", []tea.Msg{keyType(tea.KeyEsc), keyType(tea.KeyEnter)}},
		{"help", []tea.Msg{keyRunes("?")}},
	}
	sizes := [][2]int{{120, 40}, {80, 24}, {60, 20}, {200, 50}, {40, 12}, {120, 40}}
	for _, st := range states {
		hs.send(st.keys...)
		for _, sz := range sizes {
			hs.send(sizeMsg(sz[0], sz[1]))
			t.Run(st.name+"/"+strings.Join([]string{itoa(sz[0]), itoa(sz[1])}, "x"), func(t *testing.T) {
				checkFits(t, hs.view(), sz[0], sz[1])
				for _, s := range hs.m.stack {
					for i, l := range strings.Split(s.View(), "\n") {
						if ansi.StringWidth(l) > sz[0] {
							t.Errorf("%s line %d wider than %d: %q", s.Crumb(), i, sz[0], l)
						}
					}
				}
			})
		}
	}
	if len(hs.m.stack) != 3 {
		t.Fatalf("stack: %d screens, want groups › fanout › help", len(hs.m.stack))
	}
	for _, s := range hs.m.stack {
		var w, h int
		switch s := s.(type) {
		case *groupsScreen:
			w, h = s.width, s.height
		case *groupScreen:
			w, h = s.width, s.height
		case *helpScreen:
			w, h = s.width, s.height
		}
		if w != 120 || h != hs.m.bodyH || h != 40-4 {
			t.Errorf("%s sized %dx%d, want 120x%d", s.Crumb(), w, h, 40-4)
		}
	}
}

func itoa(n int) string { return text.Thousands(int64(n)) }

func TestFilterKeys(t *testing.T) {
	hs := loaded(t, 120, 40)
	g := hs.m.stack[0].(*groupsScreen)
	hs.send(keyRunes("/")).typeText("fan")
	if len(g.visible) != 1 || !g.Capturing() {
		t.Fatalf("filter as you type: %d rows, capturing=%v", len(g.visible), g.Capturing())
	}
	hs.typeText("q") // q is text while the input has the keyboard, not quit
	if hs.quit || g.filter.text != "fanq" {
		t.Fatalf("q in the filter: quit=%v filter=%q", hs.quit, g.filter.text)
	}
	hs.send(keyType(tea.KeyBackspace), keyType(tea.KeyEnter))
	if g.Capturing() || g.filter.text != "fan" || len(hs.m.stack) != 2 || hs.m.top().Crumb() != "fanout" {
		t.Fatalf("enter should keep the filter and open its only match: %q capturing=%v top %q", g.filter.text, g.Capturing(), hs.m.top().Crumb())
	}
	hs.send(keyType(tea.KeyEsc))
	if len(hs.m.stack) != 1 || g.filter.text != "fan" {
		t.Fatalf("esc on the group screen goes back and keeps the filter: %q", g.filter.text)
	}
	hs.send(keyRunes("/")).typeText("led")
	if g.filter.text != "led" || len(g.visible) != 1 || g.current().g.Group != "ledger" {
		t.Fatalf("a new filter must not concatenate with the last: %q", g.filter.text)
	}
	hs.send(keyType(tea.KeyEsc))
	if g.filter.text != "" || len(g.visible) != 8 {
		t.Fatalf("esc in the input clears the filter: %q, %d rows", g.filter.text, len(g.visible))
	}
	hs.send(keyRunes("/")).typeText("!s").send(keyType(tea.KeyEnter))
	if len(g.visible) != 2 || g.current().g.Group != "fanout" || len(hs.m.stack) != 1 { // fanout/outbox and r11-trace/r11.trace have no s
		t.Fatalf("inverted filter: %d rows, %d screens", len(g.visible), len(hs.m.stack))
	}
	hs.send(keyRunes("/")).typeText("zzz").send(keyType(tea.KeyEnter))
	if v := hs.view(); !strings.Contains(v, "no group matches the filter") {
		t.Errorf("empty result should say why:\n%s", v)
	}
	hs.send(keyType(tea.KeyEsc))
	if g.filter.text != "" {
		t.Fatalf("esc on the list clears the filter")
	}
}

func TestSortKeys(t *testing.T) {
	hs := loaded(t, 120, 40)
	g := hs.m.stack[0].(*groupsScreen)
	names := func() []string {
		var out []string
		for _, i := range g.visible {
			out = append(out, g.rows[i].g.Group)
		}
		return out
	}
	want := func(label string, exp ...string) {
		t.Helper()
		if got := names(); strings.Join(got, ",") != strings.Join(exp, ",") {
			t.Errorf("%s: got %v, want %v", label, got, exp)
		}
	}
	want("urgency", "audit-export", "fanout", "billing", "replay", "new-svc", "ledger", "r11-trace", "ship-svc")
	hs.send(keyRunes("s")) // time to loss: none here, so the urgency order stays
	want("time to loss", "audit-export", "fanout", "billing", "replay", "new-svc", "ledger", "r11-trace", "ship-svc")
	hs.send(keyRunes("s")) // ETA: never first, then caught up, then none
	want("ETA", "audit-export", "fanout", "billing", "ledger", "r11-trace", "ship-svc", "replay", "new-svc")
	hs.send(keyRunes("s")) // trend: growing lag first
	want("trend", "ship-svc", "audit-export", "fanout", "replay", "new-svc", "ledger", "r11-trace", "billing")
	hs.send(keyRunes("s"))
	want("group", "audit-export", "billing", "fanout", "ledger", "new-svc", "r11-trace", "replay", "ship-svc")
	hs.send(keyRunes("S"))
	want("group reversed", "ship-svc", "replay", "r11-trace", "new-svc", "ledger", "fanout", "billing", "audit-export")
	for range 6 { // → type, state, members, topics, partitions, lag
		hs.send(keyRunes("s"))
	}
	want("lag", "audit-export", "fanout", "billing", "ledger", "r11-trace", "ship-svc", "replay", "new-svc")
	if v := hs.view(); !strings.Contains(v, "sort: lag") || !strings.Contains(v, "LAG↓") {
		t.Errorf("sort not shown:\n%s", v)
	}
	// Problems: a status not ok, or a live consumer not keeping up (billing, warn);
	// the idle groups whose partitions are all ok are none, whatever their lag.
	hs.send(keyRunes("p"))
	want("problems only, by lag", "audit-export", "fanout", "billing", "replay", "new-svc")
}

func TestGroupErrorShown(t *testing.T) {
	clk := newClock()
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := fixtureSnapshot(fixtureNow, false)
		name := "payments-audit"
		s.Groups = append(s.Groups, model.Group{Group: name, Type: "classic", State: "Stable",
			WorstStatus: model.StatusUnknown, Counts: model.Counts{}, Partitions: []model.GroupPartition{},
			Error: &model.Error{Kind: model.KindDenied, Code: model.Ptr("GROUP_AUTHORIZATION_FAILED"),
				Message: "not authorized to describe the group", Group: &name}})
		model.SortGroupsByUrgency(s.Groups)
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}}
	hs := newHarness(t, optsWith(src, clk), 120, 40)
	v := hs.view()
	if !strings.Contains(v, "payments-audit") || !strings.Contains(v, "ERROR denied") {
		t.Fatalf("group error not on its row:\n%s", v)
	}
	// Unreadable, it is a problem: after what loses data (audit-export, fanout),
	// with what cannot be told, ahead of the groups without a problem.
	g := hs.m.stack[0].(*groupsScreen)
	var order []string
	for _, i := range g.visible {
		order = append(order, g.rows[i].g.Group)
	}
	if i := slices.Index(order, "payments-audit"); i != 2 || !g.rows[g.visible[i]].problems {
		t.Errorf("the unreadable group is at %d of %v, want 2 (before replay, ahead), with a problem", i, order)
	}
	hs.openGroup("payments-audit")
	v = hs.view()
	if !strings.Contains(v, "GROUP_AUTHORIZATION_FAILED") || !strings.Contains(v, "check the ACLs") {
		t.Fatalf("group error not on the group screen:\n%s", v)
	}
	checkFits(t, v, 120, 40)
}

func TestCommandPrompt(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyType(tea.KeyEnter), keyRunes("?"))
	if len(hs.m.stack) != 3 {
		t.Fatalf("stack %d", len(hs.m.stack))
	}
	hs.send(keyRunes(":")).typeText("groups").send(keyType(tea.KeyEnter))
	if len(hs.m.stack) != 1 {
		t.Fatalf(":groups should go back to the groups screen, stack %d", len(hs.m.stack))
	}
	hs.send(keyRunes(":")).typeText("nope").send(keyType(tea.KeyEnter))
	if v := hs.view(); !strings.Contains(v, "unknown command :nope") {
		t.Errorf("unknown command not reported:\n%s", v)
	}
	if hs.quit {
		t.Fatal("quit too early")
	}
	hs.send(keyRunes(":")).typeText("q").send(keyType(tea.KeyEnter))
	if !hs.quit {
		t.Fatal(":q did not quit")
	}
	if hs.m.ctx.Err() == nil {
		t.Error("quitting should cancel reads in flight")
	}
}

func TestReadOnlyAndPlanner(t *testing.T) {
	clk := newClock()
	opts := optsWith(&fakeSource{}, clk)
	opts.ReadOnly = true
	hs := newHarness(t, opts, 120, 40)
	if v := hs.view(); !strings.Contains(strings.SplitN(v, "\n", 2)[0], "READ-ONLY") {
		t.Errorf("no READ-ONLY badge:\n%s", v)
	}
	hs.send(keyType(tea.KeyEnter), keyRunes("R"))
	if len(hs.m.stack) != 2 {
		t.Fatalf("R opened something without a planner")
	}
	hs.send(keyRunes("?"))
	if v := hs.view(); strings.Contains(v, "plan a reset") {
		t.Errorf("a disabled binding shows in help:\n%s", v)
	}

	// A planner, once wired in, is pushed from the group screen with R.
	hs2 := newHarness(t, optsWith(&fakeSource{}, clk), 120, 40)
	hs2.m.planner = func(c *common, g string) screen { return newHelpScreen(c, hs2.m.top(), hs2.m.keys, nil) }
	hs2.send(keyType(tea.KeyEnter))
	if v := hs2.view(); !strings.Contains(v, "R plan a reset") {
		t.Errorf("R not in the short help with a planner:\n%s", v)
	}
	hs2.send(keyRunes("R"))
	if len(hs2.m.stack) != 3 {
		t.Errorf("R did not push the planner: %d screens", len(hs2.m.stack))
	}
}

func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, noColor := range []bool{false, true} {
		opts := optsWith(&fakeSource{}, newClock())
		opts.NoColor = noColor
		v := newHarness(t, opts, 120, 40).view()
		if has := strings.Contains(v, "\x1b["); has == noColor {
			t.Errorf("NoColor=%v: escape sequences present=%v", noColor, has)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{gauge(model.Ptr[int64](30), model.Ptr[int64](12), model.Ptr[int64](40), 14), "<[··········] "},
		{gauge(model.Ptr[int64](0), model.Ptr[int64](150), model.Ptr[int64](100), 14), " [==========]>"},
		{gauge(model.Ptr[int64](0), model.Ptr[int64](50), model.Ptr[int64](100), 14), " [====|·····] "},
		{gauge(model.Ptr[int64](0), model.Ptr[int64](100), model.Ptr[int64](100), 14), " [=========|] "},
		{gauge(model.Ptr[int64](40), nil, model.Ptr[int64](100), 14), " [    ?     ] "},
		{sparkline([]int64{0, 0}, 6), "▁▁"}, {sparkline([]int64{5, 5}, 6), "▄▄"},
		{sparkline([]int64{1, 2, 3, 4, 5, 6, 7, 8}, 6), "▁▂▃▅▆█"},
		{trendArrow([]int64{3}), " "}, {trendArrow([]int64{3, 4}), "↑"}, {trendArrow([]int64{4, 3}), "↓"},
		{pad("abcdef", 4, false), "abc…"}, {pad("ab", 4, true), "  ab"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestQuitRequestWaitsForAResetBeingWritten: SIGTERM (QuitRequestedMsg) quits at
// once when nothing is being written.
func TestQuitRequestQuitsWhenIdle(t *testing.T) {
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return model.Snapshot{}, nil }}
	m := New(optsWith(src, newClock()))
	_, cmd := m.Update(QuitRequestedMsg{})
	if cmd == nil {
		t.Fatal("no command after a quit request")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("quit request while idle did not quit")
	}
}
