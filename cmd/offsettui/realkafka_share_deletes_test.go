package main

// `offsettui delete-offsets` and `delete-group` of share groups against real brokers, with
// Kafka's own kafka-share-groups.sh (ShareGroupCommand) run on a twin group (the same start
// offsets, the same members) as the oracle, and the start offsets read back independently
// with franz-go (DescribeShareGroupOffsets). Kafka 4.0 has no share groups and 4.1 cannot
// write their start offsets: there the tests skip, naming the version.

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// shareWorld is topic a (3 partitions) and topic c (2), five records in each partition, and
// the start offsets every group of the test begins with.
type shareWorld struct {
	b      realkafka.Broker
	s      *realkafka.Seed
	a, c   string
	before map[model.TP]int64
}

func newShareWorld(t *testing.T, b realkafka.Broker, prefix string) shareWorld {
	t.Helper()
	w := shareWorld{b: b, s: b.Seed(t), a: realkafka.Name(prefix + "-a"), c: realkafka.Name(prefix + "-c")}
	w.s.CreateTopic(w.a, 3, nil)
	w.s.CreateTopic(w.c, 2, nil)
	now := func(int) time.Time { return time.Now() }
	for p := int32(0); p < 3; p++ {
		w.s.ProduceN(w.a, p, 5, now)
		if p < 2 {
			w.s.ProduceN(w.c, p, 5, now)
		}
	}
	w.before = map[model.TP]int64{tpOf(w.a, 0): 1, tpOf(w.a, 1): 2, tpOf(w.a, 2): 3, tpOf(w.c, 0): 4, tpOf(w.c, 1): 0}
	return w
}

// groups makes Empty share groups with the world's start offsets.
func (w shareWorld) groups(names ...string) {
	for _, g := range names {
		w.s.ShareStartOffsets(g, w.before)
	}
}

// tool runs kafka-share-groups.sh and returns its output (it exits 0 when the broker refused).
func (w shareWorld) tool(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := w.b.RunTool(t, realkafka.ShareGroupCommand, append([]string{"--bootstrap-server", w.b.Addr}, args...)...)
	t.Logf("kafka-share-groups.sh %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	return out
}

// listed reports whether kafka-share-groups.sh --list shows group.
func (w shareWorld) listed(t *testing.T, group string) bool {
	t.Helper()
	return slices.Contains(strings.Fields(w.b.Tool(t, realkafka.ShareGroupCommand, "--bootstrap-server", w.b.Addr, "--list")), group)
}

// emptyDir fails unless dir holds nothing: no backup, no manifest, no audit log.
func emptyDir(t *testing.T, what, dir string) {
	t.Helper()
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("%s: the backup dir holds %v (%v), want nothing (no backup, manifest or audit line)", what, entries, err)
	}
}

