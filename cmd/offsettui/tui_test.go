package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/views"
)

// demoTUI runs the TUI on a fresh demo cluster at 120×40 under teatest, wired as
// `offsettui --demo` wires it, and returns it with the demo, the client, the
// backup directory and a wait for screen text.
func demoTUI(t *testing.T) (*teatest.TestModel, *demo.Cluster, *kafka.Client, string, func(...string)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Logf: t.Logf})
	if err != nil {
		t.Fatalf("start the demo: %v", err)
	}
	t.Cleanup(d.Close)
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: d.Bootstrap(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	backups := t.TempDir()
	lc := &lazyClient{c: common{demo: true}, sess: &session{client: cl, cluster: "demo", demo: d, access: decideAccess(false)}}
	opts := tuiOptions(common{demo: true}, lc, 0, true, backups)
	if !opts.Demo || opts.Cluster != "demo" || opts.Resetter == nil {
		t.Fatalf("options under --demo: %+v", opts)
	}
	opts.RiskWindow = 24 * time.Hour
	tm := teatest.NewTestModel(t, views.New(opts), teatest.WithInitialTermSize(120, 40))
	waitFor := outputWaiter(t, tm, 20*time.Second)
	return tm, d, cl, backups, waitFor
}

// TestTUIResetFlowDemo is the reset flow, on the real demo cluster through
// the adapter (internal/kafka + internal/reset): open ship-svc, R, plan
// --to-offset 1 on its topic (2 duplicates), confirm by typing the name, see the
// verified result and the undo command; then an independent client reads the
// committed offset back.
func TestTUIResetFlowDemo(t *testing.T) {
	tm, d, cl, backups, waitFor := demoTUI(t)
	key := func(k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }

	waitFor("ship-svc", "ledger")
	tm.Type("/ship-svc")
	key(tea.KeyEnter) // keep the filter; the only match opens
	waitFor("groups › ship-svc", "shipments")
	tm.Type("R")
	waitFor("Reset plan for ship-svc", "topic shipments (all 1 partition)", "NOTHING TO CHANGE")
	tm.Type("l") // --to-current → --to-offset
	key(tea.KeyTab)
	tm.Type("1")
	waitFor("re-delivers 2 records", "re-reads 2") // lines a renderer frame cannot have skipped
	key(tea.KeyEnter)
	waitFor("ARMED")
	tm.Type("ship-svc")
	key(tea.KeyEnter)
	waitFor("APPLIED", "put the previous offsets back")
	tm.Type("q")

	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
	view := ansi.Strip(final.View())
	files, _ := filepath.Glob(filepath.Join(backups, "ship-svc-*.csv"))
	if len(files) != 1 {
		t.Fatalf("backups in %s: %v, want one\n%s", backups, files, view)
	}
	if b, err := os.ReadFile(files[0]); err != nil || string(b) != "shipments,0,3\n" {
		t.Errorf("backup %s = %q (%v), want the offset before the reset", files[0], b, err)
	}
	for _, want := range []string{
		"Reset of ship-svc · --to-offset 1 · APPLIED",
		"verified  yes: the offsets read back equal the plan",
		"re-reads 2",
		files[0],
	} {
		if !strings.Contains(view, want) {
			t.Errorf("final view lacks %q:\n%s", want, view)
		}
	}
	// The undo command names the demo's ports: it works only while the demo runs.
	if flat := strings.Join(strings.Fields(view), " "); !strings.Contains(flat,
		"the demo cluster stops when offsettui exits: this command works only while it runs") {
		t.Errorf("final view does not say the undo command dies with the demo:\n%s", view)
	}
	undo := "offsettui reset --bootstrap-server " + cl.Bootstrap() + " --group ship-svc --restore " + files[0] +
		" --backup-dir " + backups + " --execute"
	if joined := strings.ReplaceAll(view, " \\\n  ", " "); !strings.Contains(joined, undo) {
		t.Errorf("final view lacks the whole undo command %q:\n%s", undo, view)
	}
	for i, l := range strings.Split(final.View(), "\n") {
		if w := ansi.StringWidth(l); w > 120 {
			t.Errorf("line %d is %d cells wide: %q", i, w, l)
		}
	}

	// An independent read: franz-go's admin client, not offsettui's.
	got := kafkatest.NewSeed(t, d.Bootstrap()).Committed("ship-svc")
	if o, ok := got[model.TP{Topic: "shipments", Partition: 0}]; !ok || o != 1 {
		t.Errorf("ship-svc's commit on shipments-0 = %d (found %v), want 1", o, ok)
	}
}

