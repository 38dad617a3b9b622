package views

import (
	"bytes"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestFlowFanout is what an on-call engineer does first: filter to fanout,
// open it, read why it is EXPIRED, go back, quit.
func TestFlowFanout(t *testing.T) {
	src := &fakeSource{}
	opts := Options{Source: src, Cluster: "demo", Refresh: 5 * time.Second, RiskWindow: 24 * time.Hour,
		Now: func() time.Time { return fixtureNow }}
	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 40))
	waitFor := func(what ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			for _, w := range what {
				if !bytes.Contains(b, []byte(w)) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}

	waitFor("fanout", "ledger", "updated 3s ago")
	tm.Type("/fanout")
	waitFor("Groups 1 of 8")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // keep the filter
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // open fanout
	waitFor("groups › fanout", "EXPIRED", "18 records (12..29) were deleted before fanout read them")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor("enter open")
	tm.Type("q")

	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	m := final.(*app)
	if len(m.stack) != 1 || m.stack[0].(*groupsScreen).filter.text != "fanout" {
		t.Errorf("back on the groups screen with the filter kept, got %d screens", len(m.stack))
	}
	if n := len(src.seen()); n != 2 {
		t.Errorf("reads: %d, want the snapshot and fanout's timestamps", n)
	}
	golden.RequireEqual(t, final.View())
}
