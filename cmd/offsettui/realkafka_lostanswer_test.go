package main

// `reset --execute` whose commit loses its answer, through the fault proxy in
// front of the real broker: the outcome comes from reading the offsets back on a
// fresh connection (docs/resets.md "Outcomes"), checked against the commits
// read back directly (franz-go, never through internal/kafka).

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaResetCommitAnswerLost: the commit lands but its answer is lost
// (the connection cut, or silent until --timeout): applied and verified from the
// read-back, exit 0, with the undo. The commit never sent (cut or stalled before
// the broker): every row unknown, exit 1, nothing applied, Kafka unchanged. The
// commit answered but the read-back silent: written-unverified, exit 1. In every
// case the backup stays and the audit log pairs the intent with the outcome.
func TestRealKafkaResetCommitAnswerLost(t *testing.T) {
	w := newTrustWorld(t, "lost")
	targets := map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 1}
	cases := []struct {
		name    string
		action  faultproxy.Action
		exit    int
		result  plan.WriteResult
		landed  bool
		outcome string
	}{
		{"stall-after", faultproxy.StallAfter, exitOK, plan.WriteWritten, true, "applied"},
		{"cut-after", faultproxy.CutAfter, exitOK, plan.WriteWritten, true, "applied"},
		{"cut-before", faultproxy.CutBefore, exitFailure, plan.WriteUnknown, false, "failed"},
		{"stall-before", faultproxy.StallBefore, exitFailure, plan.WriteUnknown, false, "failed"},
		{"read-back silent", faultproxy.DelayResponse, exitFailure, plan.WriteUnverified, true, "failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			group, seed := w.newGroup(t, "lost-g")
			p, id := proxied(t, w.addr)
			rule := faultproxy.Rule{Broker: id, Key: kmsg.OffsetCommit, Action: c.action, Times: 1}
			if c.action == faultproxy.DelayResponse {
				// Hold the commit's answer until the read-back's OffsetFetch
				// is stalled, then let it through.
				release := make(chan struct{})
				rule.Release = release
				go func() {
					defer close(release)
					for p.Requests(id, kmsg.OffsetCommit) == 0 {
						time.Sleep(5 * time.Millisecond)
					}
					p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetFetch, Action: faultproxy.StallBefore})
				}()
			}
			p.Add(rule)
			dir := t.TempDir()
			start := time.Now()
			code, r, _ := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String(), "--backup-dir", dir,
				"--group", group, "--to-offset", "1", "--all-topics", "--execute")
			if d := time.Since(start); d > 4*2*stallTimeout+4*time.Second {
				t.Errorf("took %v; each of its four phases is bounded by twice --timeout", d)
			}
			if p.Requests(id, kmsg.OffsetCommit) != 1 {
				t.Errorf("%d commits reached the proxy, want 1 (%s)", p.Requests(id, kmsg.OffsetCommit), p.Summary())
			}
			for tp, got := range r.results() {
				if got != c.result {
					t.Errorf("%s: result %q, want %q", tp, got, c.result)
				}
			}
			verified := r.Verified != nil && *r.Verified
			if code != c.exit || !r.Executed || len(r.Rows) != 2 || verified != (c.result == plan.WriteWritten) || len(r.Rejected) != 0 {
				t.Errorf("exit %d executed %v rows %d verified %v rejected %v; want %d, executed, 2, verified %v, none rejected",
					code, r.Executed, len(r.Rows), r.Verified, r.Rejected, c.exit, c.result == plan.WriteWritten)
			}
			// Something may have been written in every case: the undo restores
			// the backup, which is kept.
			if r.Backup == nil || r.Undo == nil || !strings.Contains(*r.Undo, "--restore "+*r.Backup) {
				t.Fatalf("backup %v undo %v; want the backup and its restore", r.Backup, r.Undo)
			}
			if _, err := os.Stat(*r.Backup); err != nil {
				t.Errorf("backup: %v", err)
			}
			wantAudit(t, dir, c.outcome)
			want := w.want
			if c.landed {
				want = targets
			}
			if got := seed.Committed(group); !maps.Equal(got, want) {
				t.Errorf("the group's commits read back directly: %v, want %v", got, want)
			}
		})
	}
}

