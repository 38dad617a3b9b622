package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
)

// TestPlanOutAndApplyOnTheDemo: --plan-out with --execute, or over an existing file, is bad
// input and writes nothing; a blocked plan writes no file (exit 3); a read-only planner writes
// one without the read-only blocker, which apply shows (exit 0), refuses under the applier's own
// read-only (exit 3), and applies with --execute; applied again, its commits moved: refused.
func TestPlanOutAndApplyOnTheDemo(t *testing.T) {
	addr, dir := startDemo(t), t.TempDir()
	conn := []string{"--bootstrap-server", addr}
	run := func(main func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := main(args, &out, &errb)
		return code, out.String() + errb.String()
	}
	resetCmd := func(args []string, out, errb *bytes.Buffer) int { return resetMain(args, out, errb) }
	deleteGroupCmd := func(args []string, out, errb *bytes.Buffer) int { return deleteGroupMain(args, out, errb) }
	applyCmd := func(args []string, out, errb *bytes.Buffer) int { return applyMain(args, out, errb) }

	existing := filepath.Join(dir, "existing.json")
	if err := os.WriteFile(existing, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--group", "audit-export", "--to-latest", "--topic", "orders", "--execute", "--plan-out", filepath.Join(dir, "x.json")}, "does not go with --execute"},
		{[]string{"--group", "audit-export", "--to-latest", "--topic", "orders", "--plan-out", existing}, "the file exists"},
	} {
		if code, out := run(resetCmd, append(conn, tc.args...)...); code != exitBadInput || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d\n%s\nwant exit 2 saying %q", tc.args, code, out, tc.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "mine" {
		t.Errorf("the existing file was written: %q", b)
	}
	blocked := filepath.Join(dir, "blocked.json")
	if code, out := run(deleteGroupCmd, append(conn, "--group", "billing", "--plan-out", blocked)...); code != exitBlocked || !strings.Contains(out, "no plan file written") {
		t.Errorf("a live group's delete-group: exit %d\n%s\nwant exit 3, no plan file", code, out)
	}
	if _, err := os.Stat(blocked); !os.IsNotExist(err) {
		t.Errorf("a blocked plan left a file: %v", err)
	}

	path := filepath.Join(dir, "plan.json")
	if code, out := run(resetCmd, append(conn, "--read-only", "--group", "audit-export", "--to-latest", "--topic", "orders:2,3", "--plan-out", path)...); code != exitOK || !strings.Contains(out, "PLAN FILE: "+path) {
		t.Fatalf("read-only --plan-out: exit %d\n%s", code, out)
	}
	p, err := reset.LoadPlanFile(path)
	if err != nil || len(p.Blockers) != 0 || p.Reviewed.ClusterID != "offsettui-demo" || p.Reviewed.PlannedWith != "offsettui reset" {
		t.Fatalf("plan file: %v, blockers %+v, reviewed %+v", err, p.Blockers, p.Reviewed)
	}
	if code, out := run(applyCmd, append(conn, path)...); code != exitOK || !strings.Contains(out, "as planned") || !strings.Contains(out, "DRY RUN") {
		t.Errorf("apply: exit %d\n%s", code, out)
	}
	if code, out := run(applyCmd, append(conn, path, "--read-only", "--execute")...); code != exitBlocked || !strings.Contains(out, "["+string(plan.BlockReadOnly)+"]") {
		t.Errorf("apply --read-only: exit %d\n%s\nwant exit 3, read-only", code, out)
	}
	backups := t.TempDir()
	// --execute's confirmation is the group's name, typed or on stdin: another name, or
	// none, writes nothing (applied after them, the plan meets no drift).
	for _, typed := range []string{"", "audit-expor\n", "billing\n"} {
		if code, out := run(func(args []string, o, e *bytes.Buffer) int { return applyTyping(typed, args, o, e) },
			append(conn, path, "--execute", "--backup-dir", backups)...); code != exitBlocked || !strings.Contains(out, "not applied") || !strings.Contains(out, "nothing was written") {
			t.Errorf("apply --execute typing %q: exit %d\n%s\nwant exit 3, not applied", typed, code, out)
		}
	}
	if files, _ := os.ReadDir(backups); len(files) != 0 {
		t.Errorf("an unconfirmed apply left %d files in the backup dir", len(files))
	}
	if code, out := run(applyCmd, append(conn, path, "--execute", "--backup-dir", backups)...); code != exitOK || !strings.Contains(out, "offsettui apply: applied") {
		t.Errorf("apply --execute: exit %d\n%s", code, out)
	}
	if code, out := run(applyCmd, append(conn, path, "--execute", "--backup-dir", backups)...); code != exitBlocked || !strings.Contains(out, "DRIFT") {
		t.Errorf("applied again: exit %d\n%s\nwant exit 3, drift", code, out)
	}
}
