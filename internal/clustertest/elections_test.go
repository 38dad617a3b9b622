package clustertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/realcluster"
)

// TestRealClusterFastWatchThroughElections: `describe --watch` every 100 ms, and `check`
// of a static group again and again, while the leadership of every __consumer_offsets
// partition (every group coordinator) and of the checked topic moves ten times by
// preferred leader elections, with no broker restarting: Kafka's ListGroups then leaves
// a moving coordinator's groups out for 100–250 ms without an error. No snapshot misses a group of the world, every number is
// the truth or marked unknown, and check never passes with a position unread.
func TestRealClusterFastWatchThroughElections(t *testing.T) {
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "el")
	tr := w.startTruth(t)
	var log watchLog
	debug := filepath.Join(t.TempDir(), "debug.log")
	fast := watch(t, log.add, "--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--interval", "100ms", "--debug", debug,
		"--topic", w.static, "--topic", w.live)
	checks := checkAgain(t, c.Bootstrap, w.staticGroups[0], w.static, w.staticCommits[w.staticGroups[0]])
	time.Sleep(time.Second)
	moved := 0
	for range 10 {
		moved += c.MoveLeaders("__consumer_offsets")
		moved += c.MoveLeaders(w.static)
		time.Sleep(300 * time.Millisecond)
	}
	fast.stop()
	checks.report(t)
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
