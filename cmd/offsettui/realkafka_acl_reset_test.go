package main

// What ACLs on the real broker's SASL listener (scripts/kafka.sh) do to describe,
// check and reset, run as alice, who holds only the grants below: a topic whose
// configs she may not read, a group she may not describe at all, a group she may
// describe but not commit for, a topic she may see but not commit on, and a
// topic she may not see. Every denial carries Kafka's code; a reset writes only
// what the broker accepted and undoes only that.

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kadm"
)

// aclResetWorld: topic open (alice may describe, read and read its configs),
// topic seen (describe only: no configs, no commits), topic hidden (nothing);
// groups she may read (g, g2, g3), one she may only describe (describeOnly) and
// one she may not touch (denied).
type aclResetWorld struct {
	addr, sasl, props    string
	seed                 *realkafka.Seed
	open, seen, hidden   string
	g, g2, g3            string
	describeOnly, denied string
	commits              map[model.TP]int64 // every group's commits (g also on hidden)
}

func newACLResetWorld(t *testing.T) aclResetWorld {
	t.Helper()
	w := aclResetWorld{addr: realkafka.Addr(t), sasl: realkafka.SASLAddr(t),
		open: realkafka.Name("acl-open"), seen: realkafka.Name("acl-seen"), hidden: realkafka.Name("acl-hidden"),
		g: realkafka.Name("acl-g"), g2: realkafka.Name("acl-g2"), g3: realkafka.Name("acl-g3"),
		describeOnly: realkafka.Name("acl-descr"), denied: realkafka.Name("acl-denied")}
	w.seed = realkafka.NewSeed(t, w.addr)
	w.seed.CreateTopic(w.open, 2, nil)
	w.seed.CreateTopic(w.seen, 1, nil)
	w.seed.CreateTopic(w.hidden, 1, nil)
	now := time.Now()
	for _, tp := range []model.TP{tpOf(w.open, 0), tpOf(w.open, 1), tpOf(w.seen, 0), tpOf(w.hidden, 0)} {
		w.seed.ProduceN(tp.Topic, tp.Partition, 10, func(int) time.Time { return now.Add(-time.Minute) })
	}
	w.commits = map[model.TP]int64{tpOf(w.open, 0): 4, tpOf(w.open, 1): 6, tpOf(w.seen, 0): 2}
	for _, g := range []string{w.g2, w.g3, w.describeOnly, w.denied} {
		w.seed.Commit(g, w.commits)
	}
	w.seed.Commit(w.g, withOverrides(w.commits, map[model.TP]int64{tpOf(w.hidden, 0): 1}))
	w.seed.Allow("User:alice", nil, []string{w.g, w.g2, w.g3}, kadm.OpDescribe, kadm.OpRead)
	w.seed.Allow("User:alice", nil, []string{w.describeOnly}, kadm.OpDescribe)
	w.seed.Allow("User:alice", []string{w.open}, nil, kadm.OpDescribe, kadm.OpRead, kadm.OpDescribeConfigs)
	w.seed.Allow("User:alice", []string{w.seen}, nil, kadm.OpDescribe)
	w.props = realkafka.SASLProperties(t, "alice", "alice-secret")
	return w
}

func (w aclResetWorld) alice(args ...string) []string {
	return append([]string{"--bootstrap-server", w.sasl, "--command-config", w.props, "--timeout", "5s"}, args...)
}

