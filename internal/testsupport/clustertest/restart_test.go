package clustertest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
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

// TestRealClusterRollingRestart: each node of the three-node cluster is stopped and
// started in turn — a controlled shutdown, then kill -9 of the active controller, then a
// controlled shutdown — with a preferred leader election after each return, while
// `describe --watch` runs every 2 s and every 100 ms, the TUI refreshes every second,
// `check` of a static group runs again and again, and one-shot describes follow the kill,
// with a producer and two live groups (classic and consumer protocol) running. Every
// number the watches and describes print equals the independent read (the static
// groups) or lies between the reads around its snapshot (the live topic), or is marked
// unknown with its error; no group a watch showed goes missing; the TUI shows every group
// with its exact lag or marked unknown and says STALE after a failed refresh; check never
// passes with a position unread; a new controller is elected; nothing exits.
func TestRealClusterRollingRestart(t *testing.T) {
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "rr")
	tr := w.startTruth(t)
	common := []string{"--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--topic", w.static, "--topic", w.live}
	var slowLog, fastLog watchLog
	slow := watch(t, slowLog.add, append([]string{"--interval", "2s"}, common...)...)
	fast := watch(t, fastLog.add, append([]string{"--interval", "100ms"}, common...)...)
	checks := checkAgain(t, c.Bootstrap, w.staticGroups[0], w.static, w.staticCommits[w.staticGroups[0]])
	tui := w.runTUI(t)

	time.Sleep(2 * time.Second) // a few snapshots of the cluster at rest
	_, controller := c.Controller()
	order := []int32{}
	for id := range int32(3) {
		if id+1 != controller {
			order = append(order, id+1)
		}
	}
	order = []int32{order[0], controller, order[1]}
	var once []model.Snapshot
	var onceAt []time.Time
	for i, id := range order {
		begin := time.Now()
		if i == 1 {
			c.Kill(id)
			for range 3 { // describe keeps working while the controller fails over
				code, snap, errs := describeJSON(t, common...)
				if code != exitOK {
					t.Errorf("describe after the controller was killed: exit %d: %s", code, errs)
				}
				once, onceAt = append(once, snap), append(onceAt, time.Now())
			}
		} else {
			c.Stop(id)
		}
		stopped := time.Now()
		time.Sleep(2 * time.Second) // the node stays down: its coordinators and leaderships move
		c.Start(id)
		up := time.Now()
		c.WaitInSync(true) // back in sync, then the preferred leaders elected again
		t.Logf("node %d: stopped in %v, down for %v (started in %v), then in sync with its preferred leaders in %v", id,
			stopped.Sub(begin).Round(100*time.Millisecond), up.Sub(stopped).Round(time.Second),
			up.Sub(stopped.Add(2*time.Second)).Round(time.Second), time.Since(up).Round(time.Second))
		time.Sleep(time.Second)
	}
	slow.stop()
	fast.stop()
	tui.stop()
	checks.report(t)
	time.Sleep(300 * time.Millisecond) // the truth read after the last snapshot
	tally := c.Tally()
	_, newController := c.Controller()
	t.Logf("went through %s (controller %d killed, %d leads now); the producer had %d records acknowledged",
		tally, controller, newController, w.produced())

	for _, wl := range []struct {
		name string
		w    *watching
		log  *watchLog
	}{{"2s", slow, &slowLog}, {"100ms", fast, &fastLog}} {
		if wl.w.exitedEarly || wl.w.code != exitOK {
			t.Errorf("the %s watch exited by itself (exit %d): %s", wl.name, wl.w.code, wl.w.stderr.String())
		}
		if n := strings.Count(wl.w.stderr.String(), "still watching"); n > 0 {
			t.Logf("the %s watch reported %d failed snapshots and went on", wl.name, n)
		}
		wl.log.judgeAll(t, w, tr, wl.name)
	}
	judged := 0
	for i, s := range once {
		v := w.judge(tr, s, s.Cluster.TakenAt.Time, onceAt[i], nil)
		judged += v.compared
		for _, p := range v.problems {
			t.Errorf("one-shot describe %d after the kill: %s", i, p)
		}
	}
	t.Logf("controller failover: %d one-shot describes right after controller %d was killed, %d numbers held to the truth; node %d leads the quorum now",
		len(once), controller, judged, newController)
	tui.report(t)
	if tally.Restarts != 3 || tally.Kills != 1 || tally.CoordinatorMoves == 0 || tally.ControllerElections == 0 {
		t.Errorf("went through %s; want 3 restarts, one after kill -9, coordinators moving and a controller elected", tally)
	}
}
