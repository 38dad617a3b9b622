package views

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/offsettui/offsettui/internal/model/plan"
)

// flow runs the inspector as a program (teatest) at w×h on the fixture.
type flow struct {
	t  *testing.T
	tm *teatest.TestModel
}

func newFlow(t *testing.T, w, h int, rs Resetter) *flow {
	t.Helper()
	opts := Options{Source: &fakeSource{}, Cluster: "demo", Refresh: 5 * time.Second, RiskWindow: 24 * time.Hour,
		Now: func() time.Time { return fixtureNow }, Resetter: rs}
	// The first snapshot comes in two stages (the groups, then the rest): a flow starts
	// once both are in, so that no screen it compares is drawn between them.
	whole := &watchedApp{hit: make(chan struct{}), cond: func(a *app) bool {
		return !a.ref.inFlight && a.snap != nil && !a.snap.Loading
	}}
	whole.m = New(opts)
	f := &flow{t: t, tm: teatest.NewTestModel(t, whole, teatest.WithInitialTermSize(w, h))}
	f.waitFor("ledger")
	select {
	case <-whole.hit:
	case <-time.After(5 * time.Second):
		t.Fatal("the first snapshot never came in whole")
	}
	return f
}

// waitFor waits until everything in what has been drawn since the last wait;
// on a timeout it shows what was drawn.
func (f *flow) waitFor(what ...string) {
	f.t.Helper()
	var seen bytes.Buffer
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		_, _ = seen.ReadFrom(f.tm.Output())
		all := true
		for _, w := range what {
			all = all && bytes.Contains(seen.Bytes(), []byte(w))
		}
		if all {
			return
		}
	}
	f.t.Fatalf("waited 5s for %q; drawn:\n%s", what, ansi.Strip(seen.String()))
}

func (f *flow) send(msgs ...tea.Msg) *flow {
	for _, m := range msgs {
		f.tm.Send(m)
	}
	return f
}

// burst is what a fast typist or a slow link delivers: several runes in one message.
func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// paste is a bracketed paste.
func paste(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true} }

func (f *flow) final() *app {
	f.t.Helper()
	m := f.tm.FinalModel(f.t, teatest.WithFinalTimeout(5*time.Second))
	if w, ok := m.(*watchedApp); ok {
		m = w.m
	}
	return m.(*app)
}

// watchedApp runs the app and closes hit the first time cond holds after a message:
// a test can wait for a state of the model, read on the program's own goroutine.
type watchedApp struct {
	m    tea.Model
	cond func(*app) bool
	hit  chan struct{}
	once sync.Once
}

func (w *watchedApp) Init() tea.Cmd { return w.m.Init() }

func (w *watchedApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := w.m.Update(msg)
	w.m = next
	if a, ok := next.(*app); ok && w.cond(a) {
		w.once.Do(func() { close(w.hit) })
	}
	return w, cmd
}

func (w *watchedApp) View() string { return w.m.View() }