// TestRealKafkaShareDeleteOffsets: delete-offsets of an Empty share group removes the start
// offsets of whole topics exactly as kafka-share-groups.sh --delete-offsets removes the
// twin's (read back with franz-go), a dry run writes nothing anywhere, some partitions of a
// topic are refused (Kafka deletes only whole topics), and the undo puts every start offset
// back. A live share group is refused with nothing written, as the broker refuses Kafka's
// tool (NON_EMPTY_GROUP), and so is deleting it.
func TestRealKafkaShareDeleteOffsets(t *testing.T) {
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		b.NeedShareWrites(t)
		w := newShareWorld(t, b, "sdo")
		g, twin := realkafka.Name("sdo-g"), realkafka.Name("sdo-twin")
		w.groups(g, twin)
		dir := t.TempDir()
		base := []string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", g}

		code, part := cliDeleteOffsets(t, append(base, "--topic", w.a+":0,2", "--execute")...)
		if code != exitBlocked || part.Executed || !blockedBy(part.Blockers, plan.BlockStrategyUnsupported) {
			t.Errorf("--topic %s:0,2: exit %d executed %v blockers %+v; want 3, strategy-unsupported (whole topics only)", w.a, code, part.Executed, part.Blockers)
		}
		code, dry := cliDeleteOffsets(t, append(base, "--topic", w.a)...)
		wantCmd := fmt.Sprintf("kafka-share-groups.sh --bootstrap-server %s --delete-offsets --group %s --topic %s", b.Addr, g, w.a)
		if code != exitOK || len(dry.Rows) != 3 || dry.KafkaEquivalent == nil || dry.KafkaEquivalent.Command != wantCmd {
			t.Fatalf("dry run: exit %d rows %+v blockers %+v equivalent %+v; want 0, 3 rows, %q", code, dry.Rows, dry.Blockers, dry.KafkaEquivalent, wantCmd)
		}
		emptyDir(t, "after the dry run and the refusal", dir)
		if got := w.s.ShareStarts(g); !maps.Equal(got, w.before) {
			t.Errorf("after the dry run: start offsets %v, want %v", got, w.before)
		}

		code, done := cliDeleteOffsets(t, append(base, "--topic", w.a, "--execute")...)
		if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil || done.Undo == nil {
			t.Fatalf("--execute: exit %d verified %v backup %v blockers %+v rejected %+v", code, done.Verified, done.Backup, done.Blockers, done.Rejected)
		}
		wantAudit(t, dir, "applied")
		w.tool(t, "--delete-offsets", "--group", twin, "--topic", w.a)
		left := map[model.TP]int64{tpOf(w.c, 0): 4, tpOf(w.c, 1): 0}
		if ours, theirs := w.s.ShareStarts(g), w.s.ShareStarts(twin); !maps.Equal(ours, theirs) || !maps.Equal(ours, left) {
			t.Errorf("after the delete: offsettui left %v, Kafka's tool left %v on the twin; want %v on both", ours, theirs, left)
		}
		code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", t.TempDir(), "--group", g, "--restore", *done.Backup, "--execute", "--observe", "0")
		if code != exitOK || undo.Verified == nil || !*undo.Verified {
			t.Errorf("undo: exit %d verified %v blockers %+v", code, undo.Verified, undo.Blockers)
		}
		if got := w.s.ShareStarts(g); !maps.Equal(got, w.before) {
			t.Errorf("after the undo: start offsets %v, want %v", got, w.before)
		}

		t.Run("live", func(t *testing.T) {
			live, liveTwin := realkafka.Name("sdo-live"), realkafka.Name("sdo-live-twin")
			w.groups(live, liveTwin)
			for _, grp := range []string{live, liveTwin} {
				realkafka.ShareConsumer(t, b.Addr, grp, w.a)
			}
			realkafka.WaitUntil(t, 90*time.Second, live+" live", func() (bool, string) {
				code, p := cliDeleteOffsets(t, "--bootstrap-server", b.Addr, "--group", live, "--topic", w.c)
				return code == exitBlocked && blockedBy(p.Blockers, plan.BlockGroupNotEmpty), fmt.Sprintf("exit %d blockers %+v", code, p.Blockers)
			})
			// The members move a's start offsets as they acknowledge: wait until they have
			// acknowledged every record of a.
			for _, grp := range []string{live, liveTwin} {
				w.s.WaitShareAcknowledged(grp, tpOf(w.a, 0), tpOf(w.a, 1), tpOf(w.a, 2))
			}
			ours, theirs := w.s.ShareStarts(live), w.s.ShareStarts(liveTwin)
			refusedDir := t.TempDir()
			code, refused := cliDeleteOffsets(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", live, "--topic", w.c, "--execute")
			if code != exitBlocked || refused.Executed || !blockedBy(refused.Blockers, plan.BlockGroupNotEmpty) {
				t.Errorf("delete-offsets of a live share group: exit %d executed %v blockers %+v; want 3, group-not-empty", code, refused.Executed, refused.Blockers)
			}
			code, refusedGroup := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", live, "--execute")
			if code != exitBlocked || refusedGroup.Executed || !blockedBy(refusedGroup.Blockers, plan.BlockGroupNotEmpty) {
				t.Errorf("delete-group of a live share group: exit %d executed %v blockers %+v; want 3, group-not-empty", code, refusedGroup.Executed, refusedGroup.Blockers)
			}
			emptyDir(t, "after the refusals", refusedDir)
			kafkaOffsets := w.tool(t, "--delete-offsets", "--group", liveTwin, "--topic", w.c)
			kafkaGroup := w.tool(t, "--delete", "--group", liveTwin)
			if !strings.Contains(strings.ToLower(kafkaOffsets), "not empty") || !strings.Contains(strings.ToLower(kafkaGroup), "not empty") {
				t.Errorf("Kafka's tool on the live twin: --delete-offsets said %q, --delete %q; want both refused as not empty", kafkaOffsets, kafkaGroup)
			}
			if got, gotTwin := w.s.ShareStarts(live), w.s.ShareStarts(liveTwin); !maps.Equal(got, ours) || !maps.Equal(gotTwin, theirs) {
				t.Errorf("after the refusals: %v and the twin %v, want %v and %v as before", got, gotTwin, ours, theirs)
			}
			if !w.listed(t, live) || !w.listed(t, liveTwin) {
				t.Errorf("after the refusals kafka-share-groups.sh --list lacks %s or %s", live, liveTwin)
			}
		})
	})
}