// TestTUIFanoutFlowDemo is the fanout drill-down on the real demo cluster (the views
// package has the same flow on fixture data): filter to fanout, open it, see
// EXPIRED and the explanation line, go back, quit.
func TestTUIFanoutFlowDemo(t *testing.T) {
	tm, _, _, _, waitFor := demoTUI(t)
	waitFor("fanout", "ledger")
	tm.Type("/fanout")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // keep the filter; the only match opens
	waitFor("groups › fanout", "EXPIRED", "18 records (12..29) were deleted before fanout read them")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor("Groups 1 of 9")
	tm.Type("q")
	final := ansi.Strip(tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View())
	if !strings.Contains(final, "fanout") || strings.Contains(final, "groups › fanout") {
		t.Errorf("final screen is not the filtered groups list:\n%s", final)
	}
}

// TestTUIRestoreFlowDemo: a reset from the TUI, then u on the group chooses
// its backup, which the reset service loads and checks against its manifest,
// plans and, once confirmed, puts back; an independent client reads the
// offset back. After quitting, the exit notes carry both undo commands.
func TestTUIRestoreFlowDemo(t *testing.T) {
	tm, d, _, backups, waitFor := demoTUI(t)
	key := func(k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }
	waitFor("ship-svc", "ledger")
	tm.Type("/ship-svc")
	key(tea.KeyEnter)
	waitFor("groups › ship-svc", "shipments")
	tm.Type("R")
	waitFor("NOTHING TO CHANGE") // --to-current moves nothing
	tm.Type("l")
	key(tea.KeyTab)
	tm.Type("1")
	waitFor("re-delivers 2 records")
	key(tea.KeyEnter)
	tm.Type("ship-svc")
	key(tea.KeyEnter)
	waitFor("APPLIED")
	key(tea.KeyEsc)
	waitFor("groups › ship-svc")
	tm.Type("u")
	waitFor("Restore plan for ship-svc", "ship-svc-", "1 of 1", "SKIPS 2", "nothing blocks this plan")
	key(tea.KeyEnter)
	waitFor("ARMED")
	tm.Type("ship-svc")
	key(tea.KeyEnter)
	waitFor("Restore of ship-svc · --restore", "APPLIED")
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
	if got := kafkatest.NewSeed(t, d.Bootstrap()).Committed("ship-svc")[model.TP{Topic: "shipments", Partition: 0}]; got != 3 {
		t.Errorf("ship-svc's commit after the restore = %d, want 3 (before the reset)", got)
	}
	notes := views.ExitNotes(final)
	if n := strings.Count(notes, "undo:   offsettui reset"); n != 2 || !strings.Contains(notes, "2 plans executed") || !strings.Contains(notes, backups) {
		t.Errorf("exit notes: %d undo commands, want 2:\n%s", n, notes)
	}
}

// screenOutput is what a TUI under test has drawn so far, kept whole across waits: the
// screen draws only the lines that change, so a line drawn before one wait (a row that
// filtering leaves in its place) is still there for the next.
type screenOutput struct {
	tm    *teatest.TestModel
	seen  []byte
	chunk []byte
}

// screens holds each test program's screenOutput (outputWaiter makes it).
var screens sync.Map // *teatest.TestModel → *screenOutput

// holds reads what was drawn since and reports whether the output holds every text.
func (o *screenOutput) holds(what []string) bool {
	for {
		n, _ := o.tm.Output().Read(o.chunk)
		if n == 0 {
			break
		}
		o.seen = append(o.seen, o.chunk[:n]...)
	}
	for _, w := range what {
		if !bytes.Contains(o.seen, []byte(w)) {
			return false
		}
	}
	return true
}

// within waits up to d for the texts and reports whether they came.
func (o *screenOutput) within(d time.Duration, what ...string) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if o.holds(what) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// outputWaiter returns a function that waits, up to d, until the TUI's output so far holds
// every text it is given, and fails the test when it does not.
func outputWaiter(t *testing.T, tm *teatest.TestModel, d time.Duration) func(...string) {
	// A program a failed wait leaves running would be killed by the next SIGINT sent to
	// this process (TestRealKafkaResetCancelledDuringTheWatch) and fail a finished test.
	t.Cleanup(func() { _ = tm.Quit(); screens.Delete(tm) })
	o := &screenOutput{tm: tm, chunk: make([]byte, 64<<10)}
	screens.Store(tm, o)
	return func(what ...string) {
		t.Helper()
		if !o.within(d, what...) {
			t.Fatalf("waited %s for %q; the screen's last output:\n%s", d, what, ansi.Strip(string(o.seen[max(0, len(o.seen)-8<<10):])))
		}
	}
}
