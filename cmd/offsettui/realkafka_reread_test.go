package main

// A broker that goes silent between the plan and the commit of `reset
// --execute`, on the real broker through the fault proxy: the re-read right
// before the commit (docs/resets.md "Guards", step 2) cannot be completed, so
// nothing is written, within the phase's deadline.

import (
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaResetReReadStalled: the plan is read whole; then one API the
// re-read needs stalls. The reset is refused (exit 3, a blocker saying the state
// could not be re-read: drift, or unknown-offsets for the watermarks), no commit reaches the broker, no backup or audit
// line is written, and it ends within the plan's and the re-read's deadlines.
func TestRealKafkaResetReReadStalled(t *testing.T) {
	w := newTrustWorld(t, "reread")
	for _, key := range []kmsg.Key{kmsg.ListGroups, kmsg.OffsetFetch, kmsg.DescribeGroups, kmsg.ListOffsets} {
		t.Run(key.Name(), func(t *testing.T) {
			t.Parallel()
			group, seed := w.newGroup(t, "reread-g")
			p, id := proxied(t, w.addr)
			// The plan's last request is the Fetch of the targets' timestamps:
			// its answer waits until the stall is in force.
			release := make(chan struct{})
			p.Add(faultproxy.Rule{Broker: id, Key: kmsg.Fetch, Action: faultproxy.DelayResponse, Release: release, Times: 1})
			go func() {
				defer close(release)
				for p.Requests(id, kmsg.Fetch) == 0 {
					time.Sleep(5 * time.Millisecond)
				}
				p.Add(faultproxy.Rule{Broker: id, Key: key, Action: faultproxy.StallBefore})
			}()
			dir := t.TempDir()
			start := time.Now()
			code, r, _ := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String(), "--backup-dir", dir,
				"--group", group, "--to-earliest", "--all-topics", "--execute")
			if d := time.Since(start); d > 2*2*stallTimeout+4*time.Second {
				t.Errorf("took %v; the plan and the re-read are bounded by twice --timeout each", d)
			}
			want := plan.BlockDrift
			if key == kmsg.ListOffsets {
				want = plan.BlockUnknownOffsets
			}
			blocked := slices.ContainsFunc(r.Blockers, func(b plan.Blocker) bool { return b.Kind == want })
			if code != exitBlocked || r.Executed || !blocked || r.Backup != nil || r.Undo != nil {
				t.Errorf("exit %d executed %v blockers %+v backup %v undo %v; want 3, a %s blocker, nothing written",
					code, r.Executed, r.Blockers, r.Backup, r.Undo, want)
			}
			if n := p.Requests(id, kmsg.OffsetCommit); n != 0 {
				t.Errorf("%d commits reached the broker", n)
			}
			if f, a := backupFiles(t, dir), auditLog(t, dir); len(f) != 0 || len(a) != 0 {
				t.Errorf("files %v, audit %v; want none", f, a)
			}
			if got := seed.Committed(group); len(got) != 2 || got[tpOf(w.topic, 0)] != 4 || got[tpOf(w.topic, 1)] != 6 {
				t.Errorf("commits %v, want %v", got, w.want)
			}
		})
	}
}
