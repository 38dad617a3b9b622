package main

// `offsettui reset` of share and streams groups against a real Apache Kafka broker: a live
// group of each type refused with nothing written (no backup, no audit line, no undo),
// then, once Empty, --execute and --restore, each checked with Kafka's own
// kafka-share-groups.sh / kafka-streams-groups.sh. They skip, naming the Kafka version,
// where the broker has no such groups.

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// shareStarts returns the START-OFFSET rows of kafka-share-groups --describe (partitions
// shown with "-", without a start offset, are left out).
func shareStarts(t *testing.T, addr, group string) map[model.TP]int64 {
	t.Helper()
	out := realkafka.Tool(t, realkafka.ShareGroupCommand, "--bootstrap-server", addr, "--describe", "--group", group)
	return toolOffsets(t, realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", "START-OFFSET"), "START-OFFSET")
}

// streamsCommitted returns a streams group's committed offsets on its input topics as
// kafka-streams-groups shows them: --describe --verbose while members run tasks, else (an
// Empty group, for which describe prints no offsets) --reset-offsets --to-current --dry-run.
func streamsCommitted(t *testing.T, addr, group string) map[model.TP]int64 {
	t.Helper()
	out := realkafka.Tool(t, realkafka.StreamsGroupCommand, "--bootstrap-server", addr, "--describe", "--group", group, "--verbose")
	if rows := realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET"); len(rows) > 0 {
		return toolOffsets(t, rows, "CURRENT-OFFSET")
	}
	out = realkafka.Tool(t, realkafka.StreamsGroupCommand, "--bootstrap-server", addr, "--reset-offsets", "--group", group,
		"--all-input-topics", "--to-current", "--dry-run")
	return toolOffsets(t, realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"), "NEW-OFFSET")
}

func toolOffsets(t *testing.T, rows []map[string]string, col string) map[model.TP]int64 {
	t.Helper()
	out := map[model.TP]int64{}
	for _, r := range rows {
		if r[col] == "-" {
			continue
		}
		p, err1 := strconv.ParseInt(r["PARTITION"], 10, 32)
		o, err2 := strconv.ParseInt(r[col], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("tool row %v: %v %v", r, err1, err2)
		}
		out[tpOf(r["TOPIC"], int32(p))] = o
	}
	return out
}

// refusedLive checks that every reset of a live group exits 3 with the group-not-empty
// blocker and writes nothing: no backup, no undo, no file in the backup dir (no audit
// log either).
func refusedLive(t *testing.T, addr, group, backupDir, file string, extra ...string) {
	t.Helper()
	base := []string{"--bootstrap-server", addr, "--backup-dir", backupDir, "--group", group}
	for _, args := range [][]string{
		{"--to-earliest", "--all-topics"},
		{"--to-earliest", "--all-topics", "--execute"},
		append([]string{"--to-latest", "--execute"}, extra...),
		{"--from-file", file, "--execute"},
	} {
		code, p := cliReset(t, append(base, args...)...)
		notEmpty := false
		for _, b := range p.Blockers {
			notEmpty = notEmpty || b.Kind == plan.BlockGroupNotEmpty
		}
		if code != exitBlocked || p.Executed || p.Backup != nil || p.Undo != nil || !notEmpty {
			t.Errorf("%s %v: exit %d executed %v backup %v undo %v blockers %+v; want exit 3, group-not-empty, nothing written",
				group, args, code, p.Executed, p.Backup, p.Undo, p.Blockers)
		}
	}
	if entries, err := os.ReadDir(backupDir); err != nil || len(entries) != 0 {
		t.Errorf("%s: backup dir after the refusals holds %v (%v), want nothing (no backup, no audit.log)", group, entries, err)
	}
}

// executeAndRestore runs one reset --execute and its undo, checking each against the
// tool's view read by current: the targets are written, then the offsets before come back.
func executeAndRestore(t *testing.T, addr, group, backupDir string, args []string, want, before map[model.TP]int64,
	current func(*testing.T, string, string) map[model.TP]int64) {
	t.Helper()
	base := []string{"--bootstrap-server", addr, "--backup-dir", backupDir, "--group", group}
	code, p := cliReset(t, append(append(base, args...), "--execute")...)
	if code != exitOK || !p.Executed || p.Verified == nil || !*p.Verified || p.Backup == nil || p.Undo == nil || !maps.Equal(p.targets(), want) {
		t.Fatalf("%s %v --execute: exit %d executed %v verified %v backup %v targets %v blockers %+v; want 0, verified, %v",
			group, args, code, p.Executed, p.Verified, p.Backup, p.targets(), p.Blockers, want)
	}
	if got := current(t, addr, group); !maps.Equal(got, withOverrides(before, want)) {
		t.Errorf("%s after --execute: Kafka's tool shows %v, want %v", group, got, withOverrides(before, want))
	}
	code, r := cliReset(t, append(base, "--restore", *p.Backup, "--execute")...)
	if code != exitOK || r.Verified == nil || !*r.Verified {
		t.Errorf("%s --restore: exit %d verified %v blockers %+v", group, code, r.Verified, r.Blockers)
	}
	if got := current(t, addr, group); !maps.Equal(got, before) {
		t.Errorf("%s after --restore: Kafka's tool shows %v, want %v", group, got, before)
	}
}

// TestRealKafkaShareResetCLI: a live share group (Kafka's ConsoleShareConsumer) is refused
// with nothing written; once Empty, --execute writes the start offsets kafka-share-groups
// then shows, and --restore brings back the ones before — including a partition that had
// no start offset, whose topic's start offsets are deleted and set again.
func TestRealKafkaShareResetCLI(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, addr)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("share-cli")
	s.CreateTopic(topic, 3, nil)
	now := func(int) time.Time { return time.Now() }
	s.ProduceN(topic, 0, 10, now)
	s.ProduceN(topic, 1, 6, now)
	s.ProduceN(topic, 2, 4, now)
	group := realkafka.Name("share-cli")
	before := map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 2} // topic-2 without a start offset
	s.ShareStartOffsets(group, before)
	backupDir := t.TempDir()
	backup := t.TempDir() + "/backup.csv"
	if err := os.WriteFile(backup, []byte(fmt.Sprintf("%s,0,0\n", topic)), 0o600); err != nil {
		t.Fatal(err)
	}

	stop := realkafka.ShareConsumer(t, addr, group, topic)
	realkafka.WaitUntil(t, 90*time.Second, group+" refused for its live member", func() (bool, string) {
		code, p := cliReset(t, "--bootstrap-server", addr, "--group", group, "--to-earliest", "--all-topics")
		return code == exitBlocked && len(p.Blockers) > 0 && p.Blockers[0].Kind == plan.BlockGroupNotEmpty,
			fmt.Sprintf("exit %d blockers %+v", code, p.Blockers)
	})
	// The member moves the start offsets as it acknowledges: wait until it has acknowledged
	// every record (Kafka 4.1 gives no lag: there, until the start offsets hold still).
	if realkafka.AtLeast(4, 2) {
		s.WaitShareAcknowledged(group, tpOf(topic, 0), tpOf(topic, 1), tpOf(topic, 2))
	} else {
		realkafka.WaitStill(t, group+" start offsets", func() string { return fmt.Sprint(s.ShareStarts(group)) })
	}
	live := shareStarts(t, addr, group)
	refusedLive(t, addr, group, backupDir, backup, "--topic", topic)
	if got := shareStarts(t, addr, group); !maps.Equal(got, live) {
		t.Errorf("%s: start offsets %v after the refusals, want %v (as before them)", group, got, live)
	}
	stop()
	realkafka.WaitUntil(t, 60*time.Second, group+" Empty", func() (bool, string) {
		_, p := cliReset(t, "--bootstrap-server", addr, "--group", group, "--to-earliest", "--all-topics")
		return !slices.ContainsFunc(p.Blockers, func(b plan.Blocker) bool { return b.Kind == plan.BlockGroupNotEmpty }),
			fmt.Sprintf("blockers %+v", p.Blockers)
	})
	if !realkafka.AtLeast(4, 2) { // AlterShareGroupOffsets is advertised but writes nothing
		code, p := cliReset(t, "--bootstrap-server", addr, "--backup-dir", backupDir, "--group", group, "--to-earliest", "--all-topics", "--execute")
		if code != exitBlocked || p.Backup != nil || len(p.Blockers) != 1 || p.Blockers[0].Kind != plan.BlockWriteUnsupported {
			t.Errorf("Kafka %s: --execute: exit %d backup %v blockers %+v; want 3, write-unsupported, nothing written", realkafka.Version(), code, p.Backup, p.Blockers)
		}
		t.Skipf("Kafka %s cannot reset share-group offsets (AlterShareGroupOffsets writes nothing before 4.2): refused as checked above; execute and restore skipped", realkafka.Version())
	}
	// The live member gave topic-2 a start offset: put the starts back as they were,
	// topic-2 included.
	s.ShareStartOffsets(group, map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 2, tpOf(topic, 2): 4})
	before = shareStarts(t, addr, group)
	executeAndRestore(t, addr, group, backupDir, []string{"--to-earliest", "--topic", topic + ":0,1"},
		map[model.TP]int64{tpOf(topic, 0): 0, tpOf(topic, 1): 0}, before, shareStarts)
	executeAndRestore(t, addr, group, backupDir, []string{"--to-datetime", "2000-01-01T00:00:00.000", "--all-topics"},
		map[model.TP]int64{tpOf(topic, 0): 0, tpOf(topic, 1): 0, tpOf(topic, 2): 0}, before, shareStarts)

	// A share group without start offsets on a topic: the restore deletes the topic's.
	fresh := realkafka.Name("share-cli-fresh")
	s.ShareStartOffsets(fresh, map[model.TP]int64{tpOf(topic, 0): 1})
	executeAndRestore(t, addr, fresh, backupDir, []string{"--to-latest", "--topic", topic},
		map[model.TP]int64{tpOf(topic, 0): 10, tpOf(topic, 1): 6, tpOf(topic, 2): 4}, map[model.TP]int64{tpOf(topic, 0): 1}, shareStarts)
	if realkafka.AtLeast(4, 4) {
		executeAndRestore(t, addr, group, backupDir, []string{"--to-offset", "3", "--all-topics"},
			map[model.TP]int64{tpOf(topic, 0): 3, tpOf(topic, 1): 3, tpOf(topic, 2): 3}, before, shareStarts)
	}
	if code, p := cliReset(t, "--bootstrap-server", addr, "--group", group, "--shift-by", "-1", "--all-topics"); code != exitBlocked ||
		len(p.Blockers) != 1 || p.Blockers[0].Kind != plan.BlockStrategyUnsupported || !strings.Contains(p.Blockers[0].Message, "kafka-share-groups.sh") {
		t.Errorf("share --shift-by: exit %d blockers %+v; want 3, one strategy-unsupported naming kafka-share-groups.sh", code, p.Blockers)
	}
}

