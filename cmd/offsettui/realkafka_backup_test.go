package main

// `offsettui backup` against a real broker: 1,000 groups backed up in about one
// describe's time, each backup taken by `reset --restore`, a cut or edited one refused.

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaBackupAllGroups: backup --all-groups of 1,000 groups (and whatever else the
// broker has) saves every group into one archive, in about the time describe takes to read
// them; a restore of one group from the archive puts its commits back (Kafka's --describe
// shows them); the archive cut short (at a line end, at its last member's end) or edited is
// refused by reset --restore for any group in it (exit 2), nothing written.
func TestRealKafkaBackupAllGroups(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("bk")
	s.CreateTopic(topic, 2, nil)
	s.Produce(topic, 0, time.Now(), time.Now(), time.Now())
	s.Produce(topic, 1, time.Now(), time.Now())
	prefix := realkafka.Name("bk-g")
	const n = 1000
	groups := make([]string, n)
	start := time.Now()
	for i := range groups {
		groups[i] = fmt.Sprintf("%s-%04d", prefix, i)
		s.Commit(groups[i], map[model.TP]int64{tpOf(topic, 0): int64(i % 4), tpOf(topic, 1): 1})
	}
	t.Logf("%d groups committed in %s", n, time.Since(start).Round(time.Millisecond))

	conn := []string{"--bootstrap-server", addr, "--timeout", "60s"}
	describe := func() time.Duration {
		start := time.Now()
		if code := describeMain(append(conn, "-o", "json"), io.Discard, io.Discard); code != exitOK {
			t.Fatalf("describe: exit %d", code)
		}
		return time.Since(start)
	}
	describeTook := describe()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	start = time.Now()
	code := backupMain(append(conn, "--all-groups", "--dir", dir), &out, &errb)
	backupTook := time.Since(start)
	// The broker is shared with other tests, and its load changes from second to second:
	// the backup is set beside the slower of a describe before it and one after.
	describeTook = max(describeTook, describe())
	t.Logf("describe of every group: %s; backup --all-groups: %s (%s)", describeTook.Round(time.Millisecond), backupTook.Round(time.Millisecond), strings.TrimSpace(errb.String()))
	if code != exitOK || strings.Contains(out.String(), "NOT SAVED") {
		t.Fatalf("backup --all-groups: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if backupTook > 2*describeTook+time.Second {
		t.Errorf("backup took %s, describe %s: want about one describe's time", backupTook, describeTook)
	}
	paths := map[string]string{}
	line := regexp.MustCompile(`(?m)^saved\s+(\S+): \d+ positions in (\S+)$`)
	for _, m := range line.FindAllStringSubmatch(out.String(), -1) {
		paths[m[1]] = m[2]
	}
	for _, g := range groups {
		if paths[g] == "" {
			t.Fatalf("no backup line for %s:\n%s", g, out.String())
		}
	}

	g := groups[7]
	before := realkafka.Describe(t, addr, g)[g]
	s.Commit(g, map[model.TP]int64{tpOf(topic, 0): 0, tpOf(topic, 1): 0})
	if code, r := cliReset(t, "--bootstrap-server", addr, "--backup-dir", t.TempDir(), "--group", g, "--restore", paths[g], "--execute", "--observe", "0"); code != exitOK || r.Verified == nil || !*r.Verified {
		t.Fatalf("restore of %s: exit %d blockers %+v", paths[g], code, r.Blockers)
	}
	if got := realkafka.Describe(t, addr, g)[g]; !maps.Equal(got, before) {
		t.Errorf("after the restore Kafka shows %v, want the backup's %v", got, before)
	}

	// The groups' backups are in one archive: a cut or an edit anywhere in it refuses the
	// restore of any group from it, the damaged group's or another's.
	archive := paths[groups[7]]
	orig, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 || files[0] != archive {
		t.Errorf("the backup wrote %v, want the one archive %s", files, archive)
	}
	edited := bytes.Replace(orig, []byte(",1\n"), []byte(",2\n"), 1)
	if bytes.Equal(edited, orig) {
		t.Fatal("no row to edit in the archive")
	}
	for i, b := range [][]byte{
		orig[:bytes.IndexByte(orig, '\n')+1], // cut at a line end
		orig[:len(orig)-1024],                // cut at the end of its last member
		edited,
	} {
		g := groups[100+i]
		p := filepath.Join(t.TempDir(), filepath.Base(archive))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		undoDir := t.TempDir()
		var o, e bytes.Buffer
		if code := resetMain([]string{"--bootstrap-server", addr, "--backup-dir", undoDir, "--group", g, "--restore", p, "--execute"}, &o, &e); code != exitBadInput {
			t.Errorf("restore of the damaged %s: exit %d, want 2\n%s%s", filepath.Base(p), code, o.String(), e.String())
		}
		if entries, _ := os.ReadDir(undoDir); len(entries) != 0 {
			t.Errorf("the refused restore left %v", entries)
		}
	}
}
