package main

// `offsettui reset` against a real Apache Kafka broker (scripts/kafka.sh): --execute
// and --restore through the CLI, checked with Kafka's own ConsumerGroupCommand
// --describe, and the refusal of live groups with exit code 3. They run when
// OFFSETTUI_IT_BOOTSTRAP is set and skip otherwise; OFFSETTUI_REQUIRE_KAFKA=1 turns
// the skip into a failure. Plan parity with Kafka's CLI is in
// internal/reset/realkafka_test.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// cliPlan is the part of `reset -o json` these tests read.
type cliPlan struct {
	Executed bool    `json:"executed"`
	Verified *bool   `json:"verified"`
	Backup   *string `json:"backup"`
	Undo     *string `json:"undo"`
	Rows     []struct {
		Topic     string      `json:"topic"`
		Partition int32       `json:"partition"`
		Target    *int64      `json:"target"`
		Reason    plan.Reason `json:"reason"`
	} `json:"rows"`
	Blockers        []plan.Blocker   `json:"blockers"`
	Notes           []plan.Note      `json:"notes"`
	KafkaEquivalent *plan.Equivalent `json:"kafkaEquivalent"`
}

func (p cliPlan) targets() map[model.TP]int64 {
	out := map[model.TP]int64{}
	for _, r := range p.Rows {
		if r.Target != nil {
			out[model.TP{Topic: r.Topic, Partition: r.Partition}] = *r.Target
		}
	}
	return out
}

// cliReset runs `offsettui reset args... -o json` in-process and returns its exit
// code and parsed output.
func cliReset(t *testing.T, args ...string) (int, cliPlan) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := resetMain(append(args, "-o", "json"), &stdout, &stderr)
	var p cliPlan
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
		t.Fatalf("offsettui reset %s: exit %d, output is not JSON: %v\nstdout:\n%s\nstderr:\n%s",
			strings.Join(args, " "), code, err, stdout.String(), stderr.String())
	}
	return code, p
}

