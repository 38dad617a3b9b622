package views

import (
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// A report says when its numbers were read, never when the screen was opened.
// The list is read once (k = 0, one snapshot: no rates); event-sink's screen
// then reads event-sink alone, three times (k = 1, 2, 3). Its report (w) is
// stamped with the last of those reads and the window of its rates; it said
// "taken" at k = 0 and "rates: none" over rows read 30 s later. Back on the
// list before the next full read, the list's report keeps the list's time and
// names event-sink as read later.
func TestReportsCarryTheTimeOfTheirData(t *testing.T) {
	var wrote []model.Snapshot
	clk := newClock()
	var k int64
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		if len(q.Groups) == 1 {
			k++
			return onlyGroup(trafficSnapshot(k), q.Groups[0]), nil
		}
		return trafficSnapshot(0), nil
	}}
	opts := optsWith(src, clk)
	opts.Refresh = 0 // reads on r only: the list is not read again when its screen is back
	opts.ReportDir = t.TempDir()
	opts.WriteReport = func(w io.Writer, s model.Snapshot) error { wrote = append(wrote, s); return nil }
	hs := newHarness(t, opts, 200, 30)
	hs.send(keyRunes(":")).typeText("g event-sink").send(keyType(tea.KeyEnter))
	for range 2 {
		clk.advance(10 * time.Second)
		hs.send(keyRunes("r"))
	}
	if k != 3 {
		t.Fatalf("event-sink read %d times, want 3", k)
	}
	hs.send(keyRunes("w"))
	start := trafficSnapshot(0).Cluster.TakenAt.Time
	last := start.Add(30 * time.Second)
	if len(wrote) != 1 {
		t.Fatalf("%d reports", len(wrote))
	}
	r := wrote[0]
	// The rates run over the four samples of event-sink: the list's read, then its own three.
	if !r.Cluster.TakenAt.Equal(last) || r.Window == nil || !r.Window.To.Equal(last) || !r.Window.From.Equal(start) ||
		r.Window.Samples != 4 || r.Groups[0].ReadAt != nil {
		t.Fatalf("group report taken %s, window %+v, read at %v; want taken %s, rates over 4 samples from %s", r.Cluster.TakenAt, r.Window,
			r.Groups[0].ReadAt, last, start)
	}
	hs.send(keyType(tea.KeyEsc), keyRunes("w")) // the list, before its next full read
	r = wrote[len(wrote)-1]
	var readAt *model.Stamp
	for _, g := range r.Groups {
		if g.Group == "event-sink" {
			readAt = g.ReadAt
		} else if g.ReadAt != nil {
			t.Errorf("%s read later? %v", g.Group, g.ReadAt)
		}
	}
	if !r.Cluster.TakenAt.Equal(start) || readAt == nil || !readAt.Equal(last) {
		t.Errorf("list report taken %s, event-sink read at %v; want %s and %s", r.Cluster.TakenAt, readAt, start, last)
	}
}
