package main

// What a plan costs, on the real main broker (Kafka 4.4.0): every operation and the restore
// of its backup count the same records mirror-imaged, under each auto.offset.reset
// (docs/resets.md, "What a plan costs").

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// planTotals runs a write command with -o json and returns its exit code, totals and backup.
func planTotals(t *testing.T, main func([]string, io.Writer, io.Writer) int, args ...string) (int, plan.Totals, *string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := main(append(args, "-o", "json"), &out, &errb)
	var p struct {
		Totals plan.Totals `json:"totals"`
		Backup *string     `json:"backup"`
	}
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatalf("%s: exit %d, no JSON: %v\n%s%s", strings.Join(args, " "), code, err, out.String(), errb.String())
	}
	return code, p.Totals, p.Backup
}

// TestRealKafkaUndoMirrorsThePlan: a group with commits on t-0 (30) and t-1 (60), none on
// t-2, 100 records each. For each operation — delete-offsets, delete-group, a reset to
// earliest of the whole topic, a copy from another group — executed under --assume-reset
// latest and earliest, the restore of its backup (a dry run on the state it left) re-delivers
// what it skipped and skips what it re-delivered; the two assumptions count differently
// wherever a partition has no commit (the reset's t-2, every partition after a delete).
func TestRealKafkaUndoMirrorsThePlan(t *testing.T) {
	b := realkafka.Main(t)
	s := b.Seed(t)
	topic := realkafka.Name("mirror")
	s.CreateTopic(topic, 3, nil)
	for p := range int32(3) {
		s.ProduceN(topic, p, 100, func(int) time.Time { return time.Now() })
	}
	source := realkafka.Name("mirror-src")
	s.Commit(source, map[model.TP]int64{tpOf(topic, 0): 80, tpOf(topic, 1): 10, tpOf(topic, 2): 50})
	ops := []struct {
		name string
		main func([]string, io.Writer, io.Writer) int
		args func(g string) []string
	}{
		{"delete-offsets", deleteOffsetsMain, func(g string) []string { return []string{"--group", g, "--topic", topic} }},
		{"delete-group", deleteGroupMain, func(g string) []string { return []string{"--group", g} }},
		{"reset --to-earliest", resetMain, func(g string) []string { return []string{"--group", g, "--topic", topic, "--to-earliest"} }},
		{"reset --from-group", resetMain, func(g string) []string { return []string{"--group", g, "--from-group", source} }},
	}
	for _, op := range ops {
		counted := map[string]plan.Totals{}
		for _, assume := range []string{model.ResetLatest, model.ResetEarliest} {
			g := realkafka.Name("mirror-g")
			s.Commit(g, map[model.TP]int64{tpOf(topic, 0): 30, tpOf(topic, 1): 60})
			conn := []string{"--bootstrap-server", b.Addr, "--backup-dir", t.TempDir(), "--observe", "0", "--assume-reset", assume}
			code, did, backup := planTotals(t, op.main, append(append(conn, op.args(g)...), "--execute")...)
			if code != exitOK || backup == nil {
				t.Fatalf("%s under %s: exit %d, backup %v", op.name, assume, code, backup)
			}
			_, undo, _ := planTotals(t, resetMain, append(conn, "--group", g, "--restore", *backup)...)
			if undo.Duplicates != did.Skipped || undo.Skipped != did.Duplicates {
				t.Errorf("%s under %s: re-delivers %d, skips %d; its undo re-delivers %d, skips %d",
					op.name, assume, did.Duplicates, did.Skipped, undo.Duplicates, undo.Skipped)
			}
			counted[assume] = did
			t.Logf("%s under %s: re-delivers %d, skips %d; undo re-delivers %d, skips %d", op.name, assume,
				did.Duplicates, did.Skipped, undo.Duplicates, undo.Skipped)
		}
		if counted[model.ResetLatest] == counted[model.ResetEarliest] {
			t.Errorf("%s: latest and earliest count the same, %+v, though partitions are without a commit", op.name, counted[model.ResetLatest])
		}
	}
}