// TestRealKafkaStreamsResetCLI: a running Kafka Streams app's group is refused with
// nothing written; once the app stops (Empty), --execute writes the committed offsets
// kafka-streams-groups then shows, and --restore brings back the ones before.
func TestRealKafkaStreamsResetCLI(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedStreamsGroups(t, addr)
	s := realkafka.NewSeed(t, addr)
	in, out, app := realkafka.Name("scli-in"), realkafka.Name("scli-out"), realkafka.Name("scli-app")
	s.CreateTopic(in, 2, nil)
	s.CreateTopic(out, 2, nil)
	now := func(int) time.Time { return time.Now() }
	s.ProduceN(in, 0, 8, now)
	s.ProduceN(in, 1, 5, now)
	stop := realkafka.StreamsApp(t, addr, app, in, out)
	backupDir := t.TempDir()
	backup := t.TempDir() + "/backup.csv"
	if err := os.WriteFile(backup, []byte(fmt.Sprintf("%s,0,0\n", in)), 0o600); err != nil {
		t.Fatal(err)
	}
	want := map[model.TP]int64{tpOf(in, 0): 8, tpOf(in, 1): 5}
	realkafka.WaitUntil(t, 120*time.Second, app+" running and committed, refused", func() (bool, string) {
		code, p := cliReset(t, "--bootstrap-server", addr, "--group", app, "--to-current", "--all-topics")
		return code == exitBlocked && len(p.Blockers) > 0 && p.Blockers[0].Kind == plan.BlockGroupNotEmpty && maps.Equal(p.targets(), want),
			fmt.Sprintf("exit %d targets %v blockers %+v", code, p.targets(), p.Blockers)
	})
	refusedLive(t, addr, app, backupDir, backup, "--topic", in)
	if got := streamsCommitted(t, addr, app); !maps.Equal(got, want) {
		t.Errorf("%s: committed %v after the refusals, want %v", app, got, want)
	}
	stop()
	realkafka.WaitUntil(t, 60*time.Second, app+" Empty", func() (bool, string) {
		code, p := cliReset(t, "--bootstrap-server", addr, "--group", app, "--to-earliest", "--all-topics")
		return code == exitOK, fmt.Sprintf("exit %d blockers %+v", code, p.Blockers)
	})
	// The printed kafka-streams-groups.sh commands (their dry runs) plan the same targets in
	// Kafka's tool, in one JVM.
	w := &kcWorld{b: realkafka.Main(t), dir: t.TempDir()}
	var checks []printedCheck
	for _, args := range [][]string{{"--shift-by", "-3", "--all-topics"}, {"--to-offset", "1", "--topic", in + ":1"}} {
		code, p := cliReset(t, append([]string{"--bootstrap-server", addr, "--group", app}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d blockers %+v", args, code, p.Blockers)
		}
		checks = append(checks, w.dryRunCheck(t, "streams "+args[0], p, nil))
	}
	runChecks(t, w.b, checks)
	executeAndRestore(t, addr, app, backupDir, []string{"--shift-by", "-3", "--all-topics"},
		map[model.TP]int64{tpOf(in, 0): 5, tpOf(in, 1): 2}, want, streamsCommitted)
	executeAndRestore(t, addr, app, backupDir, []string{"--to-offset", "1", "--topic", in + ":1"},
		map[model.TP]int64{tpOf(in, 1): 1}, want, streamsCommitted)
}
