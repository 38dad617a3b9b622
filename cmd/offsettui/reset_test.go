package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// startDemo runs the demo cluster for one test.
func startDemo(t *testing.T) string {
	t.Helper()
	d, err := demo.Start(t.Context(), demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return strings.Join(d.Bootstrap(), ",")
}

// TestRestoreRefusesCutEditedAndForeignBackups: a backup cut mid-number (or at a
// line end) is refused before anything is planned (exit 2), and a whole backup
// of another group is blocked (exit 3) unless --allow-other-group says so; backup's
// archive gives each group in it its own restore, and refuses one not in it, or all
// when cut.
func TestRestoreRefusesCutEditedAndForeignBackups(t *testing.T) {
	addr, dir := startDemo(t), t.TempDir()
	base := []string{"--bootstrap-server", addr, "--backup-dir", dir}
	code, p := cliReset(t, append(base, "--group", "audit-export", "--to-latest", "--topic", "orders:2,3", "--execute")...)
	if code != exitOK || p.Backup == nil {
		t.Fatalf("reset: exit %d %+v", code, p)
	}
	orig, err := os.ReadFile(*p.Backup)
	if err != nil || string(orig) != "orders,2,100\norders,3,70\n" {
		t.Fatalf("backup %q (%v)", orig, err)
	}
	for _, cut := range []string{"orders,2,100\norders,3,7", "orders,2,100\n"} {
		if err := os.WriteFile(*p.Backup, []byte(cut), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := resetMain(append(base, "--group", "audit-export", "--restore", *p.Backup, "--execute"), &out, &errb)
		if code != exitBadInput || !strings.Contains(errb.String(), "cut short or edited") {
			t.Errorf("restore of %q: exit %d, stderr %q; want 2 naming the damage", cut, code, errb.String())
		}
	}
	if err := os.WriteFile(*p.Backup, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	code, r := cliReset(t, append(base, "--group", "replay", "--restore", *p.Backup, "--execute")...)
	if code != exitBlocked || r.Executed || len(r.Blockers) == 0 || r.Blockers[0].Kind != plan.BlockBackupMismatch ||
		!strings.Contains(r.Blockers[0].Message, "--allow-other-group") {
		t.Errorf("restore onto replay: exit %d executed %v blockers %+v; want exit 3 naming --allow-other-group", code, r.Executed, r.Blockers)
	}
	if code, r := cliReset(t, append(base, "--group", "audit-export", "--restore", *p.Backup, "--execute")...); code != exitOK || !r.Executed {
		t.Errorf("restore of the whole backup: exit %d %+v", code, r.Blockers)
	}

	// backup's archive (a group named twice is saved once): each group restored from it;
	// one not in it, or the archive cut, exit 2.
	var out, errb bytes.Buffer
	if code := backupMain([]string{"--bootstrap-server", addr, "--group", "audit-export", "--group", "replay", "--group", "replay", "--dir", dir}, &out, &errb); code != exitOK {
		t.Fatalf("backup: exit %d\n%s%s", code, out.String(), errb.String())
	}
	archives, _ := filepath.Glob(filepath.Join(dir, "offsettui-backup-*.tar"))
	if len(archives) != 1 || strings.Count(out.String(), "saved      replay: ") != 1 || !strings.Contains(errb.String(), "--restore "+archives[0]) {
		t.Fatalf("archives %v; output\n%s%s", archives, out.String(), errb.String())
	}
	for _, g := range []string{"audit-export", "replay"} {
		// Moved first: a restore onto the positions it holds changes nothing (nothing-to-reset).
		if code, r := cliReset(t, append(base, "--group", g, "--all-topics", "--to-earliest", "--execute")...); code != exitOK {
			t.Fatalf("moving %s: exit %d %+v", g, code, r.Blockers)
		}
		if code, r := cliReset(t, append(base, "--group", g, "--restore", archives[0], "--execute")...); code != exitOK ||
			!r.Executed || r.Verified == nil || !*r.Verified {
			t.Errorf("restore of %s from the archive just taken: exit %d, executed %v, blockers %+v; want 0, written and read back", g, code, r.Executed, r.Blockers)
		}
	}
	raw, err := os.ReadFile(archives[0])
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), filepath.Base(archives[0]))
	if err := os.WriteFile(cut, raw[:len(raw)-600], 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ group, archive, want string }{
		{"fanout", archives[0], "holds no backup of group fanout"},
		{"replay", cut, "cut short or edited"},
	} {
		errb.Reset()
		if code := resetMain(append(base, "--group", c.group, "--restore", c.archive, "--execute"), &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("restore of %s from %s: exit %d, stderr %q; want 2 saying %q", c.group, c.archive, code, errb.String(), c.want)
		}
	}
}

// TestRestoreOfAGroupWithoutCommits: backup saves a group that has no commit (new-svc on the
// demo cluster) and says so; restoring it is a plan with nothing to restore, exit 3, never
// a "broken file" error and never a write.
func TestRestoreOfAGroupWithoutCommits(t *testing.T) {
	addr, dir := startDemo(t), t.TempDir()
	var out, errb bytes.Buffer
	if code := backupMain([]string{"--bootstrap-server", addr, "--group", "new-svc", "--dir", dir}, &out, &errb); code != exitOK ||
		!strings.Contains(out.String(), "saved      new-svc: no commits") {
		t.Fatalf("backup: exit %d\n%s%s", code, out.String(), errb.String())
	}
	archives, _ := filepath.Glob(filepath.Join(dir, "offsettui-backup-*.tar"))
	if len(archives) != 1 {
		t.Fatalf("archives %v", archives)
	}
	code, r := cliReset(t, "--bootstrap-server", addr, "--backup-dir", dir, "--group", "new-svc", "--restore", archives[0], "--execute")
	nothing := slices.ContainsFunc(r.Blockers, func(b plan.Blocker) bool {
		return b.Kind == plan.BlockNothingToReset && strings.Contains(b.Message, "had no commits when it was saved")
	})
	if code != exitBlocked || r.Executed || !nothing {
		t.Errorf("restore: exit %d, executed %v, blockers %+v; want 3 with nothing-to-reset saying the group had no commits", code, r.Executed, r.Blockers)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("the backup directory holds %d files after a refused restore; want the archive alone", len(files))
	}
}