// TestRealKafkaACLDescribeAndCheck: alice's describe shows the topic whose
// configs she may not read with its statuses unknown (denied,
// TOPIC_AUTHORIZATION_FAILED) and the group's total as a lower bound (the hidden
// topic's commit is missing, as Kafka's OffsetFetch leaves it out); check of
// that topic exits 2 with Kafka's code, of the open topic passes, of the group
// without --topic exits 2. A group she may not describe is denied
// (GROUP_AUTHORIZATION_FAILED) in describe's JSON and table and in check.
func TestRealKafkaACLDescribeAndCheck(t *testing.T) {
	w := newACLResetWorld(t)
	code, snap, stderr := describeJSON(t, w.alice("--group", w.g, "--group", w.denied)...)
	if code != exitOK {
		t.Fatalf("describe: exit %d: %s", code, stderr)
	}
	noPartialAsWhole(t, snap)
	byName := map[string]model.Group{}
	for _, g := range snap.Groups {
		byName[g.Group] = g
	}
	g := byName[w.g]
	if g.TotalLag != nil || text.Num(g.TotalLagAtLeast) != "18" || g.WorstStatus != model.StatusUnknown {
		t.Errorf("%s: totalLag %s, at least %s, worst %s; want null, 18 (6 + 4 + 8, the hidden topic left out), unknown",
			w.g, text.Num(g.TotalLag), text.Num(g.TotalLagAtLeast), g.WorstStatus)
	}
	for _, p := range g.Partitions {
		denied := p.Error != nil && p.Error.Kind == model.KindDenied && p.Error.Code != nil && *p.Error.Code == "TOPIC_AUTHORIZATION_FAILED"
		switch {
		case p.Topic == w.hidden:
			t.Errorf("%s-%d shown to a principal that may not describe it", p.Topic, p.Partition)
		case p.Topic == w.seen && (p.Status != model.StatusUnknown || !denied):
			t.Errorf("%s-%d (configs denied): status %s, error %v; want unknown, denied TOPIC_AUTHORIZATION_FAILED", p.Topic, p.Partition, p.Status, p.Error)
		case p.Topic == w.open && p.Status != model.StatusOK:
			t.Errorf("%s-%d (open): status %s, error %v; want ok", p.Topic, p.Partition, p.Status, p.Error)
		}
	}
	if d := byName[w.denied]; d.Error == nil || d.Error.Kind != model.KindDenied || d.Error.Code == nil ||
		*d.Error.Code != "GROUP_AUTHORIZATION_FAILED" || d.WorstStatus != model.StatusUnknown || d.TotalLag != nil {
		t.Errorf("%s: error %v, worst %s, totalLag %s; want denied GROUP_AUTHORIZATION_FAILED, unknown, null",
			w.denied, d.Error, d.WorstStatus, text.Num(d.TotalLag))
	}

	var out, errb bytes.Buffer
	if code := describeMain(w.alice("--group", w.g, "--group", w.denied), &out, &errb); code != exitOK {
		t.Fatalf("describe table: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"lag ≥ 18", "cannot describe every topic", "GROUP_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe table lacks %q:\n%s", want, out.String())
		}
	}

	code, ckOut, _ := ckRun(t, w.alice("--group", w.g, "--topic", w.seen)...)
	ckExpect(t, code, ckOut, 2, "TOPIC_AUTHORIZATION_FAILED")
	code, ckOut, _ = ckRun(t, w.alice("--group", w.g, "--topic", w.open)...)
	ckExpect(t, code, ckOut, 0, "PASS "+w.g)
	code, ckOut, _ = ckRun(t, w.alice("--group", w.g)...)
	ckExpect(t, code, ckOut, 2, "topics may be hidden from this principal")
	code, ckOut, _ = ckRun(t, w.alice("--group", w.denied, "--topic", w.open)...)
	ckExpect(t, code, ckOut, 2, "GROUP_AUTHORIZATION_FAILED")
}

// TestRealKafkaACLReset: alice's resets write only what the broker accepts.
// A group she may not describe cannot be planned (Kafka's code named, nothing
// written); one she may describe but not commit for is refused by the broker on
// every partition (exit 3, no undo, no backup left); a commit on a topic she may
// not read is refused there and applied elsewhere (partly-applied, exit 4) with
// an undo file of the written partitions only, which restores them; a plan of
// only that topic is refused (exit 3).
func TestRealKafkaACLReset(t *testing.T) {
	w := newACLResetWorld(t)
	check := func(group string, want map[model.TP]int64) {
		t.Helper()
		if got := w.seed.Committed(group); !maps.Equal(got, want) {
			t.Errorf("%s: commits read back directly %v, want %v", group, got, want)
		}
	}

	dir := t.TempDir()
	for _, execute := range []bool{false, true} {
		args := w.alice("--backup-dir", dir, "--group", w.denied, "--to-earliest", "--topic", w.open)
		if execute {
			args = append(args, "--execute")
		}
		code, _, stderr := runReset(t, args...)
		if code != exitBlocked || !strings.Contains(stderr, "GROUP_AUTHORIZATION_FAILED") {
			t.Errorf("reset of a denied group (execute %v): exit %d, stderr %q; want a refusal naming GROUP_AUTHORIZATION_FAILED", execute, code, stderr)
		}
	}
	if files := backupFiles(t, dir); len(files) != 0 || len(auditLog(t, dir)) != 0 {
		t.Errorf("after the denied group: files %v, audit %v; want none", files, auditLog(t, dir))
	}
	check(w.denied, w.commits)

	dir = t.TempDir()
	code, r, _ := runReset(t, w.alice("--backup-dir", dir, "--group", w.describeOnly, "--to-earliest", "--topic", w.open, "--execute")...)
	wantRefused(t, code, r, dir, "GROUP_AUTHORIZATION_FAILED")
	check(w.describeOnly, w.commits)

	dir = t.TempDir()
	code, r, _ = runReset(t, w.alice("--backup-dir", dir, "--group", w.g2, "--to-latest", "--topic", w.seen, "--execute")...)
	wantRefused(t, code, r, dir, "TOPIC_AUTHORIZATION_FAILED")
	check(w.g2, w.commits)

	dir = t.TempDir()
	code, r, _ = runReset(t, w.alice("--backup-dir", dir, "--group", w.g3, "--to-earliest", "--topic", w.open, "--topic", w.seen, "--execute")...)
	written := map[model.TP]int64{tpOf(w.open, 0): 0, tpOf(w.open, 1): 0}
	wantResults := map[model.TP]plan.WriteResult{tpOf(w.open, 0): plan.WriteWritten, tpOf(w.open, 1): plan.WriteWritten, tpOf(w.seen, 0): plan.WriteRejected}
	if code != exitPartlyApplied || !r.Executed || !maps.Equal(r.results(), wantResults) ||
		!maps.Equal(r.rejectedCodes(), map[model.TP]string{tpOf(w.seen, 0): "TOPIC_AUTHORIZATION_FAILED"}) {
		t.Fatalf("partly denied: exit %d executed %v results %v rejected %v; want 4, %v, %s-0 TOPIC_AUTHORIZATION_FAILED",
			code, r.Executed, r.results(), r.rejectedCodes(), wantResults, w.seen)
	}
	check(w.g3, withOverrides(w.commits, written))
	wantAudit(t, dir, "partly-applied")
	undo := restoreFileOf(t, r)
	if !strings.HasSuffix(undo, "-undo.csv") {
		t.Errorf("undo restores %s, want the -undo.csv of the written partitions", undo)
	}
	csv, err := os.ReadFile(undo)
	if want := w.open + ",0,4\n" + w.open + ",1,6\n"; err != nil || string(csv) != want {
		t.Errorf("undo file %s: %q (%v); want only the written partitions %q", undo, csv, err, want)
	}
	var m struct{ Purpose string }
	if raw, err := os.ReadFile(strings.TrimSuffix(undo, ".csv") + ".manifest.json"); err != nil || json.Unmarshal(raw, &m) != nil || m.Purpose != "undo" {
		t.Errorf("undo manifest: %s (%v); want purpose undo", raw, err)
	}
	code, r, _ = runReset(t, w.alice("--backup-dir", dir, "--group", w.g3, "--restore", undo, "--execute")...)
	if code != exitOK || r.Verified == nil || !*r.Verified {
		t.Errorf("the undo: exit %d verified %v; want 0, verified", code, r.Verified)
	}
	check(w.g3, w.commits)
}

