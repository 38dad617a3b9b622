package views

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// rawFlow runs the inspector as a program that reads its keys as a terminal
// sends them: raw bytes through bubbletea's own input reader and parser. Each
// write is one read, so a burst written at once arrives as a terminal
// delivers keys typed faster than it sends them (or over a slow link).
type rawFlow struct {
	t    *testing.T
	p    *tea.Program
	in   *io.PipeWriter
	out  *lockedBuffer
	done chan tea.Model
	now  *atomicClock
	seen int // how much of the output the last wait read
}

// atomicClock is a clock the test moves while the program reads it.
type atomicClock struct{ ns atomic.Int64 }

func (c *atomicClock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *atomicClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// lockedBuffer is the program's output, read while it is written.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newRawFlow(t *testing.T, w, h int, rs Resetter) *rawFlow {
	t.Helper()
	clk := &atomicClock{}
	clk.ns.Store(fixtureNow.UnixNano())
	opts := Options{Source: &fakeSource{now: clk.now}, Cluster: "demo", Refresh: 5 * time.Second, RiskWindow: 24 * time.Hour,
		Now: clk.now}
	if rs != nil {
		opts.Resetter = rs
	}
	pr, pw := io.Pipe()
	f := &rawFlow{t: t, in: pw, out: &lockedBuffer{}, done: make(chan tea.Model, 1), now: clk}
	f.p = tea.NewProgram(New(opts), tea.WithInput(pr), tea.WithOutput(f.out), tea.WithoutSignals())
	go func() {
		m, _ := f.p.Run() // killed at cleanup; final checks that ctrl+c ended it
		f.done <- m
	}()
	t.Cleanup(func() { f.p.Kill(); _ = pw.Close() })
	f.p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	f.waitFor("ledger")
	return f
}

// write sends raw bytes in one write: one read of the program's input.
func (f *rawFlow) write(raw string) *rawFlow {
	f.t.Helper()
	if _, err := f.in.Write([]byte(raw)); err != nil {
		f.t.Fatalf("write %q: %v", raw, err)
	}
	return f
}

// waitFor waits until everything in what has been drawn since the last wait.
func (f *rawFlow) waitFor(what ...string) {
	f.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		out := f.out.String()
		all := true
		for _, w := range what {
			all = all && bytes.Contains([]byte(out[f.seen:]), []byte(w))
		}
		if all {
			f.seen = len(out)
			return
		}
	}
	f.t.Fatalf("waited 5s for %q; drawn:\n%s", what, ansi.Strip(f.out.String()))
}

// final sends ctrl+c as its own read (after everything written before it) and
// returns the model the program ended with.
func (f *rawFlow) final() *app {
	f.t.Helper()
	f.write("\x03")
	select {
	case m := <-f.done:
		return m.(*app)
	case <-time.After(5 * time.Second):
		f.t.Fatal("the program did not quit on ctrl+c")
	}
	return nil
}

// Esc with other keys in one read, on the groups list: esc clears the kept
// filter, then G goes to the last row. bubbletea reads ESC G as alt+G; taken
// whole, it matched nothing and both keys were lost.
func TestRawEscBurstOnGroups(t *testing.T) {
	f := newRawFlow(t, 120, 40, nil)
	f.write("/orders\r")
	f.waitFor("Groups 3 of 8")
	f.write("\x1bG")
	f.waitFor("Groups 8 ")
	m := f.final()
	g := m.stack[0].(*groupsScreen)
	if g.filter.text != "" || g.cursor != len(g.visible)-1 {
		t.Fatalf("after ESC G: filter %q, cursor %d of %d; want no filter, the last row", g.filter.text, g.cursor, len(g.visible))
	}
}

// In the filter: ESC ":g fanout" enter in one read cancels the filter, then
// the command opens fanout. Read as alt+: the text went into the filter.
func TestRawEscBurstInFilter(t *testing.T) {
	f := newRawFlow(t, 120, 40, nil)
	f.write("/aud")
	f.waitFor("/aud")
	f.write("\x1b:g fanout\r")
	f.waitFor("groups › fanout")
	m := f.final()
	g := m.stack[0].(*groupsScreen)
	if g.filter.text != "" || g.input.Focused() || len(m.stack) != 2 || m.stack[1].Group() != "fanout" {
		t.Fatalf("filter %q (focused %v), %d screens; want no filter and fanout open", g.filter.text, g.input.Focused(), len(m.stack))
	}
}

// In the planner's value field: ESC ESC in one read leaves the field, then the
// planner. bubbletea reads it as alt+esc, which matched neither.
func TestRawEscBurstInPlanner(t *testing.T) {
	f := newRawFlow(t, 120, 40, &fakeResetter{})
	f.write("/ship-svc\r")
	f.waitFor("groups › ship-svc")
	f.write("Rl\t")
	f.waitFor("type a value for --to-offset")
	f.write("\x1b\x1b")
	f.waitFor("space mark")
	m := f.final()
	if len(m.stack) != 2 {
		t.Fatalf("after ESC ESC in the value field: %d screens (top %s), want the group screen", len(m.stack), m.top().Crumb())
	}
}

