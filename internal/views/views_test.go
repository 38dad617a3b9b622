package views

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/offsettui/offsettui/internal/model"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{t: fixtureNow} }
func keyRunes(s string) tea.KeyMsg       { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
func keyType(t tea.KeyType) tea.KeyMsg   { return tea.KeyMsg{Type: t} }
func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
func optsWith(src Source, clk *clock) Options {
	return Options{Source: src, Cluster: "demo", Refresh: 5 * time.Second, RiskWindow: 24 * time.Hour, Now: clk.now}
}

// harness drives the root model synchronously: every Cmd is run and its
// message fed back, except ticks, which tests send by hand.
type harness struct {
	t    testing.TB
	m    *app
	quit bool
}

func newHarness(t testing.TB, opts Options, w, h int) *harness {
	t.Helper()
	m := New(opts).(*app)
	m.tick = func(time.Duration) tea.Cmd { return nil }
	hs := &harness{t: t, m: m}
	hs.send(sizeMsg(w, h))
	hs.run(m.Init())
	return hs
}

// send delivers messages one after the other, running what they return.
func (h *harness) send(msgs ...tea.Msg) *harness {
	for _, msg := range msgs {
		next, cmd := h.m.Update(msg)
		h.m = next.(*app) // a context switch (:ctx) replaces the root
		h.run(cmd)
	}
	return h
}

func (h *harness) typeText(s string) *harness {
	for _, r := range s {
		h.send(keyRunes(string(r)))
	}
	return h
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.QuitMsg:
		h.quit = true
	default:
		h.send(msg)
	}
}

func (h *harness) view() string { return h.m.View() }

// checkFits fails when the view is not exactly w×h cells: nothing wraps,
// nothing is cut off by the terminal.
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, n, w, l)
		}
	}
}

// loaded returns a harness showing the fixture after three refreshes.
func loaded(t *testing.T, w, h int) *harness {
	t.Helper()
	clk := newClock()
	hist := fixtureHistory(fixtureNow)
	i := 0
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		if len(q.Groups) == 1 {
			return onlyGroup(fixtureSnapshot(fixtureNow, q.FetchBudget > 0), q.Groups[0]), nil
		}
		s := hist[min(i, len(hist)-1)]
		i++
		return s, nil
	}}
	hs := newHarness(t, optsWith(src, clk), w, h)
	for range 2 {
		hs.send(keyRunes("r"))
	}
	return hs
}

func goldenView(t *testing.T, hs *harness, w, h int) {
	t.Helper()
	v := hs.view()
	checkFits(t, v, w, h)
	golden.RequireEqual(t, v)
}

func TestGoldenGroups(t *testing.T) {
	hs := loaded(t, 120, 40)
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroups80x24(t *testing.T) {
	hs := loaded(t, 80, 24)
	goldenView(t, hs, 80, 24)
}

func TestGoldenGroupsFiltered(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("/")).typeText("!svc").send(keyType(tea.KeyEnter))
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroupsFilterTyping(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("/")).typeText("fan")
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroupsProblemsOnly(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("p"))
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroupExpired(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.openGroup("fanout")
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroupAuditExport(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("/")).typeText("audit").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter), keyRunes("j"))
	goldenView(t, hs, 120, 40)
}

func TestGoldenGroupAuditExport80x24(t *testing.T) {
	hs := loaded(t, 80, 24)
	hs.send(keyRunes("/")).typeText("audit").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter), keyRunes("G"))
	goldenView(t, hs, 80, 24)
}

func TestGoldenGroupMissingWithMember(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("/")).typeText("new-svc").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
	goldenView(t, hs, 120, 40)
}

func TestGoldenHelp(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes("?"))
	goldenView(t, hs, 120, 40)
}
