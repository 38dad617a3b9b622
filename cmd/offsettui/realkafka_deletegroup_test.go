package main

// `offsettui delete-group` against real brokers (Kafka 4.4.0 and 4.0.0), with Kafka's own
// ConsumerGroupCommand --list and --describe as the oracle.

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

func cliDeleteGroup(t *testing.T, args ...string) (int, deletePlan) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := deleteGroupMain(append(args, "-o", "json", "--observe", "0"), &stdout, &stderr)
	var p deletePlan
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
		t.Fatalf("offsettui delete-group %s: exit %d, not JSON: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String())
	}
	return code, p
}

// listed reports whether Kafka's --list shows group.
func listed(t *testing.T, b realkafka.Broker, group string) bool {
	t.Helper()
	out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--list", "--timeout", "60000")
	return slices.Contains(strings.Fields(out), group)
}

// TestRealKafkaDeleteGroup: a dry run changes nothing; --execute deletes an Empty group
// (Kafka's --list no longer shows it) after a backup of every commit, and the undo restores
// the commits into the same name (Kafka's --describe shows them); a live group is refused,
// exit 3, nothing written (no backup, no audit line, the group as it was).
func TestRealKafkaDeleteGroup(t *testing.T) {
	t.Parallel() // its own groups and topics: it waits beside the others
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		s := b.Seed(t)
		topic := realkafka.Name("dg")
		s.CreateTopic(topic, 2, nil)
		now := time.Now()
		s.Produce(topic, 0, now, now, now)
		s.Produce(topic, 1, now, now)
		g := realkafka.Name("dg-empty")
		before := map[model.TP]int64{tpOf(topic, 0): 2, tpOf(topic, 1): 1}
		s.Commit(g, before)
		dir := t.TempDir()
		base := []string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", g}
		code, dry := cliDeleteGroup(t, base...)
		if code != exitOK || len(dry.Rows) != 2 || dry.KafkaEquivalent == nil || !strings.Contains(dry.KafkaEquivalent.Command, "--delete --group "+g) {
			t.Fatalf("dry run: exit %d rows %+v blockers %+v equivalent %+v", code, dry.Rows, dry.Blockers, dry.KafkaEquivalent)
		}
		if !listed(t, b, g) || len(backupFiles(t, dir)) != 0 {
			t.Fatalf("the dry run changed something: listed %v, files %v", listed(t, b, g), backupFiles(t, dir))
		}
		code, done := cliDeleteGroup(t, append(base, "--execute")...)
		if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil || done.Undo == nil {
			t.Fatalf("--execute: exit %d verified %v backup %v blockers %+v", code, done.Verified, done.Backup, done.Blockers)
		}
		if listed(t, b, g) {
			t.Errorf("Kafka's --list still shows %s after delete-group --execute", g)
		}
		wantAudit(t, dir, "applied")
		code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", t.TempDir(), "--group", g, "--restore", *done.Backup, "--execute", "--observe", "0")
		if code != exitOK || undo.Verified == nil || !*undo.Verified {
			t.Errorf("undo: exit %d blockers %+v", code, undo.Blockers)
		}
		if got := realkafka.Describe(t, b.Addr, g)[g]; !maps.Equal(got, before) {
			t.Errorf("after the undo Kafka shows %v, want %v", got, before)
		}

		live := realkafka.Name("dg-live")
		b.Member(t, realkafka.ConsumeSpec{Group: live, Topic: topic})
		liveBefore := realkafka.Describe(t, b.Addr, live)[live]
		refusedDir := t.TempDir()
		code, refused := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", live, "--execute")
		if code != exitBlocked || refused.Executed || !blockedBy(refused.Blockers, plan.BlockGroupNotEmpty) {
			t.Errorf("live group: exit %d executed %v blockers %+v, want 3 and group-not-empty", code, refused.Executed, refused.Blockers)
		}
		if files := backupFiles(t, refusedDir); len(files) != 0 || len(auditLog(t, refusedDir)) != 0 {
			t.Errorf("the refusal left %v and audit %v", files, auditLog(t, refusedDir))
		}
		if got := realkafka.Describe(t, b.Addr, live)[live]; !listed(t, b, live) || !maps.Equal(got, liveBefore) {
			t.Errorf("after the refusal Kafka shows %v (listed %v), want %v", got, listed(t, b, live), liveBefore)
		}
	})
}