func tpOf(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

// withOverrides returns base with over's entries set.
func withOverrides(base, over map[model.TP]int64) map[model.TP]int64 {
	out := maps.Clone(base)
	maps.Copy(out, over)
	return out
}

// TestRealKafkaResetExecuteAndRestore: one `offsettui reset --execute` per strategy
// kind, each on its own group with the same commits (one partition without a
// commit): the targets executed are the dry run's and the hand-computed ones, the
// read-back is verified, and Kafka's ConsumerGroupCommand --describe shows exactly
// them; then `--restore BACKUP --execute` puts every group back as Kafka's CLI
// shows it — including no commit again on the partition that had none.
func TestRealKafkaResetExecuteAndRestore(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("exec")
	s.CreateTopic(topic, 3, nil)
	t0 := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
	stamps := func(n int) []time.Time { return realkafka.Spaced(t0, time.Minute, n) }
	s.Produce(topic, 0, stamps(10)...) // [0,10)
	s.Produce(topic, 1, stamps(6)...)  // [0,6)
	s.Produce(topic, 2, stamps(8)...)  // [2,8) after DeleteRecords; no commit
	if err := s.DeleteRecords(topic, 2, 2); err != nil {
		t.Fatal(err)
	}
	before := map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 3}
	file := filepath.Join(t.TempDir(), "offsets.csv")
	if err := os.WriteFile(file, []byte(fmt.Sprintf("%[1]s,0,100\n%[1]s,2,0\n", topic)), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want map[model.TP]int64 // the targets
	}{
		{"to-earliest", []string{"--to-earliest", "--topic", topic + ":1"}, map[model.TP]int64{tpOf(topic, 1): 0}},
		{"to-latest", []string{"--to-latest", "--all-topics"}, map[model.TP]int64{tpOf(topic, 0): 10, tpOf(topic, 1): 6}},
		{"to-current", []string{"--to-current", "--topic", topic}, map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 3, tpOf(topic, 2): 8}},
		{"to-offset", []string{"--to-offset", "1", "--topic", topic}, map[model.TP]int64{tpOf(topic, 0): 1, tpOf(topic, 1): 1, tpOf(topic, 2): 2}},
		{"shift-by", []string{"--shift-by", "-2", "--all-topics"}, map[model.TP]int64{tpOf(topic, 0): 3, tpOf(topic, 1): 1}},
		{"to-datetime", []string{"--to-datetime", t0.Add(150 * time.Second).UTC().Format("2006-01-02T15:04:05.000"), "--topic", topic + ":0,2"},
			map[model.TP]int64{tpOf(topic, 0): 3, tpOf(topic, 2): 3}},
		{"by-duration", []string{"--by-duration", "PT1H", "--topic", topic}, map[model.TP]int64{tpOf(topic, 0): 10, tpOf(topic, 1): 6, tpOf(topic, 2): 8}},
		{"from-file", []string{"--from-file", file}, map[model.TP]int64{tpOf(topic, 0): 10, tpOf(topic, 2): 2}},
	}
	group := map[string]string{}
	var groups []string
	for _, c := range cases {
		g := realkafka.Name("exec-" + c.name)
		group[c.name] = g
		groups = append(groups, g)
		s.Commit(g, before)
	}
	backupDir := t.TempDir()
	conn := []string{"--bootstrap-server", addr, "--backup-dir", backupDir}
	backups := map[string]string{}
	for _, c := range cases {
		g := group[c.name]
		args := append(append([]string{}, conn...), append([]string{"--group", g}, c.args...)...)
		code, dry := cliReset(t, args...)
		if code != exitOK || dry.Executed || !maps.Equal(dry.targets(), c.want) {
			t.Errorf("%s: dry run: exit %d executed %v targets %v, want 0, false, %v (blockers %+v)", c.name, code, dry.Executed, dry.targets(), c.want, dry.Blockers)
		}
		code, done := cliReset(t, append(args, "--execute")...)
		if code != exitOK || !done.Executed || done.Verified == nil || !*done.Verified || done.Backup == nil || !maps.Equal(done.targets(), dry.targets()) {
			t.Fatalf("%s: --execute: exit %d executed %v verified %v backup %v targets %v; want 0, verified, the dry run's %v",
				c.name, code, done.Executed, done.Verified, done.Backup, done.targets(), dry.targets())
		}
		if done.Undo == nil || !strings.Contains(*done.Undo, "--restore "+*done.Backup) {
			t.Errorf("%s: undo %v does not restore %s", c.name, done.Undo, *done.Backup)
		}
		backups[c.name] = *done.Backup
	}
	after := realkafka.Describe(t, addr, groups...)
	for _, c := range cases {
		if want := withOverrides(before, c.want); !maps.Equal(after[group[c.name]], want) {
			t.Errorf("%s: after --execute Kafka's --describe shows %v, want %v", c.name, after[group[c.name]], want)
		}
	}

	for _, c := range cases {
		code, res := cliReset(t, append(append([]string{}, conn...), "--group", group[c.name], "--restore", backups[c.name], "--execute")...)
		if code != exitOK || !res.Executed || res.Verified == nil || !*res.Verified {
			t.Errorf("%s: --restore: exit %d executed %v verified %v blockers %+v", c.name, code, res.Executed, res.Verified, res.Blockers)
		}
	}
	restored := realkafka.Describe(t, addr, groups...)
	for _, c := range cases {
		if got := restored[group[c.name]]; !maps.Equal(got, before) {
			t.Errorf("%s: after --restore Kafka's --describe shows %v, want %v (and %s without a commit)", c.name, got, before, tpOf(topic, 2))
		}
	}
	t.Logf("executed and restored %d resets (%d groups); Kafka's --describe agreed each time", len(cases), len(groups))
}

