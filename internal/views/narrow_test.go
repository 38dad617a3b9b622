package views

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// What a narrow terminal drops is marked: the header ends in a "…" column, the
// title says how many columns are hidden, and the key line keeps "? help" and
// "q quit". LOSS-IN is the last column to go. Before, columns vanished at 120
// and 80 columns without a sign, and at 60 LOSS-IN and the keys ? and q went.
func TestNarrowScreensMarkWhatTheyDrop(t *testing.T) {
	for _, size := range [][2]int{{200, 60}, {120, 40}, {80, 24}, {60, 15}} {
		w, h := size[0], size[1]
		hs := trafficHarness(t, w, h, nil)
		v := hs.view()
		checkFits(t, v, w, h)
		lines := strings.Split(ansi.Strip(v), "\n")
		title, header, keys := lines[2], lines[3], lines[len(lines)-1]
		hidden := strings.Contains(title, "columns hidden") || strings.Contains(title, "column hidden")
		marked := strings.HasSuffix(strings.TrimRight(header, " "), "…")
		if w < 200 && (!hidden || !marked) || w == 200 && (hidden || marked) {
			t.Errorf("%d×%d: title %q, header %q: columns hidden must be said and marked, and only then", w, h, title, header)
		}
		if !strings.Contains(header, "LOSS-IN") {
			t.Errorf("%d×%d: LOSS-IN dropped: %q", w, h, header)
		}
		if !strings.Contains(keys, "? help") || !strings.Contains(keys, "q quit") {
			t.Errorf("%d×%d: the key line lost ? or q: %q", w, h, keys)
		}
	}
}

// At 60×15 a group's time to loss keeps what to act on: when, and the rate
// that avoids it; the whole sentence was cut before it said either.
func TestShortScreenSaysWhenTheLossIs(t *testing.T) {
	hs := trafficHarness(t, 60, 15, nil)
	hs.send(keyRunes("/")).typeText("event-sink").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
	v := ansi.Strip(hs.view())
	checkFits(t, hs.view(), 60, 15)
	if !strings.Contains(v, "TIME TO LOSS  events-0: loss in 19m22s, needs ≥ 3.0/s (next…") {
		t.Errorf("no loss time at 60×15:\n%s", v)
	}
}

// A group that never committed has no lag: "-" (no commit), not 0, which says
// it is caught up.
func TestNeverCommittedLagIsNotZero(t *testing.T) {
	now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	tp := model.TP{Topic: "outbox", Partition: 0}
	s := assemble.Snapshot(model.Observation{TakenAt: now, AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"outbox": {Topic: "outbox", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1))}},
		Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: model.Ptr(int64(30)), High: model.Ptr(int64(40))}},
		Groups: []model.GroupObservation{{Group: "new-svc", State: "Stable", Committed: map[model.TP]int64{},
			Members: []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}, Assignments: []model.Assignment{{Topic: "outbox", Partitions: []int32{0}}}}}}},
	}, assemble.Options{})
	if got := lagCellText(&s.Groups[0]); got != "-" {
		t.Errorf("LAG of a group that never committed: %q, want -", got)
	}
}

// TestNarrowKeyBarKeepsTheScreensActions: a narrow key bar keeps a group screen's R and
// space (its actions) before the generic keys; at 80 columns R was dropped while q stayed.
func TestNarrowKeyBarKeepsTheScreensActions(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 15}, {40, 15}} {
		w, h := size[0], size[1]
		hs, _ := plannerHarness(t, w, h, &fakeResetter{}, false)
		hs.openGroup("replay")
		lines := strings.Split(ansi.Strip(hs.view()), "\n")
		keys := lines[len(lines)-1]
		if !strings.HasPrefix(strings.TrimPrefix(keys, "esc back • "), "R plan a reset • space mark") || !strings.Contains(keys, "? help") {
			t.Errorf("%d×%d: the key line %q does not keep R and space first, and ?", w, h, keys)
		}
	}
}
