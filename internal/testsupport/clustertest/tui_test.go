package clustertest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// tuiWatch is the TUI on the world, judged screen by screen.
type tuiWatch struct {
	*tuiRun
	mu      sync.Mutex
	bad     []string
	failed  int // refreshes that failed
	unknown int // static group rows with the lag marked unknown
}

// runTUI runs the TUI filtered to the world's groups. After every refresh each group must
// be on screen; a static group's lag must read its exact total or be marked unknown ("?",
// "≥ N") and its members 0 or "?"; after a failed refresh the header must say STALE.
func (w *clusterWorld) runTUI(t *testing.T) *tuiWatch {
	tw := &tuiWatch{}
	tw.tuiRun = runTUIOn(t, w.c.Bootstrap, w.prefix, func(screen string, failed bool) {
		tw.mu.Lock()
		defer tw.mu.Unlock()
		if failed {
			tw.failed++
			if !strings.Contains(screen, "STALE") && !strings.Contains(screen, "NO DATA") {
				tw.bad = append(tw.bad, "a refresh failed but the header does not say the data is stale")
			}
		}
		rows := screenRows(screen)
		for _, g := range append(append([]string{}, w.staticGroups...), w.liveGroups...) {
			r, ok := rows[g]
			if !ok {
				tw.bad = append(tw.bad, "group "+g+" missing from the screen")
				continue
			}
			if w.staticCommits[g] == nil {
				continue
			}
			exact := int64(0)
			for _, off := range w.staticCommits[g] {
				exact += staticRecords - off
			}
			switch {
			case r.lag == fmt.Sprint(exact):
			case r.lag == "?" || strings.HasPrefix(r.lag, "≥"):
				tw.unknown++
			default:
				tw.bad = append(tw.bad, fmt.Sprintf("group %s: lag %q on screen, truth %d", g, r.lag, exact))
			}
			if r.members != "0" && r.members != "?" {
				tw.bad = append(tw.bad, fmt.Sprintf("group %s: %q members on screen, it has none", g, r.members))
			}
		}
	})
	return tw
}

// report logs what the TUI went through and fails the test on what it showed wrong, or
// when it quit or hardly refreshed.
func (tw *tuiWatch) report(t *testing.T) {
	t.Helper()
	quit, loads := tw.quitAndLoads()
	tw.mu.Lock()
	defer tw.mu.Unlock()
	t.Logf("TUI: %d refreshes, %d failed (shown STALE), %d group rows with the lag marked unknown", loads, tw.failed, tw.unknown)
	for i, b := range tw.bad {
		if i < 20 {
			t.Errorf("TUI: %s", b)
		}
	}
	if quit || loads < 5 {
		t.Errorf("TUI: quit %v after %d refreshes; want it running throughout", quit, loads)
	}
}