// "/fanout" typed in one burst, then enter, opens fanout, as slow typing would.
func TestFlowBurstOpensFanout(t *testing.T) {
	f := newFlow(t, 120, 40, nil)
	f.send(burst("/fanout"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("groups › fanout", "18 records (12..29) were deleted before fanout read them")
	f.send(burst("q"))
	m := f.final()
	if len(m.stack) != 2 || m.stack[0].(*groupsScreen).filter.text != "fanout" {
		t.Fatalf("want groups › fanout with the filter kept, got %d screens", len(m.stack))
	}
	golden.RequireEqual(t, m.View())
}

// A paste into the filter is text, whole: its newline is not enter, so
// nothing opens; and a paste that starts with / opens the filter first.
func TestFlowPasteIntoFilter(t *testing.T) {
	f := newFlow(t, 120, 40, nil)
	f.send(burst("/"), paste("audit-export\n"))
	f.waitFor("Groups 1 of 8", "audit-export")
	f.send(tea.KeyMsg{Type: tea.KeyEsc}, paste("/ship-svc"))
	f.waitFor("/ship-svc")
	f.send(tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("groups › ship-svc")
	f.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := f.final()
	g := m.stack[0].(*groupsScreen)
	if g.filter.text != "ship-svc" || len(m.stack) != 2 {
		t.Fatalf("filter %q with %d screens, want ship-svc opened", g.filter.text, len(m.stack))
	}
}

// gatedResetter holds every plan until released.
type gatedResetter struct {
	fakeResetter
	gate chan struct{}
}

func (g *gatedResetter) Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	<-g.gate
	return g.fakeResetter.Plan(ctx, group, scope, st)
}

// The planner's reply arrives while help is on top: it reaches the planner
// (addressed to it), which shows the plan and arms on enter once help closes.
func TestFlowPlanReplyUnderHelp(t *testing.T) {
	rs := &gatedResetter{gate: make(chan struct{})}
	// answered: help is on top and the planner under it holds its plan, no longer waiting.
	answered := &watchedApp{hit: make(chan struct{}), cond: func(a *app) bool {
		if len(a.stack) < 2 {
			return false
		}
		_, helpOnTop := a.top().(*helpScreen)
		p, ok := a.stack[len(a.stack)-2].(*plannerScreen)
		return helpOnTop && ok && !p.req.inFlight && p.plan != nil
	}}
	opts := Options{Source: &fakeSource{}, Cluster: "demo", Refresh: 5 * time.Second, RiskWindow: 24 * time.Hour,
		Now: func() time.Time { return fixtureNow }, Resetter: rs}
	answered.m = New(opts)
	f := &flow{t: t, tm: teatest.NewTestModel(t, answered, teatest.WithInitialTermSize(120, 40))}
	f.waitFor("ledger")
	f.send(burst("/ship-svc"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("groups › ship-svc")
	f.send(burst("R"))
	f.waitFor("planning…")
	f.send(burst("?"))
	f.waitFor("reset plan › help")
	close(rs.gate) // the plan is made while help is on top
	select {
	case <-answered.hit:
	case <-time.After(5 * time.Second):
		t.Fatal("the planner under help never got its plan")
	}
	f.send(burst("?"))
	f.waitFor("planned at 08:53:36", "nothing to change") // --to-current moves nothing
	f.send(burst("h"))                                    // --to-latest
	f.waitFor("enter arms this plan")
	f.send(tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("ARMED")
	f.send(tea.KeyMsg{Type: tea.KeyEsc}, tea.KeyMsg{Type: tea.KeyEsc}, tea.KeyMsg{Type: tea.KeyCtrlC})
	f.final()
}

// At 60×15 the group screen still sums the group up and says what is off screen.
func TestFlowDetailAt60x15(t *testing.T) {
	f := newFlow(t, 60, 15, nil)
	f.send(burst("/audit-export"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("6 partitions · total lag 250", "AT-RISK 2", "… 2 more below (pgdn)")
	f.send(burst("G"))
	f.waitFor("MISSING  no commit from audit-export", "… 2 more above (pgup)")
	f.send(burst("q"))
	v := f.final().View()
	checkFits(t, v, 60, 15)
	golden.RequireEqual(t, v)
}

// At 60×15 the plan's rows are on screen before it can be armed, and stay
// while the name is asked; pgdn pages them while armed.
func TestFlowPlanRowsBeforeArming60x15(t *testing.T) {
	f := newFlow(t, 60, 15, &fakeResetter{})
	f.send(burst("/audit-export"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("groups › audit-export")
	f.send(burst("Rhh"), tea.KeyMsg{Type: tea.KeyTab}, burst("l")) // --to-earliest on all of orders
	f.waitFor("--to-earliest", "topic orders (all 6 partitions)", "orders  0         10 → 0", "enter arms this plan")
	f.send(tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("ARMED", "orders  0         10 → 0")
	f.send(tea.KeyMsg{Type: tea.KeyPgDown})
	f.waitFor("orders  4")
	f.send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := f.final()
	p := m.top().(*plannerScreen)
	if p.phase != phaseArmed || p.offset == 0 {
		t.Fatalf("pgdn while armed: phase %d offset %d", p.phase, p.offset)
	}
	v := m.View()
	checkFits(t, v, 60, 15)
	golden.RequireEqual(t, v)
}

// After a reset from the TUI, quitting prints its backup and undo command on
// the terminal: the result screen went with the alternate screen.
func TestFlowUndoAfterQuit(t *testing.T) {
	f := newFlow(t, 120, 40, &fakeResetter{})
	f.send(burst("/ship-svc"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("groups › ship-svc")
	f.send(burst("Rl"), tea.KeyMsg{Type: tea.KeyTab}, burst("1"))
	f.waitFor("re-reads 2")
	f.send(tea.KeyMsg{Type: tea.KeyEnter}, burst("ship-svc"), tea.KeyMsg{Type: tea.KeyEnter})
	f.waitFor("APPLIED")
	f.send(burst("q"))
	notes := ExitNotes(f.final())
	for _, want := range []string{"1 plan executed in this session", "ship-svc: applied", "--to-offset 1",
		"backup: /home/oncall/.local/state/offsettui/ship-svc-20261129T085336.000Z.csv",
		"undo:   offsettui reset --bootstrap-server 127.0.0.1:39092 --group ship-svc --restore /home/oncall/.local/state/offsettui/ship-svc-20261129T085336.000Z.csv --execute"} {
		if !strings.Contains(notes, want) {
			t.Errorf("exit notes lack %q:\n%s", want, notes)
		}
	}
	if ExitNotes(New(Options{})) != "" {
		t.Error("a session without a reset prints something on exit")
	}
}
