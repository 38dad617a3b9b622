package main

// `offsettui delete-offsets` against real brokers (Kafka 4.4.0 and 4.0.0), with Kafka's
// own ConsumerGroupCommand --delete-offsets on a twin group (the same commits, the same
// members) as the oracle: the commits left afterwards must be the same.

import (
	"bytes"
	"encoding/json"
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

// deletePlan is the part of `delete-offsets -o json` these tests read.
type deletePlan struct {
	cliPlan
	Rows []struct {
		Topic     string           `json:"topic"`
		Partition int32            `json:"partition"`
		Reason    plan.Reason      `json:"reason"`
		Result    plan.WriteResult `json:"result"`
	} `json:"rows"`
	Rejected []model.Error `json:"rejected"`
	Notes    []plan.Note   `json:"notes"`
}

func (p deletePlan) results() map[model.TP]plan.WriteResult {
	out := map[model.TP]plan.WriteResult{}
	for _, r := range p.Rows {
		out[tpOf(r.Topic, r.Partition)] = r.Result
	}
	return out
}

func cliDeleteOffsets(t *testing.T, args ...string) (int, deletePlan) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := deleteOffsetsMain(append(args, "-o", "json", "--observe", "0"), &stdout, &stderr)
	var p deletePlan
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
		t.Fatalf("offsettui delete-offsets %s: exit %d, not JSON: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String())
	}
	return code, p
}

// kafkaDeleteOffsets runs Kafka's ConsumerGroupCommand --delete-offsets and returns its
// output (it exits 0 even when the broker refused every partition).
func kafkaDeleteOffsets(t *testing.T, b realkafka.Broker, group, topic string) string {
	t.Helper()
	out, errOut, code := b.RunTool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--delete-offsets", "--group", group, "--topic", topic, "--timeout", "60000")
	t.Logf("Kafka's --delete-offsets --group %s --topic %s: exit %d\n%s%s", group, topic, code, out, errOut)
	return out
}

