package main

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// notAvailable rewrites a ListOffsets answer as a leader elected a moment ago gives it: it
// does not know its high watermark yet (OFFSET_NOT_AVAILABLE), for every partition.
func notAvailable(r kmsg.Response) {
	lo := r.(*kmsg.ListOffsetsResponse)
	for i := range lo.Topics {
		for j := range lo.Topics[i].Partitions {
			p := &lo.Topics[i].Partitions[j]
			p.ErrorCode, p.Offset, p.Timestamp = kerr.OffsetNotAvailable.Code, -1, -1
		}
	}
}

// TestRealKafkaResetWaitsForNewLeader: a reset whose partitions' leader answers
// OFFSET_NOT_AVAILABLE (the fault proxy rewrites the real broker's ListOffsets answers as a
// leader just elected gives them) asks again until one --timeout is left of its phase's
// deadline, not for 1.5 s: when the leader answers after 40 requests (about 6 s of
// re-asks) the reset plans and writes (exit 0); when it never does, the reset is refused
// (exit 3, nothing written) with a blocker that says what it waited for, and how long.
func TestRealKafkaResetWaitsForNewLeader(t *testing.T) {
	w := newTrustWorld(t, "newleader")
	targets := map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 1}
	for _, c := range []struct {
		name  string
		times int // requests answered OFFSET_NOT_AVAILABLE; 0: all of them
		exit  int
	}{
		{"answers after 40 requests", 40, exitOK},
		{"never answers", 0, exitBlocked},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			group, seed := w.newGroup(t, "newleader-g")
			p, id := proxied(t, w.addr)
			p.Add(faultproxy.Rule{Broker: id, Key: kmsg.ListOffsets, Action: faultproxy.Rewrite, Rewrite: notAvailable, Times: c.times})
			const timeout = 8 * time.Second
			start := time.Now()
			code, r, stderr := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", timeout.String(), "--backup-dir", t.TempDir(),
				"--group", group, "--to-offset", "1", "--all-topics", "--execute")
			took := time.Since(start)
			t.Logf("exit %d after %v, %d ListOffsets requests", code, took.Round(time.Millisecond), p.Requests(id, kmsg.ListOffsets))
			if code != c.exit {
				t.Fatalf("exit %d, want %d; blockers %+v\n%s", code, c.exit, r.Blockers, stderr)
			}
			want := targets
			if c.exit == exitBlocked {
				want = w.want
				if took < timeout-2*time.Second || took > 2*timeout+4*time.Second {
					t.Errorf("refused after %v; the re-asks last until one --timeout (%v) is left of the plan's deadline (%v)", took, timeout, 2*timeout)
				}
				for _, b := range r.Blockers {
					if b.Kind != plan.BlockUnknownOffsets || !strings.Contains(b.Message, "OFFSET_NOT_AVAILABLE") ||
						!strings.Contains(b.Message, "did not know its high watermark yet; asked again for") {
						t.Errorf("blocker %s: %s; want unknown-offsets saying what it waited for", b.Kind, b.Message)
					}
				}
				if len(r.Blockers) == 0 || r.Executed {
					t.Errorf("blockers %v, executed %v; want refused", r.Blockers, r.Executed)
				}
			}
			if got := seed.Committed(group); !maps.Equal(got, want) {
				t.Errorf("the group's commits read back directly: %v, want %v", got, want)
			}
		})
	}
}
