package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/realcluster"
)

// watchLog keeps what one watch printed, to be judged once the truth after it is read.
type watchLog struct {
	mu    sync.Mutex
	snaps []model.Snapshot
	at    []time.Time
}

func (l *watchLog) add(s model.Snapshot, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.snaps = append(l.snaps, s)
	l.at = append(l.at, at)
}

// judgeAll judges every snapshot of l and reports the totals.
func (l *watchLog) judgeAll(t *testing.T, w *clusterWorld, tr *truth, name string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var withUnknown, missing, compared, trailing, bad int
	seen := map[string]bool{}
	for i, s := range l.snaps {
		v := w.judge(tr, s, s.Cluster.TakenAt.Time, l.at[i], seen)
		if v.unknown > 0 {
			withUnknown++
		}
		missing += v.missing
		compared += v.compared
		trailing += v.trailing
		for _, p := range v.problems {
			if bad++; bad <= 20 {
				t.Errorf("%s watch, snapshot taken %s: %s", name, s.Cluster.TakenAt.Format("15:04:05.000"), p)
			}
		}
	}
	t.Logf("%s watch: %d snapshots, %d with something unknown, %d groups missing, %d numbers held to the truth, %d wrong, "+
		"%d committed offsets a moment behind (read from a coordinator that had just moved)",
		name, len(l.snaps), withUnknown, missing, compared, bad, trailing)
	if len(l.snaps) < 5 {
		t.Errorf("%s watch: only %d snapshots", name, len(l.snaps))
	}
}

// TestRealClusterRollingRestart: each broker of the three-node cluster is stopped and
// started in turn (the third with kill -9), with a preferred leader election after each
// return, while `describe --watch` runs every 2 s and every 100 ms and the TUI refreshes
// every second, with a producer and two live groups (classic and consumer protocol)
// running. Every number the watches print equals the independent read (the static
// groups) or lies between the reads around its snapshot (the live topic), or is marked
// unknown with its error; no group is ever missing; the TUI shows every group with its
// exact lag or marked unknown, says STALE after a failed refresh, and neither it nor the
// watches exit.
func TestRealClusterRollingRestart(t *testing.T) {
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "rr")
	tr := w.startTruth(t)
	common := []string{"--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--topic", w.static, "--topic", w.live}
	var slowLog, fastLog watchLog
	slow := watch(t, slowLog.add, append([]string{"--interval", "2s"}, common...)...)
	fast := watch(t, fastLog.add, append([]string{"--interval", "100ms"}, common...)...)
	var (
		mu         sync.Mutex
		tuiBad     []string
		tuiFailed  int
		tuiUnknown int
	)
	tui := runTUIOn(t, c.Bootstrap, w.prefix, func(screen string, failed bool) {
		mu.Lock()
		defer mu.Unlock()
		if failed {
			tuiFailed++
			if !strings.Contains(screen, "STALE") && !strings.Contains(screen, "NO DATA") {
				tuiBad = append(tuiBad, "a refresh failed but the header does not say the data is stale")
			}
		}
		rows := screenRows(screen)
		for _, g := range append(append([]string{}, w.staticGroups...), w.liveGroups...) {
			r, ok := rows[g]
			if !ok {
				tuiBad = append(tuiBad, "group "+g+" missing from the screen")
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
				tuiUnknown++
			default:
				tuiBad = append(tuiBad, fmt.Sprintf("group %s: lag %q on screen, truth %d", g, r.lag, exact))
			}
			if r.members != "0" && r.members != "?" {
				tuiBad = append(tuiBad, fmt.Sprintf("group %s: %q members on screen, it has none", g, r.members))
			}
		}
	})

	time.Sleep(3 * time.Second) // a few snapshots of the cluster at rest
	for i, id := range []int32{1, 2, 3} {
		if i == 2 {
			c.Kill(id)
		} else {
			c.Stop(id)
		}
		time.Sleep(4 * time.Second) // the node stays down: its coordinators and leaderships move
		c.Start(id)
		c.WaitInSync(true) // back in sync, then the preferred leaders elected again
		time.Sleep(2 * time.Second)
	}
	slow.stop()
	fast.stop()
	tui.stop()
	time.Sleep(300 * time.Millisecond) // the truth read after the last snapshot
	tally := c.Tally()
	t.Logf("went through %s; the producer had %d records acknowledged", tally, w.produced())

	for _, wr := range []struct {
		name string
		w    *watching
	}{{"2s", slow}, {"100ms", fast}} {
		if wr.w.exitedEarly || wr.w.code != exitOK {
			t.Errorf("the %s watch exited by itself (exit %d): %s", wr.name, wr.w.code, wr.w.stderr.String())
		}
		if n := strings.Count(wr.w.stderr.String(), "still watching"); n > 0 {
			t.Logf("the %s watch reported %d failed snapshots and went on", wr.name, n)
		}
	}
	slowLog.judgeAll(t, w, tr, "2s")
	fastLog.judgeAll(t, w, tr, "100ms")
	quit, loads := tui.quitAndLoads()
	mu.Lock()
	t.Logf("TUI: %d refreshes, %d failed (shown STALE), %d group rows with the lag marked unknown", loads, tuiFailed, tuiUnknown)
	for i, b := range tuiBad {
		if i < 20 {
			t.Errorf("TUI: %s", b)
		}
	}
	mu.Unlock()
	if quit || loads < 5 {
		t.Errorf("TUI: quit %v after %d refreshes; want it running throughout", quit, loads)
	}
	if tally.Restarts != 3 || tally.Kills != 1 || tally.CoordinatorMoves == 0 {
		t.Errorf("went through %s; want 3 restarts, one after kill -9, and coordinators moving", tally)
	}
}
