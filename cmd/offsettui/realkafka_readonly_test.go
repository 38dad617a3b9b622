package main

// OFFSETTUI_READ_ONLY as resetMain reads it, against the real broker through the
// fault proxy, which counts what reaches the broker: every value but empty, 0,
// false, no and off (any case) is read-only (docs/cli.md), and then not one
// OffsetCommit leaves offsettui.

import (
	"maps"
	"os"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaReadOnlySpellings: reset --execute writes only for the documented
// off-values; any other spelling (yes, on, " 1", TRUE, "off " with a space, a
// typo) refuses with a read-only blocker (exit 3), sends no commit, leaves no
// file and no audit line, and the group keeps its commits. --read-only=false
// cannot undo the variable, and --read-only needs none.
func TestRealKafkaReadOnlySpellings(t *testing.T) {
	w := newTrustWorld(t, "ro")
	p, id := proxied(t, w.addr)
	cases := []struct {
		env      string
		set      bool // set the variable (to env)
		flags    []string
		readOnly bool
	}{
		{env: "yes", set: true, readOnly: true},
		{env: "on", set: true, readOnly: true},
		{env: " 1", set: true, readOnly: true},
		{env: "1", set: true, readOnly: true},
		{env: "TRUE", set: true, readOnly: true},
		{env: "off ", set: true, readOnly: true},
		{env: "flase", set: true, readOnly: true},
		{env: "yes", set: true, flags: []string{"--read-only=false"}, readOnly: true},
		{env: "0", set: true, flags: []string{"--read-only"}, readOnly: true},
		{env: "", set: true},
		{env: "0", set: true},
		{env: "false", set: true},
		{env: "FALSE", set: true},
		{env: "no", set: true},
		{env: "off", set: true},
		{env: "Off", set: true},
		{},
	}
	for _, c := range cases {
		if c.set {
			t.Setenv("OFFSETTUI_READ_ONLY", c.env)
		} else {
			t.Setenv("OFFSETTUI_READ_ONLY", "")
			unsetenv(t, "OFFSETTUI_READ_ONLY")
		}
		name := "OFFSETTUI_READ_ONLY=" + quoteIf(c.set, c.env)
		group := realkafka.Name("ro-g")
		w.seed.Commit(group, w.want)
		dir := t.TempDir()
		p.ResetCounts()
		args := append([]string{"--bootstrap-server", p.Addrs()[0], "--backup-dir", dir, "--group", group,
			"--to-offset", "1", "--all-topics", "--execute"}, c.flags...)
		code, r, _ := runReset(t, args...)
		commits := p.Requests(id, kmsg.OffsetCommit)
		got := w.seed.Committed(group)
		if c.readOnly {
			readOnlyBlocked := len(r.Blockers) > 0 && r.Blockers[0].Kind == plan.BlockReadOnly
			if code != exitBlocked || r.Executed || !readOnlyBlocked || commits != 0 || !maps.Equal(got, w.want) ||
				len(backupFiles(t, dir)) != 0 || len(auditLog(t, dir)) != 0 {
				t.Errorf("%s %v: exit %d executed %v blockers %+v, %d commits sent, commits %v, files %v; want read-only: 3, nothing sent or written",
					name, c.flags, code, r.Executed, r.Blockers, commits, got, backupFiles(t, dir))
			}
			continue
		}
		want := map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 1}
		if code != exitOK || !r.Executed || commits != 1 || !maps.Equal(got, want) {
			t.Errorf("%s: exit %d executed %v blockers %+v, %d commits sent, commits %v; want written: 0, 1 commit, %v",
				name, code, r.Executed, r.Blockers, commits, got, want)
		}
	}
}

func quoteIf(set bool, v string) string {
	if !set {
		return "(unset)"
	}
	return "\"" + v + "\""
}

// unsetenv removes k for the rest of the test; a t.Setenv before it restores
// the value the process had when the test ends.
func unsetenv(t *testing.T, k string) {
	t.Helper()
	if err := os.Unsetenv(k); err != nil {
		t.Fatal(err)
	}
}
