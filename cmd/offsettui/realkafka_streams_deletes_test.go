package main

// `offsettui delete-offsets` and `delete-group` of streams groups against a real broker, with
// Kafka's own kafka-streams-groups.sh (StreamsGroupCommand) run on a twin application (the
// same input, the same commits) as the oracle and the commits read back with franz-go.
// Streams groups are on from Kafka 4.2: older brokers skip, naming the version.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaStreamsDeletes, on a running Kafka Streams app and its twin, then on both
// stopped (Empty):
//
//   - live: delete-offsets of the input topic is refused by the broker per partition
//     (GROUP_SUBSCRIBED_TO_TOPIC), exit 3, nothing written, the plan's subscribed note from
//     the topology, as Kafka's tool is refused on the twin; delete-group is refused (exit 3)
//     as Kafka's --delete is ("not EMPTY");
//   - Empty: --topic IN:0 --topic OTHER (a topic outside the topology, one partition without
//     a commit: Kafka's --input-topic takes any topic and partition) and --all-topics (Kafka's --all-input-topics: the input topics' commits
//     only) leave the commits Kafka's tool leaves on the twin, and each undo puts them back;
//   - delete-group removes the group and every commit (the other topic's too), as Kafka's
//     --delete removes the twin; the undo restores every commit, and the app started again
//     goes on from them.
func TestRealKafkaStreamsDeletes(t *testing.T) {
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		b.NeedStreamsGroups(t)
		s := b.Seed(t)
		in, out, other := realkafka.Name("sdel-in"), realkafka.Name("sdel-out"), realkafka.Name("sdel-other")
		for _, topic := range []string{in, out, other} {
			s.CreateTopic(topic, 2, nil)
		}
		now := func(int) time.Time { return time.Now() }
		s.ProduceN(in, 0, 8, now)
		s.ProduceN(in, 1, 5, now)
		s.ProduceN(other, 0, 6, now)
		s.ProduceN(other, 1, 6, now)
		app, twin := realkafka.Name("sdel-app"), realkafka.Name("sdel-twin")
		stops := []func(){realkafka.StreamsApp(t, b.Addr, app, in, out), realkafka.StreamsApp(t, b.Addr, twin, in, out)}
		want := map[model.TP]int64{tpOf(in, 0): 8, tpOf(in, 1): 5}
		realkafka.WaitUntil(t, 120*time.Second, "both apps running and committed", func() (bool, string) {
			a, tw := s.Committed(app), s.Committed(twin)
			return maps.Equal(a, want) && maps.Equal(tw, want), fmt.Sprintf("%v and %v", a, tw)
		})
		tool := func(args ...string) string {
			o, errOut, code := b.RunTool(t, realkafka.StreamsGroupCommand, append([]string{"--bootstrap-server", b.Addr}, args...)...)
			t.Logf("kafka-streams-groups.sh %s: exit %d\n%s%s", strings.Join(args, " "), code, o, errOut)
			return o
		}
		listed := func(group string) bool {
			return slices.Contains(strings.Fields(b.Tool(t, realkafka.StreamsGroupCommand, "--bootstrap-server", b.Addr, "--list")), group)
		}

		dir := t.TempDir()
		code, refused := cliDeleteOffsets(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", app, "--topic", in, "--execute")
		subscribed := slices.ContainsFunc(refused.Notes, func(n plan.Note) bool { return n.Kind == plan.NoteSubscribed && n.Topic != nil && *n.Topic == in })
		if code != exitBlocked || refused.Executed || len(refused.Rejected) != 2 || !subscribed {
			t.Errorf("input topic of the live app: exit %d executed %v rejected %+v notes %+v; want 3, both rejected, subscribed %s",
				code, refused.Executed, refused.Rejected, refused.Notes, in)
		}
		for _, e := range refused.Rejected {
			if e.Code == nil || *e.Code != "GROUP_SUBSCRIBED_TO_TOPIC" {
				t.Errorf("rejected %+v, want GROUP_SUBSCRIBED_TO_TOPIC", e)
			}
		}
		if files := backupFiles(t, dir); len(files) != 0 {
			t.Errorf("the refusal left %v", files)
		}
		wantAudit(t, dir, "refused")
		groupDir := t.TempDir()
		if code, p := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--backup-dir", groupDir, "--group", app, "--execute"); code != exitBlocked ||
			p.Executed || !blockedBy(p.Blockers, plan.BlockGroupNotEmpty) {
			t.Errorf("delete-group of the live app: exit %d executed %v blockers %+v; want 3, group-not-empty", code, p.Executed, p.Blockers)
		}
		emptyDir(t, "delete-group of the live app", groupDir)
		kafkaOffsets := tool("--delete-offsets", "--group", twin, "--input-topic", in)
		kafkaGroup := tool("--delete", "--group", twin)
		if !strings.Contains(kafkaOffsets, "GroupSubscribedToTopic") || !strings.Contains(kafkaGroup, "not EMPTY") {
			t.Errorf("Kafka's tool on the live twin: --delete-offsets said %q, --delete %q; want both refused", kafkaOffsets, kafkaGroup)
		}
		if a, tw := s.Committed(app), s.Committed(twin); !maps.Equal(a, want) || !maps.Equal(tw, want) || !listed(app) || !listed(twin) {
			t.Errorf("after the refusals: %v and the twin %v (listed %v, %v), want %v on both, both listed", a, tw, listed(app), listed(twin), want)
		}

		for _, stop := range stops {
			stop()
		}
		realkafka.WaitUntil(t, 60*time.Second, "both apps Empty", func() (bool, string) {
			_, p := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--group", app)
			_, q := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--group", twin)
			return len(p.Blockers) == 0 && len(q.Blockers) == 0, fmt.Sprintf("blockers %+v and %+v", p.Blockers, q.Blockers)
		})
		// other-1 has no commit: Kafka's --input-topic OTHER takes it all the same.
		all := withOverrides(want, map[model.TP]int64{tpOf(other, 0): 2})
		// The same commits on both, each an Empty streams group: admin commits.
		reseed := func() {
			s.Commit(app, all)
			s.Commit(twin, all)
		}
		reseed()
		for _, c := range []struct {
			name       string
			ours, tool []string
			left       map[model.TP]int64
		}{
			{"--topic IN:0 --topic OTHER", []string{"--topic", in + ":0", "--topic", other}, []string{"--input-topic", in + ":0", "--input-topic", other},
				map[model.TP]int64{tpOf(in, 1): 5}},
			{"--all-topics", []string{"--all-topics"}, []string{"--all-input-topics"},
				map[model.TP]int64{tpOf(other, 0): 2}},
		} {
			dir := t.TempDir()
			code, done := cliDeleteOffsets(t, append([]string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", app, "--execute"}, c.ours...)...)
			if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil {
				t.Fatalf("%s: exit %d verified %v blockers %+v rejected %+v", c.name, code, done.Verified, done.Blockers, done.Rejected)
			}
			tool(append([]string{"--delete-offsets", "--group", twin}, c.tool...)...)
			if a, tw := s.Committed(app), s.Committed(twin); !maps.Equal(a, tw) || !maps.Equal(a, c.left) {
				t.Errorf("%s: offsettui left %v, Kafka's tool left %v on the twin; want %v on both", c.name, a, tw, c.left)
			}
			code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", app, "--restore", *done.Backup, "--execute", "--observe", "0")
			if got := s.Committed(app); code != exitOK || !maps.Equal(got, all) {
				t.Errorf("%s: undo exit %d blockers %+v, commits %v; want %v", c.name, code, undo.Blockers, got, all)
			}
			reseed()
		}

		dir = t.TempDir()
		code, done := cliDeleteGroup(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", app, "--execute")
		if code != exitOK || done.Verified == nil || !*done.Verified || done.Backup == nil || len(done.Rows) != len(all) {
			t.Fatalf("delete-group: exit %d verified %v rows %+v blockers %+v; want every commit (%d) deleted", code, done.Verified, done.Rows, done.Blockers, len(all))
		}
		tool("--delete", "--group", twin)
		if listed(app) || listed(twin) || len(s.Committed(app)) != 0 || len(s.Committed(twin)) != 0 {
			t.Errorf("after the deletes: listed %v and %v, commits %v and %v; want both gone", listed(app), listed(twin), s.Committed(app), s.Committed(twin))
		}
		code, undo := cliReset(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", app, "--restore", *done.Backup, "--execute", "--observe", "0")
		if got := s.Committed(app); code != exitOK || !maps.Equal(got, all) {
			t.Fatalf("undo of delete-group: exit %d blockers %+v, commits %v; want %v", code, undo.Blockers, got, all)
		}
		// The app started again on the restored name goes on from the restored commits: it
		// copies the 3 new records only (from the commits' absence it would copy all 16).
		copied := func() int64 {
			var n int64
			for p := int32(0); p < 2; p++ {
				o, err := s.Offsets(out, p)
				if err != nil {
					t.Fatal(err)
				}
				n += o.High
			}
			return n
		}
		before := copied()
		s.ProduceN(in, 0, 3, now)
		realkafka.StreamsApp(t, b.Addr, app, in, out)
		again := withOverrides(all, map[model.TP]int64{tpOf(in, 0): 11})
		realkafka.WaitUntil(t, 120*time.Second, app+" running again from the restored commits", func() (bool, string) {
			got := s.Committed(app)
			return maps.Equal(got, again), fmt.Sprintf("%v", got)
		})
		if n := copied() - before; n != 3 {
			t.Errorf("the app started on the restored group copied %d records, want the 3 new ones", n)
		}
	})
}