// TestRealKafkaResetCLIRefusesLiveGroups: `offsettui reset` on a group with a live
// classic member (franz-go) and on one with a live consumer-protocol member
// (Kafka's ConsoleConsumer, group.protocol=consumer) exits 3 — dry run, --execute
// and --restore alike — writes no backup, and Kafka's --describe shows the commits
// unchanged. Once the consumer-protocol member has left, the group (Empty, still of
// type consumer) is reset and restored — OffsetDelete included — like any other.
func TestRealKafkaResetCLIRefusesLiveGroups(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("cli-live")
	s.CreateTopic(topic, 2, nil)
	now := time.Now()
	s.Produce(topic, 0, now, now, now, now)
	s.Produce(topic, 1, now, now)
	gClassic, gConsumer := realkafka.Name("cli-classic"), realkafka.Name("cli-consumer")
	commits := map[string]map[model.TP]int64{
		gClassic:  {tpOf(topic, 0): 3, tpOf(topic, 1): 1},
		gConsumer: {tpOf(topic, 0): 2}, // topic-1 without a commit
	}
	s.Commit(gClassic, commits[gClassic])
	s.Commit(gConsumer, commits[gConsumer])
	idClassic, idConsumer := realkafka.Name("classic-client"), realkafka.Name("consumer-client")
	realkafka.ClassicMember(t, addr, gClassic, idClassic, topic)
	stopConsole := realkafka.ConsoleConsumer(t, addr, gConsumer, idConsumer, topic)

	backupDir := t.TempDir()
	// A real backup (with its manifest), of a throwaway Empty group on the topic.
	spare := realkafka.Name("cli-spare")
	s.Commit(spare, map[model.TP]int64{tpOf(topic, 0): 1})
	code, sp := cliReset(t, "--bootstrap-server", addr, "--backup-dir", t.TempDir(), "--group", spare, "--to-earliest", "--all-topics", "--execute")
	if code != exitOK || sp.Backup == nil {
		t.Fatalf("spare reset: exit %d %+v", code, sp)
	}
	backup := *sp.Backup
	for _, m := range []struct{ group, clientID string }{{gClassic, idClassic}, {gConsumer, idConsumer}} {
		base := []string{"--bootstrap-server", addr, "--backup-dir", backupDir, "--group", m.group}
		realkafka.WaitUntil(t, 60*time.Second, m.group+" refused for its live member", func() (bool, string) {
			code, p := cliReset(t, append(base, "--to-earliest", "--all-topics")...)
			ok := code == exitBlocked && len(p.Blockers) == 1 && p.Blockers[0].Kind == plan.BlockGroupNotEmpty &&
				strings.Contains(p.Blockers[0].Message, m.clientID)
			return ok, fmt.Sprintf("dry run: exit %d blockers %+v", code, p.Blockers)
		})
		for _, args := range [][]string{
			{"--to-earliest", "--all-topics", "--execute"},
			{"--shift-by", "-1", "--topic", topic, "--execute"},
			{"--restore", backup, "--allow-other-group", "--execute"},
		} {
			code, p := cliReset(t, append(base, args...)...)
			if code != exitBlocked || p.Executed || p.Backup != nil || len(p.Blockers) == 0 || p.Blockers[0].Kind != plan.BlockGroupNotEmpty {
				t.Errorf("%s %v: exit %d executed %v backup %v blockers %+v; want exit 3, nothing written", m.group, args, code, p.Executed, p.Backup, p.Blockers)
			}
		}
	}
	if entries, err := os.ReadDir(backupDir); err != nil || len(entries) != 0 {
		t.Errorf("backup dir after refusals: %v (%v), want empty", entries, err)
	}
	got := realkafka.Describe(t, addr, gClassic, gConsumer)
	for _, g := range []string{gClassic, gConsumer} {
		if !maps.Equal(got[g], commits[g]) {
			t.Errorf("%s: Kafka's --describe shows %v after the refusals, want %v", g, got[g], commits[g])
		}
	}

	stopConsole()
	base := []string{"--bootstrap-server", addr, "--backup-dir", backupDir, "--group", gConsumer, "--to-latest", "--topic", topic}
	realkafka.WaitUntil(t, 30*time.Second, gConsumer+" plannable after its member left", func() (bool, string) {
		code, p := cliReset(t, base...)
		return code == exitOK, fmt.Sprintf("dry run: exit %d blockers %+v", code, p.Blockers)
	})
	code, p := cliReset(t, append(base, "--execute")...)
	want := map[model.TP]int64{tpOf(topic, 0): 4, tpOf(topic, 1): 2}
	if code != exitOK || p.Backup == nil || !maps.Equal(p.targets(), want) {
		t.Fatalf("%s (Empty, consumer protocol) --to-latest --execute: exit %d backup %v targets %v, want 0 and %v", gConsumer, code, p.Backup, p.targets(), want)
	}
	if got := realkafka.Describe(t, addr, gConsumer)[gConsumer]; !maps.Equal(got, want) {
		t.Errorf("%s after --execute: Kafka's --describe shows %v, want %v", gConsumer, got, want)
	}
	if code, r := cliReset(t, "--bootstrap-server", addr, "--backup-dir", backupDir, "--group", gConsumer, "--restore", *p.Backup, "--execute"); code != exitOK {
		t.Errorf("%s --restore: exit %d blockers %+v verified %v", gConsumer, code, r.Blockers, r.Verified)
	}
	if got := realkafka.Describe(t, addr, gConsumer)[gConsumer]; !maps.Equal(got, commits[gConsumer]) {
		t.Errorf("%s after --restore: Kafka's --describe shows %v, want %v (%s without a commit)", gConsumer, got, commits[gConsumer], tpOf(topic, 1))
	}
}