// TestRealKafkaShareDeleteGroup: delete-group of an Empty share group is a plan until
// --execute (nothing written by the dry run); then the group is gone from
// kafka-share-groups.sh --list, as the twin Kafka's --delete removed, with no start offset
// left; the undo (a share restore into the gone name) makes the share group again with every
// start offset, read back with franz-go and shown by Kafka's --describe.
func TestRealKafkaShareDeleteGroup(t *testing.T) {
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		b.NeedShareWrites(t)
		w := newShareWorld(t, b, "sdg")
		g, twin := realkafka.Name("sdg-g"), realkafka.Name("sdg-twin")
		w.groups(g, twin)
		dir := t.TempDir()
		base := []string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", g}
		code, dry := cliDeleteGroup(t, base...)
		if code != exitOK || len(dry.Rows) != len(w.before) || dry.KafkaEquivalent == nil ||
			dry.KafkaEquivalent.Command != "kafka-share-groups.sh --bootstrap-server "+b.Addr+" --delete --group "+g {
			t.Fatalf("dry run: exit %d rows %+v blockers %+v equivalent %+v", code, dry.Rows, dry.Blockers, dry.KafkaEquivalent)
		}
		emptyDir(t, "after the dry run", dir)
		if !w.listed(t, g) || !maps.Equal(w.s.ShareStarts(g), w.before) {
			t.Fatalf("the dry run changed %s: listed %v, start offsets %v", g, w.listed(t, g), w.s.ShareStarts(g))
		}

		code, done := cliDeleteGroup(t, append(base, "--execute")...)
		if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil || done.Undo == nil {
			t.Fatalf("--execute: exit %d verified %v backup %v blockers %+v rejected %+v", code, done.Verified, done.Backup, done.Blockers, done.Rejected)
		}
		wantAudit(t, dir, "applied")
		w.tool(t, "--delete", "--group", twin)
		if w.listed(t, g) || w.listed(t, twin) || len(w.s.ShareStarts(g)) != 0 {
			t.Errorf("after the deletes: %s listed %v (start offsets %v), the twin listed %v; want both gone",
				g, w.listed(t, g), w.s.ShareStarts(g), w.listed(t, twin))
		}

		code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", t.TempDir(), "--group", g, "--restore", *done.Backup, "--execute", "--observe", "0")
		if code != exitOK || undo.Verified == nil || !*undo.Verified {
			t.Fatalf("undo: exit %d verified %v blockers %+v", code, undo.Verified, undo.Blockers)
		}
		if got := w.s.ShareStarts(g); !maps.Equal(got, w.before) || !w.listed(t, g) {
			t.Errorf("after the undo: start offsets %v (listed as a share group %v), want %v", got, w.listed(t, g), w.before)
		}
		if got := shareStarts(t, b.Addr, g); !maps.Equal(got, w.before) {
			t.Errorf("after the undo kafka-share-groups.sh --describe shows %v, want %v", got, w.before)
		}
	})
}
