package clustertest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
)

// TestRealClusterSoak (not in CI: set OFFSETTUI_SOAK to a duration, 30m for the figures of
// docs/testing.md, and go test -timeout above it): `describe --watch` every 2 s for that
// long while a node is bounced every OFFSETTUI_SOAK_BOUNCE (default 2m) — in turn, every
// other bounce with kill -9 — and the producer and the live groups run. It reports the
// snapshots taken, those with anything unknown, and the numbers that disagreed with the
// independent reads, which must be none.
func TestRealClusterSoak(t *testing.T) {
	total, err := time.ParseDuration(os.Getenv("OFFSETTUI_SOAK"))
	if err != nil || total <= 0 {
		t.Skip("set OFFSETTUI_SOAK to a duration (30m) to soak the watch on the cluster")
	}
	every := 2 * time.Minute
	if v := os.Getenv("OFFSETTUI_SOAK_BOUNCE"); v != "" {
		if every, err = time.ParseDuration(v); err != nil {
			t.Fatalf("OFFSETTUI_SOAK_BOUNCE: %v", err)
		}
	}
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "soak")
	tr := w.startTruth(t)
	var log watchLog
	watching := watch(t, log.add, "--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--interval", "2s",
		"--topic", w.static, "--topic", w.live)
	start := time.Now()
	end := start.Add(total)
	for n := 0; ; n++ {
		at := start.Add(every/2 + time.Duration(n)*every) // the middle of each period
		if at.Add(every / 2).After(end) {
			break
		}
		time.Sleep(time.Until(at))
		id := int32(n%3 + 1)
		if n%2 == 1 {
			c.Kill(id)
		} else {
			c.Stop(id)
		}
		time.Sleep(5 * time.Second)
		c.Start(id)
		c.WaitInSync(false)
		t.Logf("%s: bounce %d done (node %d, kill -9 %v)", time.Now().Format("15:04:05"), n+1, id, n%2 == 1)
	}
	time.Sleep(time.Until(end))
	watching.stop()
	time.Sleep(4 * time.Second) // the truth read after the last snapshot
	t.Logf("soaked %v: went through %s; the producer had %d records acknowledged", total, c.Tally(), w.produced())
	if watching.exitedEarly || watching.code != exitOK {
		t.Errorf("the watch exited by itself (exit %d): %s", watching.code, watching.stderr.String())
	}
	t.Logf("the watch reported %d failed snapshots and went on", strings.Count(watching.stderr.String(), "still watching"))
	log.judgeAll(t, w, tr, "2s")
}
