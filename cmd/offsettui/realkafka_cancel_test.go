package main

// Cancelling a write while it still watches the group before its backup, on the real main
// broker (Kafka 4.4.0): in the TUI with esc, in the CLI with SIGINT. Nothing is written, no
// backup is left, and the audit log has the one line that says cancelled
// (docs/resets.md, "Cancelling").

import (
	"io"
	"maps"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/views"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaTUICancelDuringTheWatch: an Empty group's reset confirmed in the TUI, which
// watches the group's commits for 10 s before the backup; esc 2 s into the watch cancels it:
// the result says CANCELLED, franz-go reads the commits as they were, no backup file is in
// the state dir, and the audit log holds one line, outcome cancelled.
func TestRealKafkaTUICancelDuringTheWatch(t *testing.T) {
	b := realkafka.Main(t)
	w := newTrustWorld(t, "tui-cancel")
	c := common{bootstrap: b.Addr, timeoutD: 15 * time.Second, riskWindowD: time.Hour, stderr: io.Discard, observe: reset.DefaultObserve}
	conn, err := c.resolveConnection(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	lc := &lazyClient{c: c, conn: &conn}
	t.Cleanup(lc.close)
	backups := t.TempDir()
	tm := teatest.NewTestModel(t, views.New(tuiOptions(c, lc, 0, true, backups)), teatest.WithInitialTermSize(160, 50))
	waitFor := outputWaiter(t, tm, 45*time.Second)
	openPlanner(tm, waitFor, w.group, w.topic)
	tm.Type("hh")                    // --to-current → --to-latest → --to-earliest
	waitFor("--to-earliest --topic") // the Kafka command, which wraps before the topic
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor("ARMED")
	tm.Type(w.group)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor("watching — nothing written yet (esc cancels)", "8s left") // 2 s into the 10 s watch
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor("CANCELLED")
	view, _ := finalView(t, tm)

	if got := w.seed.Committed(w.group); !maps.Equal(got, w.want) {
		t.Errorf("after the cancel franz-go reads %v, want %v\n%s", got, w.want, view)
	}
	if files := backupFiles(t, backups); len(files) != 0 {
		t.Errorf("the cancel left backups %v", files)
	}
	if log := auditLog(t, backups); len(log) != 1 || log[0].Event != "outcome" || log[0].Result == nil || *log[0].Result != "cancelled" {
		t.Errorf("audit log %+v; want one outcome line, cancelled", log)
	}
}

// TestRealKafkaResetCancelledDuringTheWatch: SIGINT while `reset --execute` watches the
// group's commits before the write (its OffsetFetch polls seen at the fault proxy): exit 3,
// the word cancelled on stderr, nothing sent to commit, the commits as they were, no backup,
// one audit line, outcome cancelled. Not parallel: the signal reaches every resetMain of the
// process.
func TestRealKafkaResetCancelledDuringTheWatch(t *testing.T) {
	w := newTrustWorld(t, "cli-cancel")
	p, id := proxied(t, w.addr)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for p.Requests(id, kmsg.OffsetFetch) < 4 { // the plan reads once; the watch every 500 ms
			select {
			case <-stop: // the reset ended first: the checks below say how
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	dir := t.TempDir()
	start := time.Now()
	code, r, stderr := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", "20s", "--backup-dir", dir,
		"--group", w.group, "--to-earliest", "--all-topics", "--execute", "--observe", "10s")
	if took := time.Since(start); code != exitBlocked || r.Executed || !strings.Contains(stderr, "cancelled") || took > 9*time.Second {
		t.Errorf("exit %d executed %v after %s, stderr %q; want exit 3, the word cancelled, before the watch's end", code, r.Executed, took, stderr)
	}
	if n := p.Requests(id, kmsg.OffsetCommit); n != 0 {
		t.Errorf("%d commits sent", n)
	}
	if got := w.seed.Committed(w.group); !maps.Equal(got, w.want) {
		t.Errorf("commits %v, want %v", got, w.want)
	}
	if files := backupFiles(t, dir); len(files) != 0 {
		t.Errorf("the cancel left backups %v", files)
	}
	if log := auditLog(t, dir); len(log) != 1 || log[0].Event != "outcome" || log[0].Result == nil || *log[0].Result != "cancelled" {
		t.Errorf("audit log %+v; want one outcome line, cancelled", log)
	}
}
