package clustertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
)

// TestRealClusterFastWatchThroughElections: `describe --watch` every 100 ms, and `check`
// of a static group again and again, while the leadership of every __consumer_offsets
// partition (every group coordinator) and of the checked topic moves ten times by
// preferred leader elections, with no broker restarting: Kafka's ListGroups then leaves
// a moving coordinator's groups out for 100–250 ms without an error. No snapshot misses a group of the world, every number is
// the truth or marked unknown, check never passes with a position unread, and a one-shot
// `describe --group` of a group whose coordinator moves never answers "does not exist".
func TestRealClusterFastWatchThroughElections(t *testing.T) {
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "el")
	tr := w.startTruth(t)
	var log watchLog
	debug := filepath.Join(t.TempDir(), "debug.log")
	fast := watch(t, log.add, "--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--interval", "100ms", "--debug", debug,
		"--topic", w.static, "--topic", w.live)
	checks := checkAgain(t, c.Bootstrap, w.staticGroups[0], w.static, w.staticCommits[w.staticGroups[0]])
	named := describeAgain(t, c.Bootstrap, w.staticGroups[1])
	time.Sleep(time.Second)
	moved := 0
	for range 10 {
		moved += c.MoveLeaders("__consumer_offsets")
		moved += c.MoveLeaders(w.static)
		time.Sleep(300 * time.Millisecond)
	}
	fast.stop()
	checks.report(t)
	named.report(t)
	if b, err := os.ReadFile(debug); err == nil {
		t.Logf("Kafka's ListGroups left a group out %d times; each was asked of its coordinator and kept (the watch's --debug log)",
			strings.Count(string(b), "left out of ListGroups, found by asking its coordinator"))
	}
	time.Sleep(300 * time.Millisecond) // the truth read after the last snapshot
	tally := c.Tally()
	t.Logf("went through %s (%d partitions moved by preferred elections)", tally, moved)
	if fast.exitedEarly || fast.code != exitOK {
		t.Errorf("the watch exited by itself (exit %d): %s", fast.code, fast.stderr.String())
	}
	log.judgeAll(t, w, tr, "100ms")
	if tally.CoordinatorMoves < 10*realcluster.OffsetsPartitions {
		t.Errorf("went through %s; want every coordinator moved ten times", tally)
	}
}

// describing is `offsettui describe --group G` run again and again until report.
type describing struct {
	stop  chan struct{}
	done  chan struct{}
	codes map[int]int
}

// describeAgain runs one-shot describes of group: each must exit 0 (never 3, "does not
// exist": the group exists) and show the group.
func describeAgain(t *testing.T, boot, group string) *describing {
	d := &describing{stop: make(chan struct{}), done: make(chan struct{}), codes: map[int]int{}}
	go func() {
		defer close(d.done)
		for {
			select {
			case <-d.stop:
				return
			default:
			}
			code, snap, errs := describeJSON(t, "--bootstrap-server", boot, "--timeout", "3s", "--group", group)
			d.codes[code]++
			if code != exitOK || len(snap.Groups) != 1 || snap.Groups[0].Group != group {
				t.Errorf("describe --group %s: exit %d, %d groups: %s", group, code, len(snap.Groups), errs)
			}
		}
	}()
	t.Cleanup(d.end)
	return d
}

func (d *describing) end() {
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	<-d.done
}

func (d *describing) report(t *testing.T) {
	t.Helper()
	d.end()
	t.Logf("describe --group: exit codes %v", d.codes)
}
