package main

// SIGTERM while `offsettui reset --execute` runs, on the real broker with the
// fault proxy holding a request at a chosen moment (docs/resets.md "Outcomes"):
// before the commit it cancels the reset with nothing written; once the commit
// is on its way its answer is awaited, read back, audited and the undo printed.
// Not parallel: the signal reaches every resetMain of the process.

import (
	"maps"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaResetSIGTERM: a SIGTERM while the plan's last request is held
// ends the reset with nothing written (no commit sent, no file, no audit line);
// a SIGTERM while the commit is held lets it finish: applied, verified, exit 0,
// the undo printed and the outcome audited.
func TestRealKafkaResetSIGTERM(t *testing.T) {
	w := newTrustWorld(t, "sig")
	for _, c := range []struct {
		name    string
		hold    kmsg.Key
		action  faultproxy.Action
		written bool
	}{
		{"during the plan", kmsg.Fetch, faultproxy.DelayResponse, false},
		{"during the commit", kmsg.OffsetCommit, faultproxy.DelayRequest, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			group, seed := w.newGroup(t, "sig-g")
			p, id := proxied(t, w.addr)
			release := make(chan struct{})
			p.Add(faultproxy.Rule{Broker: id, Key: c.hold, Action: c.action, Release: release, Times: 1})
			go func() {
				defer close(release)
				for p.Requests(id, c.hold) == 0 {
					time.Sleep(5 * time.Millisecond)
				}
				_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
				time.Sleep(2 * time.Second) // the signal is handled while the request is held (--timeout 5s)
			}()
			dir := t.TempDir()
			code, r, _ := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", "5s", "--backup-dir", dir,
				"--group", group, "--to-offset", "1", "--all-topics", "--execute")
			<-release
			got := seed.Committed(group)
			if !c.written {
				if code == exitOK || r.Executed || p.Requests(id, kmsg.OffsetCommit) != 0 || !maps.Equal(got, w.want) ||
					len(backupFiles(t, dir)) != 0 || len(auditLog(t, dir)) != 0 {
					t.Errorf("exit %d executed %v, %d commits sent, commits %v, files %v; want a refusal with nothing sent or written",
						code, r.Executed, p.Requests(id, kmsg.OffsetCommit), got, backupFiles(t, dir))
				}
				return
			}
			want := map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 1}
			if code != exitOK || r.Verified == nil || !*r.Verified || r.Undo == nil || !maps.Equal(got, want) {
				t.Errorf("exit %d verified %v undo %v commits %v; want 0, verified, the undo, %v", code, r.Verified, r.Undo, got, want)
			}
			wantAudit(t, dir, "applied")
		})
	}
}