// wantRefused: the broker refused every partition with code: exit 3, nothing
// executed, no backup and no undo, no backup file left; the audit log holds the
// intent and the refusal.
func wantRefused(t *testing.T, code int, r resetResult, dir, kafkaCode string) {
	t.Helper()
	if code != exitBlocked || r.Executed || r.Backup != nil || r.Undo != nil || len(r.Rejected) != len(r.Rows) || len(r.Rows) == 0 {
		t.Errorf("exit %d executed %v backup %v undo %v rejected %d of %d rows; want 3, nothing executed, no backup, no undo, every row rejected",
			code, r.Executed, r.Backup, r.Undo, len(r.Rejected), len(r.Rows))
	}
	for tp, c := range r.rejectedCodes() {
		if c != kafkaCode {
			t.Errorf("%s rejected with %s, want %s", tp, c, kafkaCode)
		}
	}
	if files := backupFiles(t, dir); len(files) != 0 {
		t.Errorf("files left behind: %v", files)
	}
	wantAudit(t, dir, "refused")
}

// TestRealKafkaDescribeGroupNotFound: describe --group of a group that does not
// exist exits 3 with a not-found error (GROUP_ID_NOT_FOUND), the existing group
// beside it described whole, for the super user and for alice (who may describe
// that name but not the broker's configs, which must not stand in the way); one
// she may not describe is denied, never not-found or ok.
func TestRealKafkaDescribeGroupNotFound(t *testing.T) {
	w := newACLResetWorld(t)
	nosuch, unnamed := realkafka.Name("nosuch"), realkafka.Name("nosuch-denied")
	w.seed.Allow("User:alice", nil, []string{nosuch}, kadm.OpDescribe)
	for _, who := range []struct {
		name string
		args []string
	}{
		{"super user", []string{"--bootstrap-server", w.addr}},
		{"alice", w.alice()},
	} {
		code, snap, stderr := describeJSON(t, append(who.args, "--group", w.g2, "--group", nosuch)...)
		byName := map[string]model.Group{}
		for _, g := range snap.Groups {
			byName[g.Group] = g
		}
		if code != exitNotFound || !byName[nosuch].Error.IsGroupNotFound() || !hasError(snap.Errors, model.KindNotFound, "GROUP_ID_NOT_FOUND", nosuch) ||
			!strings.Contains(stderr, nosuch+" does not exist") {
			t.Errorf("%s: exit %d, %s error %v, stderr %q; want 3, not-found GROUP_ID_NOT_FOUND", who.name, code, nosuch, byName[nosuch].Error, stderr)
		}
		if g := byName[w.g2]; g.Error != nil || len(g.Partitions) != 3 {
			t.Errorf("%s: %s beside it: error %v, %d partitions; want described", who.name, w.g2, g.Error, len(g.Partitions))
		}
		code, out, _ := ckRun(t, append(who.args, "--group", nosuch)...)
		ckExpect(t, code, out, 2, "INCOMPLETE "+nosuch)
	}
	code, snap, _ := describeJSON(t, w.alice("--group", unnamed)...)
	if code == exitNotFound || len(snap.Groups) != 1 || snap.Groups[0].Error == nil || snap.Groups[0].Error.Kind != model.KindDenied ||
		snap.Groups[0].WorstStatus != model.StatusUnknown {
		t.Errorf("a name alice may not describe: exit %d, groups %+v; want denied and unknown, not not-found", code, snap.Groups)
	}
}
