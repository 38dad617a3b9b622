package main

// `reset --restore` of backups that are not what they claim to be, on the real
// broker (docs/resets.md "Restore"): cut short (mid-number, at a line end, to an
// empty offset), edited, grown, without or with another backup's manifest — all
// refused before anything is planned (exit 2); another group's or another
// cluster's backup blocked (exit 3) unless the override flag named in the
// blocker is given.

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaRestoreRefusesDamagedBackups: a real backup (offsets 25 and 35)
// damaged in each way a file can be is refused with exit 2 naming the file;
// nothing is written (the group keeps the offsets the reset left) and no file or
// audit line is added. The undamaged backup then restores.
func TestRealKafkaRestoreRefusesDamagedBackups(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("restore"), realkafka.Name("restore-g")
	s.CreateTopic(topic, 2, nil)
	now := time.Now()
	for p := range int32(2) {
		s.ProduceN(topic, p, 40, func(int) time.Time { return now })
	}
	before := map[model.TP]int64{tpOf(topic, 0): 25, tpOf(topic, 1): 35}
	s.Commit(group, before)
	dir := t.TempDir()
	conn := []string{"--bootstrap-server", addr, "--backup-dir", dir, "--group", group}
	code, r, _ := runReset(t, append(conn, "--to-offset", "1", "--all-topics", "--execute")...)
	if code != exitOK || r.Backup == nil {
		t.Fatalf("reset: exit %d backup %v", code, r.Backup)
	}
	backup := *r.Backup
	manifest := strings.TrimSuffix(backup, ".csv") + ".manifest.json"
	orig, err := os.ReadFile(backup)
	if want := topic + ",0,25\n" + topic + ",1,35\n"; err != nil || string(orig) != want {
		t.Fatalf("backup %q (%v), want %q", orig, err, want)
	}
	origManifest, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	// A second backup of the same group, for its manifest (to 2: a plan that changes nothing
	// is blocked, nothing-to-reset).
	code, r2, _ := runReset(t, append(conn, "--to-offset", "2", "--all-topics", "--execute")...)
	if code != exitOK || r2.Backup == nil {
		t.Fatalf("second reset: exit %d backup %v", code, r2.Backup)
	}
	otherManifest, err := os.ReadFile(strings.TrimSuffix(*r2.Backup, ".csv") + ".manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	after := map[model.TP]int64{tpOf(topic, 0): 2, tpOf(topic, 1): 2}
	files, audit := backupFiles(t, dir), auditLog(t, dir)

	line0, line1 := topic+",0,25\n", topic+",1,35\n"
	cases := []struct {
		name     string
		csv      string
		manifest []byte // nil: none
	}{
		{"cut mid-number", line0 + topic + ",1,3", origManifest},
		{"cut mid-number, newline added", line0 + topic + ",1,3\n", origManifest},
		{"cut to an empty offset", line0 + topic + ",1,", origManifest},
		{"cut at a line end", line0, origManifest},
		{"edited", topic + ",0,26\n" + line1, origManifest},
		{"a row added", line0 + line1 + topic + ",2,0\n", origManifest},
		{"no manifest", string(orig), nil},
		{"another backup's manifest", line0 + line1, otherManifest},
	}
	for _, c := range cases {
		if err := os.WriteFile(backup, []byte(c.csv), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(manifest)
		if c.manifest != nil {
			if err := os.WriteFile(manifest, c.manifest, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		var out, errb bytes.Buffer
		code := resetMain(append(conn, "--restore", backup, "--execute"), &out, &errb)
		why := "cut short or edited"
		if c.manifest == nil {
			why = "manifest"
		}
		if code != exitBadInput || !strings.Contains(errb.String(), backup) || !strings.Contains(errb.String(), why) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 naming %s and %q, no plan", c.name, code, out.String(), errb.String(), backup, why)
		}
		if got := s.Committed(group); !maps.Equal(got, after) {
			t.Errorf("%s: commits %v, want %v untouched", c.name, got, after)
		}
		if f, a := backupFiles(t, dir), auditLog(t, dir); !slices.Equal(f, filesWith(files, manifest, c.manifest != nil)) || len(a) != len(audit) {
			t.Errorf("%s: files %v audit lines %d; want %v and %d", c.name, f, len(a), files, len(audit))
		}
	}

	if err := os.WriteFile(backup, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, origManifest, 0o600); err != nil {
		t.Fatal(err)
	}
	code, r, _ = runReset(t, append(conn, "--restore", backup, "--execute")...)
	if code != exitOK || r.Verified == nil || !*r.Verified {
		t.Errorf("restore of the whole backup: exit %d verified %v", code, r.Verified)
	}
	if got := s.Committed(group); !maps.Equal(got, before) {
		t.Errorf("after the restore: commits %v, want %v", got, before)
	}
}

// filesWith is files, without manifest when it is absent.
func filesWith(files []string, manifest string, present bool) []string {
	if present {
		return files
	}
	name := manifest[strings.LastIndex(manifest, "/")+1:]
	return slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == name })
}

// TestRealKafkaRestoreRefusesForeignBackups: a backup of another group, and one
// taken on another cluster (the same topic and group names on a kfake cluster),
// are blocked (exit 3, backup-mismatch, nothing written) with the flag that
// allows them named; with that flag they restore.
func TestRealKafkaRestoreRefusesForeignBackups(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group, other := realkafka.Name("foreign"), realkafka.Name("foreign-g"), realkafka.Name("foreign-other")
	s.CreateTopic(topic, 2, nil)
	now := time.Now()
	for p := range int32(2) {
		s.ProduceN(topic, p, 40, func(int) time.Time { return now })
	}
	mine := map[model.TP]int64{tpOf(topic, 0): 25, tpOf(topic, 1): 35}
	theirs := map[model.TP]int64{tpOf(topic, 0): 30, tpOf(topic, 1): 20}
	s.Commit(group, mine)
	s.Commit(other, theirs)
	dir := t.TempDir()

	// The other cluster: kfake with the same topic and group.
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic(topic, 2, nil); err != nil {
		t.Fatal(err)
	}
	ks := kafkatest.NewSeed(t, k.ListenAddrs())
	for p := range int32(2) {
		ks.ProduceN(topic, p, 40, func(int) time.Time { return now })
	}
	elsewhere := map[model.TP]int64{tpOf(topic, 0): 11, tpOf(topic, 1): 12}
	ks.Commit(group, elsewhere)
	code, kr, _ := runReset(t, "--bootstrap-server", strings.Join(k.ListenAddrs(), ","), "--backup-dir", dir,
		"--group", group, "--to-offset", "1", "--all-topics", "--execute")
	if code != exitOK || kr.Backup == nil {
		t.Fatalf("reset on kfake: exit %d backup %v", code, kr.Backup)
	}
	// A backup of the other group, on this cluster.
	code, or, _ := runReset(t, "--bootstrap-server", addr, "--backup-dir", dir, "--group", other, "--to-offset", "1", "--all-topics", "--execute")
	if code != exitOK || or.Backup == nil {
		t.Fatalf("reset of %s: exit %d backup %v", other, code, or.Backup)
	}

	conn := []string{"--bootstrap-server", addr, "--backup-dir", dir, "--group", group}
	for _, c := range []struct {
		name, backup, flag string
		want               map[model.TP]int64
	}{
		{"another group's", *or.Backup, "--allow-other-group", theirs},
		{"another cluster's", *kr.Backup, "--allow-other-cluster", elsewhere},
	} {
		code, r, _ := runReset(t, append(conn, "--restore", c.backup, "--execute")...)
		mismatch := slices.ContainsFunc(r.Blockers, func(b plan.Blocker) bool {
			return b.Kind == plan.BlockBackupMismatch && strings.Contains(b.Message, c.flag)
		})
		if code != exitBlocked || r.Executed || !mismatch || r.Backup != nil {
			t.Errorf("%s backup: exit %d executed %v backup %v blockers %+v; want 3, backup-mismatch naming %s, nothing written",
				c.name, code, r.Executed, r.Backup, r.Blockers, c.flag)
		}
		if got := s.Committed(group); !maps.Equal(got, mine) {
			t.Errorf("%s backup refused, yet commits %v, want %v", c.name, got, mine)
		}
		code, r, _ = runReset(t, append(conn, "--restore", c.backup, c.flag, "--execute")...)
		if code != exitOK || r.Verified == nil || !*r.Verified {
			t.Errorf("%s backup with %s: exit %d verified %v blockers %+v; want 0, verified", c.name, c.flag, code, r.Verified, r.Blockers)
		}
		if got := s.Committed(group); !maps.Equal(got, c.want) {
			t.Errorf("%s backup with %s: commits %v, want %v", c.name, c.flag, got, c.want)
		}
		s.Commit(group, mine)
	}
}