// TestRealKafkaResetLostAnswerTable: the table output of a commit whose answer
// was cut says so, says the outcome came from the read-back, and prints the undo.
func TestRealKafkaResetLostAnswerTable(t *testing.T) {
	t.Parallel()
	w := newTrustWorld(t, "lost-table")
	p, id := proxied(t, w.addr)
	p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetCommit, Action: faultproxy.CutAfter, Times: 1})
	var out, errb bytes.Buffer
	code := resetMain([]string{"--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String(), "--backup-dir", t.TempDir(),
		"--group", w.group, "--to-earliest", "--all-topics", "--execute"}, &out, &errb)
	for _, want := range []string{"the commit request got no answer", "reading the offsets back on a fresh connection", "--restore"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != exitOK {
		t.Errorf("exit %d, want 0\n%s%s", code, out.String(), errb.String())
	}
}

// TestRealKafkaRestoreDeleteAnswerLost: a restore deletes the commit of a
// partition that had none before the reset (OffsetDelete); that answer lost, the
// read-back still shows the partition without a commit: applied, exit 0.
func TestRealKafkaRestoreDeleteAnswerLost(t *testing.T) {
	t.Parallel()
	w := newTrustWorld(t, "lost-del")
	group := realkafka.Name("lost-del-g")
	before := map[model.TP]int64{tpOf(w.topic, 0): 4} // partition 1 without a commit
	w.seed.Commit(group, before)
	dir := t.TempDir()
	code, r, _ := runReset(t, "--bootstrap-server", w.addr, "--backup-dir", dir, "--group", group, "--to-latest", "--topic", w.topic, "--execute")
	if code != exitOK || r.Backup == nil {
		t.Fatalf("reset: exit %d backup %v", code, r.Backup)
	}
	p, id := proxied(t, w.addr)
	p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetDelete, Action: faultproxy.CutAfter, Times: 1})
	code, r, _ = runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String(), "--backup-dir", dir, "--group", group,
		"--restore", *r.Backup, "--execute")
	if code != exitOK || r.Verified == nil || !*r.Verified || p.Requests(id, kmsg.OffsetDelete) != 1 {
		t.Errorf("restore: exit %d verified %v, %d OffsetDelete; want 0, verified, 1 (%s)", code, r.Verified, p.Requests(id, kmsg.OffsetDelete), p.Summary())
	}
	if got := w.seed.Committed(group); !maps.Equal(got, before) {
		t.Errorf("the group's commits read back directly: %v, want %v (partition 1 without a commit)", got, before)
	}
}

// TestRealKafkaResetCommitLandsAfterReadBack: the broker takes the commit only
// after offsettui gave up on it and read the offsets back (a slow broker): the
// rows are unknown ("it may still be applied"), exit 1, never "nothing
// written"; the commit then lands, and the undo printed restores what was there.
func TestRealKafkaResetCommitLandsAfterReadBack(t *testing.T) {
	t.Parallel()
	w := newTrustWorld(t, "late")
	p, id := proxied(t, w.addr)
	release := make(chan struct{})
	letGo := sync.OnceFunc(func() { close(release) })
	defer letGo()
	p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetCommit, Action: faultproxy.DelayRequest, Release: release})
	dir := t.TempDir()
	code, r, _ := runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String(), "--backup-dir", dir,
		"--group", w.group, "--to-offset", "1", "--all-topics", "--execute")
	for tp, got := range r.results() {
		if got != plan.WriteUnknown {
			t.Errorf("%s: result %q, want unknown", tp, got)
		}
	}
	if code != exitFailure || !r.Executed || r.Undo == nil || r.Backup == nil {
		t.Fatalf("exit %d executed %v undo %v backup %v; want 1, executed, an undo of the backup", code, r.Executed, r.Undo, r.Backup)
	}
	wantAudit(t, dir, "failed")
	letGo()
	landed := map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 1}
	realkafka.WaitUntil(t, 20*time.Second, "the late commit lands", func() (bool, string) {
		got := w.seed.Committed(w.group)
		return maps.Equal(got, landed), fmt.Sprint(got)
	})
	code, r, _ = runReset(t, "--bootstrap-server", w.addr, "--backup-dir", dir, "--group", w.group, "--restore", restoreFileOf(t, r), "--execute")
	if got := w.seed.Committed(w.group); code != exitOK || !maps.Equal(got, w.want) {
		t.Errorf("the undo: exit %d, commits %v; want 0, %v", code, got, w.want)
	}
}
