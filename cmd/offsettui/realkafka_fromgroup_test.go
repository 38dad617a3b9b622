package main

// `offsettui reset --from-group` against real brokers (Kafka 4.4.0 and 4.0.0), with
// Kafka's own ConsumerGroupCommand --reset-offsets --from-file, given the source's
// committed offsets (OffsetFetch), as the oracle.

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// toolOffsetsOf reads the rows of a ConsumerGroupCommand table (--describe or
// --reset-offsets --dry-run) for group: col of each partition, "-" left out.
func toolOffsetsOf(t *testing.T, out, group, col string) map[model.TP]int64 {
	t.Helper()
	res := map[model.TP]int64{}
	for _, m := range realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", col) {
		if m["GROUP"] != group || m[col] == "-" {
			continue
		}
		p, err1 := strconv.ParseInt(m["PARTITION"], 10, 32)
		n, err2 := strconv.ParseInt(m[col], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("ConsumerGroupCommand row %v: %v %v", m, err1, err2)
		}
		res[tpOf(m["TOPIC"], int32(p))] = n
	}
	return res
}

// offsetsCSV writes offsets as Kafka's --from-file CSV (topic,partition,offset).
func offsetsCSV(t *testing.T, offs map[model.TP]int64) string {
	t.Helper()
	var lines []string
	for tp, o := range offs {
		lines = append(lines, fmt.Sprintf("%s,%d,%d", tp.Topic, tp.Partition, o))
	}
	sort.Strings(lines)
	path := filepath.Join(t.TempDir(), "source.csv")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// reasons maps each row of a plan to its reason.
func reasons(p cliPlan) map[model.TP]plan.Reason {
	out := map[model.TP]plan.Reason{}
	for _, r := range p.Rows {
		out[tpOf(r.Topic, r.Partition)] = r.Reason
	}
	return out
}

// TestRealKafkaFromGroupParity: the targets of reset --from-group equal, row by row,
// the NEW-OFFSET rows of Kafka's --reset-offsets --from-file given the source's
// commits — with partitions the source lacks (not written, kept), partitions beyond
// the target's (the source has a commit where the target has none), a source below log
// start and one above high (both clamped). --execute writes exactly those (Kafka's
// --describe shows them, the kept partition unchanged), the undo puts the target back,
// and a copy into a group that does not exist creates it and says so. A source no broker
// lists is refused (exit 3) with nothing written.
func TestRealKafkaFromGroupParity(t *testing.T) {
	t.Parallel() // its own groups and topics: it waits beside the others
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		s := b.Seed(t)
		a, c := realkafka.Name("fg-a"), realkafka.Name("fg-b")
		s.CreateTopic(a, 3, nil)
		s.CreateTopic(c, 2, nil)
		t0 := time.Now().Add(-time.Hour)
		stamps := func(n int) []time.Time { return realkafka.Spaced(t0, time.Second, n) }
		s.Produce(a, 0, stamps(10)...) // [0,10)
		s.Produce(a, 1, stamps(6)...)  // [0,6)
		s.Produce(a, 2, stamps(12)...) // [6,12) after DeleteRecords
		s.Produce(c, 0, stamps(8)...)  // [0,8)
		s.Produce(c, 1, stamps(4)...)  // [0,4)
		if err := s.DeleteRecords(a, 2, 6); err != nil {
			t.Fatal(err)
		}
		source, target := realkafka.Name("fg-source"), realkafka.Name("fg-target")
		s.Commit(source, map[model.TP]int64{tpOf(a, 0): 7, tpOf(a, 2): 2, tpOf(c, 0): 20, tpOf(c, 1): 3})
		before := map[model.TP]int64{tpOf(a, 0): 1, tpOf(a, 1): 4}
		s.Commit(target, before)

		srcOffsets := s.Committed(source)
		file := offsetsCSV(t, srcOffsets)
		kafkaOut := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--reset-offsets", "--dry-run",
			"--group", target, "--from-file", file, "--timeout", "60000")
		want := toolOffsetsOf(t, kafkaOut, target, "NEW-OFFSET")
		hand := map[model.TP]int64{tpOf(a, 0): 7, tpOf(a, 2): 6, tpOf(c, 0): 8, tpOf(c, 1): 3}
		if !maps.Equal(want, hand) {
			t.Fatalf("Kafka's --from-file with the source's offsets %v plans %v, want %v\n%s", srcOffsets, want, hand, kafkaOut)
		}

		backupDir := t.TempDir()
		base := []string{"--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", target, "--from-group", source}
		code, dry := cliReset(t, base...)
		if code != exitOK || dry.Executed || !maps.Equal(dry.targets(), want) {
			t.Errorf("dry run: exit %d targets %v blockers %+v, want 0 and Kafka's %v", code, dry.targets(), dry.Blockers, want)
		}
		// The Kafka command the plan prints, its dry run, plans the same targets.
		if e := dry.KafkaEquivalent; e == nil || e.CSV == "" || e.DryRunCommand == nil {
			t.Errorf("the plan prints no Kafka command with a file: %+v", e)
		} else {
			printed := filepath.Join(t.TempDir(), plan.EquivalentFile)
			if err := os.WriteFile(printed, []byte(e.CSV), 0o600); err != nil {
				t.Fatal(err)
			}
			args := strings.Fields(strings.ReplaceAll(*e.DryRunCommand, plan.EquivalentFile, printed))[1:]
			out := b.Tool(t, realkafka.ConsumerGroupCommand, append(args, "--timeout", "60000")...)
			if got := toolOffsetsOf(t, out, target, "NEW-OFFSET"); !maps.Equal(got, want) {
				t.Errorf("the printed command %q plans %v in Kafka's tool, want %v", e.Command, got, want)
			}
		}
		code, all := cliReset(t, append(base, "--all-topics")...)
		if code != exitOK || !maps.Equal(all.targets(), want) || reasons(all)[tpOf(a, 1)] != plan.ReasonNoSourceCommit {
			t.Errorf("--all-topics: exit %d targets %v reasons %v, want Kafka's %v and %s-1 %s", code, all.targets(), reasons(all), want, a, plan.ReasonNoSourceCommit)
		}
		if entries, _ := os.ReadDir(backupDir); len(entries) != 0 {
			t.Errorf("dry runs left %v in the backup dir, want nothing", entries)
		}

		code, done := cliReset(t, append(base, "--all-topics", "--execute", "--observe", "0")...)
		if code != exitOK || done.Verified == nil || !*done.Verified || done.Undo == nil || !maps.Equal(done.targets(), want) {
			t.Fatalf("--execute: exit %d verified %v undo %v targets %v blockers %+v", code, done.Verified, done.Undo, done.targets(), done.Blockers)
		}
		after := withOverrides(before, want)
		if got := realkafka.Describe(t, b.Addr, target)[target]; !maps.Equal(got, after) {
			t.Errorf("after --execute Kafka's --describe shows %v, want %v (%s-1 kept at 4)", got, after, a)
		}
		code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", target, "--restore", *done.Backup, "--execute", "--observe", "0")
		if code != exitOK || undo.Verified == nil || !*undo.Verified {
			t.Errorf("undo: exit %d verified %v blockers %+v", code, undo.Verified, undo.Blockers)
		}
		if got := realkafka.Describe(t, b.Addr, target)[target]; !maps.Equal(got, before) {
			t.Errorf("after the undo Kafka's --describe shows %v, want %v", got, before)
		}

		fresh := realkafka.Name("fg-new")
		code, created := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", fresh, "--from-group", source, "--execute", "--observe", "0")
		if code != exitOK || !maps.Equal(created.targets(), want) {
			t.Errorf("copy into a new group: exit %d targets %v blockers %+v", code, created.targets(), created.Blockers)
		}
		if got := realkafka.Describe(t, b.Addr, fresh)[fresh]; !maps.Equal(got, want) {
			t.Errorf("the new group: Kafka's --describe shows %v, want %v", got, want)
		}

		refusedDir := t.TempDir()
		code, gone := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", target, "--from-group", realkafka.Name("fg-missing"), "--execute")
		if code != exitBlocked || gone.Executed || !blockedBy(gone.Blockers, plan.BlockSourceNotFound) {
			t.Errorf("missing source: exit %d executed %v blockers %+v, want 3 and %s", code, gone.Executed, gone.Blockers, plan.BlockSourceNotFound)
		}
		if entries, _ := os.ReadDir(refusedDir); len(entries) != 0 {
			t.Errorf("the refusal left %v in the backup dir, want nothing", entries)
		}
		if got := realkafka.Describe(t, b.Addr, target)[target]; !maps.Equal(got, before) {
			t.Errorf("after the refusal Kafka's --describe shows %v, want %v", got, before)
		}
		t.Run("share-source", func(t *testing.T) {
			if b.Role != "main" {
				t.Skipf("Kafka %s cannot make a share group with start offsets (AlterShareGroupOffsets needs 4.2)", b.Version)
			}
			share := realkafka.Name("fg-share")
			b.Seed(t).ShareStartOffsets(share, map[model.TP]int64{tpOf(a, 0): 3})
			code, p := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", target, "--from-group", share, "--execute")
			if code != exitBlocked || p.Executed || !blockedBy(p.Blockers, plan.BlockSourceType) {
				t.Errorf("share source into a consumer group: exit %d executed %v blockers %+v, want 3 and %s", code, p.Executed, p.Blockers, plan.BlockSourceType)
			}
			if entries, _ := os.ReadDir(refusedDir); len(entries) != 0 {
				t.Errorf("the refusal left %v in the backup dir, want nothing", entries)
			}
		})
	})
}