// TestRealKafkaDeleteOffsets: on an Empty group, delete-offsets --topic T:0,2 removes exactly
// the commits Kafka's tool removes from its twin, and the undo puts them back (Kafka's
// --describe shows them). On a live group (classic and consumer protocol) subscribed to
// Active with old commits on Stale: Stale's commits are removed as Kafka's tool removes the
// twin's; Active's are refused per partition by the broker (GROUP_SUBSCRIBED_TO_TOPIC),
// exit 3, nothing written (no backup left, the commits as they were).
func TestRealKafkaDeleteOffsets(t *testing.T) {
	t.Parallel() // its own groups and topics: it waits beside the others
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		s := b.Seed(t)
		active, stale := realkafka.Name("do-active"), realkafka.Name("do-stale")
		s.CreateTopic(active, 2, nil)
		s.CreateTopic(stale, 3, nil)
		now := time.Now()
		for p := int32(0); p < 3; p++ {
			s.Produce(stale, p, now, now, now, now, now)
			if p < 2 {
				s.Produce(active, p, now, now, now)
			}
		}
		staleCommits := map[model.TP]int64{tpOf(stale, 0): 1, tpOf(stale, 1): 2, tpOf(stale, 2): 3}
		backupDir := t.TempDir()

		t.Run("empty", func(t *testing.T) {
			g, twin := realkafka.Name("do-empty"), realkafka.Name("do-empty-twin")
			before := withOverrides(staleCommits, map[model.TP]int64{tpOf(active, 0): 2})
			s.Commit(g, before)
			s.Commit(twin, before)
			base := []string{"--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", g, "--topic", stale + ":0,2"}
			code, dry := cliDeleteOffsets(t, base...)
			if code != exitOK || len(dry.Rows) != 2 {
				t.Fatalf("dry run: exit %d rows %+v blockers %+v", code, dry.Rows, dry.Blockers)
			}
			if got := realkafka.Describe(t, b.Addr, g)[g]; !maps.Equal(got, before) {
				t.Errorf("after the dry run Kafka shows %v, want %v unchanged", got, before)
			}
			code, done := cliDeleteOffsets(t, append(base, "--execute")...)
			if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil || done.Undo == nil {
				t.Fatalf("--execute: exit %d verified %v backup %v blockers %+v", code, done.Verified, done.Backup, done.Blockers)
			}
			kafkaDeleteOffsets(t, b, twin, stale+":0,2")
			ours, theirs := realkafka.Describe(t, b.Addr, g)[g], realkafka.Describe(t, b.Addr, twin)[twin]
			if !maps.Equal(ours, theirs) || len(ours) != 2 {
				t.Errorf("after the delete: offsettui left %v, Kafka's tool left %v on the twin; want the same 2", ours, theirs)
			}
			code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", g, "--restore", *done.Backup, "--execute", "--observe", "0")
			if code != exitOK || undo.Verified == nil || !*undo.Verified {
				t.Errorf("undo: exit %d verified %v blockers %+v", code, undo.Verified, undo.Blockers)
			}
			if got := realkafka.Describe(t, b.Addr, g)[g]; !maps.Equal(got, before) {
				t.Errorf("after the undo Kafka shows %v, want %v", got, before)
			}
		})

		for _, protocol := range []string{"classic", "consumer"} {
			t.Run("live-"+protocol, func(t *testing.T) {
				g, twin := realkafka.Name("do-live-"+protocol), realkafka.Name("do-twin-"+protocol)
				for _, grp := range []string{g, twin} {
					s.Commit(grp, staleCommits)
					b.Member(t, realkafka.ConsumeSpec{Group: grp, Topic: active, Protocol: protocol})
				}
				before := realkafka.Describe(t, b.Addr, g)[g]
				refusedDir := t.TempDir()
				code, refused := cliDeleteOffsets(t, "--bootstrap-server", b.Addr, "--backup-dir", refusedDir, "--group", g, "--topic", active, "--execute")
				subscribedNote := slices.ContainsFunc(refused.Notes, func(n plan.Note) bool { return n.Kind == plan.NoteSubscribed })
				if code != exitBlocked || refused.Executed || len(refused.Rejected) != 2 || !subscribedNote {
					t.Errorf("subscribed topic: exit %d executed %v rejected %+v notes %+v; want 3, both partitions rejected, the subscribed note",
						code, refused.Executed, refused.Rejected, refused.Notes)
				}
				for _, e := range refused.Rejected {
					if e.Code == nil || *e.Code != "GROUP_SUBSCRIBED_TO_TOPIC" {
						t.Errorf("rejected %+v, want GROUP_SUBSCRIBED_TO_TOPIC", e)
					}
				}
				if files := backupFiles(t, refusedDir); len(files) != 0 {
					t.Errorf("the refusal left backups %v", files)
				}
				if got := realkafka.Describe(t, b.Addr, g)[g]; !maps.Equal(got, before) {
					t.Errorf("after the refusal Kafka shows %v, want %v", got, before)
				}
				kafkaDeleteOffsets(t, b, twin, active)

				code, done := cliDeleteOffsets(t, "--bootstrap-server", b.Addr, "--backup-dir", backupDir, "--group", g, "--topic", stale, "--execute")
				if code != exitOK || done.Verified == nil || !*done.Verified || done.Undo == nil {
					t.Errorf("stale topic of a live group: exit %d verified %v results %v blockers %+v", code, done.Verified, done.results(), done.Blockers)
				}
				kafkaDeleteOffsets(t, b, twin, stale)
				ours, theirs := realkafka.Describe(t, b.Addr, g)[g], realkafka.Describe(t, b.Addr, twin)[twin]
				if !slices.Equal(sortedTPs(ours), sortedTPs(theirs)) || len(ours) != 2 {
					t.Errorf("after the delete: offsettui left %v, Kafka's tool left %v on the twin; want Active's 2 commits on both", ours, theirs)
				}
			})
		}
		if entries, err := os.ReadDir(backupDir); err != nil || len(entries) == 0 {
			t.Errorf("backup dir %v (%v): want the backups and the audit log of the executed deletes", entries, err)
		}
	})
}

func sortedTPs(m map[model.TP]int64) []model.TP {
	out := slices.Collect(maps.Keys(m))
	slices.SortFunc(out, model.CompareTP)
	return out
}