// On an armed plan: ESC enter in one read disarms (clearing the name typed so
// far), then enter arms the plan again; nothing is written. Read as
// alt+enter, it did nothing at all.
func TestRawEscBurstOnArmedPlan(t *testing.T) {
	rs := &fakeResetter{}
	f := newRawFlow(t, 120, 40, rs)
	f.write("/ship-svc\r")
	f.waitFor("groups › ship-svc")
	f.write("Rl\t1")
	f.waitFor("re-reads 2")
	f.write("\r")
	f.waitFor("ARMED")
	f.write("ship")
	f.waitFor("ship")
	f.write("\x1b\r")
	f.waitFor("ARMED")
	m := f.final()
	p := m.top().(*plannerScreen)
	if _, executed := rs.calls(); len(executed) != 0 {
		t.Fatal("a reset was executed")
	}
	if p.phase != phaseArmed || p.confirm.Value() != "" {
		t.Fatalf("after ESC enter: phase %d, name %q; want disarmed then armed again, the name cleared", p.phase, p.confirm.Value())
	}
}

// Real escape sequences stay whole: a CSI and an SS3 arrow move the cursor
// down (never esc then "[B"), each alone and in one read among other keys,
// and a bracketed paste into the filter is text.
func TestRawEscapeSequencesStayWhole(t *testing.T) {
	f := newRawFlow(t, 120, 40, nil)
	f.write("j") // a key moves the cursor: from now on it follows its group
	f.write("\x1b[B")
	f.write("\x1bOB")
	f.write("\x1b[Bj\x1bOB") // three moves in one read
	m := f.final()
	g := m.stack[0].(*groupsScreen)
	if g.cursor != 6 || g.filter.text != "" || g.input.Focused() {
		t.Fatalf("after j, CSI B, SS3 B and the three in one read: cursor %d, filter %q (focused %v); want row 6, no filter",
			g.cursor, g.filter.text, g.input.Focused())
	}

	f = newRawFlow(t, 120, 40, nil)
	f.write("/")
	f.write("\x1b[200~ship-svc\n\x1b[201~")
	f.waitFor("/ship-svc")
	m = f.final()
	g = m.stack[0].(*groupsScreen)
	if !g.input.Focused() || g.filter.text != "ship-svc" {
		t.Fatalf("paste: filter %q (focused %v), want ship-svc typed, the filter still open", g.filter.text, g.input.Focused())
	}
}

// A plan that disarms itself while the operator types the group name (a
// commit lands meanwhile) keeps the name field: what is typed next stays text
// until esc leaves the field. Before, the name's l chose another strategy and
// its enter armed that plan.
func TestRawSelfDisarmKeepsTypedTextOutOfThePlanner(t *testing.T) {
	rs := &fakeResetter{}
	f := newRawFlow(t, 120, 40, rs)
	f.write("/ledger\r")
	f.waitFor("groups › ledger")
	f.write("R")
	f.waitFor("nothing to change") // --to-current moves nothing
	f.write("h")                   // --to-latest
	f.waitFor("enter arms this plan")
	f.write("\r")
	f.waitFor("ARMED")
	rs.mu.Lock()
	rs.edit = func(in *plan.Input) { in.Committed[model.TP{Topic: "payments", Partition: 0}]++ } // a commit lands
	rs.mu.Unlock()
	f.now.advance(6 * time.Second)
	f.p.Send(clockTickedMsg{}) // the refresh re-plans: the plan changed, and disarms
	f.waitFor("DISARMED")
	f.write("ledger\r")
	f.waitFor("the plan changed and was disarmed")
	m := f.final()
	p := m.top().(*plannerScreen)
	if plannerKinds[p.kind] != plan.ToLatest || p.phase != phaseEdit || !p.holding || p.confirm.Value() != "ledger" {
		t.Fatalf("strategy %s, phase %d, holding %v, field %q; want --to-latest, disarmed, the name in the field",
			plannerKinds[p.kind], p.phase, p.holding, p.confirm.Value())
	}
	if _, executed := rs.calls(); len(executed) != 0 {
		t.Fatal("a reset was executed")
	}
}

// A group name pasted with its newline confirms: the paste's newline (and
// spaces at its ends) are not part of the name. It was refused as
// "ship-svc " — an invisible space.
func TestRawPastedNameWithNewlineConfirms(t *testing.T) {
	rs := &fakeResetter{}
	f := newRawFlow(t, 120, 40, rs)
	f.write("/ship-svc\r")
	f.waitFor("groups › ship-svc")
	f.write("Rl\t1")
	f.waitFor("re-reads 2")
	f.write("\r")
	f.waitFor("ARMED")
	f.write("\x1b[200~ship-svc\n\x1b[201~")
	f.waitFor("ship-svc")
	f.write("\r")
	f.waitFor("APPLIED")
	f.final()
	if _, executed := rs.calls(); len(executed) != 1 {
		t.Fatalf("%d resets executed, want the one confirmed by the pasted name", len(executed))
	}
}
