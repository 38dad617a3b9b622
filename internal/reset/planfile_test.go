package reset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

var planAuthor = Author{By: "alice", With: "offsettui reset", Bootstrap: "k:9092", At: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)}

// latestPlan is --to-latest --all-topics of twoPartitions (targets 10, 10), planned by s on f.
func latestPlan(t *testing.T, f *fakeCluster) (*Service, plan.Plan) {
	t.Helper()
	s := &Service{Cluster: f, BackupDir: t.TempDir(), User: "bob", ClusterName: func() string { return "k:9092" }}
	st, err := plan.ParseStrategy(plan.ToLatest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := plan.NewScope(true, nil, plan.ToLatest)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	return s, p
}

// writtenPlanFile writes p to a plan file in a new directory and returns its path and bytes.
func writtenPlanFile(t *testing.T, p plan.Plan) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.json")
	if _, err := WritePlanFile(path, p, planAuthor); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// TestPlanFileReadsBackThePlan: a plan file holds the plan as reset -o json prints it, the
// cluster id, readAt, who planned it, with what, and a SHA-256 of every byte before its line;
// read back, it is the same plan, reviewed.
func TestPlanFileReadsBackThePlan(t *testing.T) {
	_, p := latestPlan(t, &fakeCluster{state: twoPartitions()})
	path, raw := writtenPlanFile(t, p)
	pf, err := LoadPlanFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := marshalPlan(p)
	got, _ := marshalPlan(pf)
	if !bytes.Equal(got, want) {
		t.Errorf("plan read back:\n%s\nwant\n%s", got, want)
	}
	r := pf.Reviewed
	if r == nil || r.ClusterID != "c1" || r.PlannedBy != "alice" || r.PlannedWith != "offsettui reset" || r.Bootstrap != "k:9092" ||
		r.File != path || !r.PlannedAt.Equal(planAuthor.At) || *pf.ClusterID != "c1" || !pf.ReadAt.Equal(p.ReadAt.Truncate(time.Millisecond)) {
		t.Errorf("reviewed %+v", r)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	before := strings.Join(lines[:len(lines)-3], "") // the last two lines and the empty string after the last newline
	if sha256Hex([]byte(before)) != r.SHA256 || lines[len(lines)-3] != `  "sha256": "`+r.SHA256+"\"\n" {
		t.Errorf("sha256 %s is not the SHA-256 of the bytes before its line:\n%s", r.SHA256, raw)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || string(doc["format"]) != `"offsettui-plan/1"` || doc["plan"] == nil {
		t.Errorf("not the document docs/json.md describes: %v\n%s", err, raw)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("plan file mode %v %v; want 0600", fi.Mode(), err)
	}
}

// TestPlanFileRefusesEveryEdit: a plan file with any one byte changed, cut at any length or
// with bytes added is refused, as a backup is; so is a file that is not a plan file.
func TestPlanFileRefusesEveryEdit(t *testing.T) {
	_, p := latestPlan(t, &fakeCluster{state: twoPartitions()})
	_, raw := writtenPlanFile(t, p)
	b := bytes.Clone(raw)
	for i := range raw {
		b[i] ^= 1
		if _, err := checkPlanFile("plan.json", b); err == nil {
			t.Fatalf("byte %d changed from %q to %q: accepted", i, raw[i], b[i])
		}
		b[i] = raw[i]
	}
	for n := range len(raw) {
		if _, err := checkPlanFile("plan.json", raw[:n]); err == nil {
			t.Fatalf("cut at %d of %d bytes: accepted", n, len(raw))
		}
	}
	for _, extra := range []string{"\n", " ", "{}"} {
		if _, err := checkPlanFile("plan.json", append(bytes.Clone(raw), extra...)); err == nil {
			t.Errorf("%q appended: accepted", extra)
		}
	}
	if _, err := checkPlanFile("plan.json", raw); err != nil {
		t.Fatalf("the file itself: %v", err)
	}
	// Edits whose SHA-256 line was made again to match: only bytes offsettui writes pass.
	content, _, _ := splitSHA256(raw)
	resigned := func(c []byte) []byte {
		return append(bytes.Clone(c), `  "sha256": "`+sha256Hex(c)+"\"\n}\n"...)
	}
	for name, c := range map[string][]byte{
		"a space added":  bytes.Replace(content, []byte(`"group": `), []byte(`"group":  `), 1),
		"a member added": bytes.Replace(content, []byte("  \"plan\": {"), []byte("  \"extra\": 1,\n  \"plan\": {"), 1),
		"nothing":        content,
	} {
		_, err := checkPlanFile("plan.json", resigned(c))
		if (name == "nothing") != (err == nil) {
			t.Errorf("%s, its SHA-256 made again: %v", name, err)
		}
	}
	_, err := checkPlanFile("x.manifest.json", []byte(`{"format":"offsettui-backup/1","group":"g"}`))
	if err == nil || !strings.Contains(err.Error(), `not an offsettui plan file (format "offsettui-backup/1"`) {
		t.Errorf("a backup manifest: %v", err)
	}
}

// TestPlanFileRefusesWhatOffsettuiNeverWrites: a hand-made file that checks itself (its
// SHA-256 recomputed) but holds an executed plan, a blocked one, or another readAt is refused.
func TestPlanFileRefusesWhatOffsettuiNeverWrites(t *testing.T) {
	_, p := latestPlan(t, &fakeCluster{state: twoPartitions()})
	for _, tc := range []struct {
		name string
		edit func(*plan.Plan, *planFileDoc)
		want string
	}{
		{"executed", func(p *plan.Plan, _ *planFileDoc) { p.Executed = true }, "executed plan"},
		{"blocked", func(p *plan.Plan, _ *planFileDoc) {
			p.Blockers = []plan.Blocker{{Kind: plan.BlockGroupNotEmpty, Message: "live"}}
		}, "blockers"},
		{"results", func(p *plan.Plan, _ *planFileDoc) { p.Rows[0].Result = plan.WriteWritten }, "results"},
		{"readAt", func(_ *plan.Plan, d *planFileDoc) { d.ReadAt = model.Stamp{Time: d.ReadAt.Add(time.Second)} }, "readAt"},
		{"no cluster", func(_ *plan.Plan, d *planFileDoc) { d.ClusterID = "" }, "no cluster"},
	} {
		q := p
		q.Rows = append([]plan.Row(nil), p.Rows...)
		doc := planFileDoc{Format: planFileFormat, ClusterID: "c1", ReadAt: *p.ReadAt, PlannedBy: "mallory"}
		tc.edit(&q, &doc)
		doc.Plan, _ = marshalPlan(q)
		b, _, _ := planFileBytes(doc)
		if _, err := checkPlanFile("plan.json", b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a refusal saying %q", tc.name, err, tc.want)
		}
	}
}

// TestPlanFileOnlyOfAnApplicablePlan: a blocked plan is not written (nobody could apply it),
// nor one whose cluster id is unknown; a plan blocked only by the planner's read-only is
// written without that blocker; an existing file is never overwritten.
func TestPlanFileOnlyOfAnApplicablePlan(t *testing.T) {
	dir := t.TempDir()
	live := twoPartitions()
	live.State, live.Members = "Stable", []model.Member{{MemberRef: model.MemberRef{ClientID: "c"}}}
	_, blocked := latestPlan(t, &fakeCluster{state: twoPartitions()})
	blocked = blocked.Refresh(live)
	if _, err := WritePlanFile(filepath.Join(dir, "blocked.json"), blocked, planAuthor); !errors.Is(err, ErrPlanBlocked) {
		t.Errorf("blocked plan: %v; want ErrPlanBlocked", err)
	}
	noID := twoPartitions()
	noID.ClusterID = nil
	_, p := latestPlan(t, &fakeCluster{state: noID})
	if _, err := WritePlanFile(filepath.Join(dir, "noid.json"), p, planAuthor); err == nil || !strings.Contains(err.Error(), "cluster's id is unknown") {
		t.Errorf("unknown cluster id: %v", err)
	}
	if fs := files(t, dir); len(fs) != 0 {
		t.Errorf("refused plan files left %v", fs)
	}

	ro := twoPartitions()
	ro.ReadOnly = true
	s, p := latestPlan(t, &fakeCluster{state: twoPartitions()})
	s.ReadOnly = true
	p, _, _ = s.Recheck(context.Background(), p)
	if p.Executable() {
		t.Fatal("the read-only plan is not blocked")
	}
	path := filepath.Join(dir, "ro.json")
	if _, err := WritePlanFile(path, p, planAuthor); err != nil {
		t.Fatalf("read-only plan: %v", err)
	}
	pf, err := LoadPlanFile(path)
	if err != nil || len(pf.Blockers) != 0 {
		t.Errorf("read back %v, blockers %+v", err, pf.Blockers)
	}
	if _, err := WritePlanFile(path, pf, planAuthor); err == nil {
		t.Error("an existing plan file was overwritten")
	}
}

// TestApplyWritesTheReviewedPlan: a plan file's plan executed by the service writes its
// reviewed targets, not the end the log has grown to, and the audit log names who planned
// and who applied it and the plan file; a commit moved since, a member joined, or another
// cluster refuse it with nothing written.
func TestApplyWritesTheReviewedPlan(t *testing.T) {
	_, p := latestPlan(t, &fakeCluster{state: twoPartitions()})
	path, _ := writtenPlanFile(t, p)
	pf, err := LoadPlanFile(path)
	if err != nil {
		t.Fatal(err)
	}
	grown := twoPartitions()
	for tp := range grown.Offsets {
		grown.Offsets[tp] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(20))}
	}
	f := &fakeCluster{state: grown, readBack: map[model.TP]int64{tpA: 10, tpB: 10}}
	dir := t.TempDir()
	s := &Service{Cluster: f, BackupDir: dir, User: "bob", ClusterName: func() string { return "k:9092" }}
	res := s.Execute(context.Background(), pf)
	if res.Outcome != plan.OutcomeApplied || f.committed[tpA] != 10 || f.committed[tpB] != 10 {
		t.Fatalf("outcome %s, committed %v; want applied at the reviewed 10, 10 (notes %v)", res.Outcome, f.committed, res.Notes)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "audit.log"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("audit log %s", b)
	}
	for _, l := range lines {
		var e auditEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if e.PlannedBy != "alice" || e.AppliedBy != "bob" || e.User != "bob" || e.PlanFile == nil || e.PlanFile.Path != path || e.PlanFile.SHA256 != pf.Reviewed.SHA256 {
			t.Errorf("audit line %s; want plannedBy alice, appliedBy bob, the plan file", l)
		}
	}

	for _, tc := range []struct {
		name string
		edit func(*plan.Input)
		kind plan.BlockerKind
		want string
	}{
		{"commit moved", func(in *plan.Input) { in.Committed[tpB] = 7 }, plan.BlockDrift, "committed offset of t-1 changed from 5 to 7 since the plan"},
		{"member joined", func(in *plan.Input) {
			in.State, in.Members = "Stable", []model.Member{{MemberRef: model.MemberRef{ClientID: "svc", Host: "/10.0.0.1"}}}
		}, plan.BlockGroupNotEmpty, "svc on /10.0.0.1"},
		{"another cluster", func(in *plan.Input) { in.ClusterID = model.Ptr("c2") }, plan.BlockOtherCluster, "this is cluster c2"},
	} {
		state := twoPartitions()
		tc.edit(&state)
		f := &fakeCluster{state: state}
		dir := t.TempDir()
		s := &Service{Cluster: f, BackupDir: dir, User: "bob"}
		now, _, err := s.Recheck(context.Background(), pf)
		if err != nil || now.Executable() || now.Blockers[0].Kind != tc.kind || !strings.Contains(now.Blockers[0].Message, tc.want) {
			t.Errorf("%s: recheck %v, blockers %+v; want %s saying %q", tc.name, err, now.Blockers, tc.kind, tc.want)
		}
		res := s.Execute(context.Background(), pf)
		if res.Outcome != plan.OutcomeRefused || f.commits != 0 || len(files(t, dir)) != 0 {
			t.Errorf("%s: outcome %s, %d commits, files %v; want refused, nothing written", tc.name, res.Outcome, f.commits, files(t, dir))
		}
	}
}

// FuzzPlanFile: whatever the bytes, reading a plan file never panics, and what it accepts
// is exactly what offsettui writes for what it read.
func FuzzPlanFile(f *testing.F) {
	fc := &fakeCluster{state: twoPartitions()}
	s := &Service{Cluster: fc}
	st, _ := plan.ParseStrategy(plan.ToLatest, "", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToLatest)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil {
		f.Fatal(err)
	}
	raw, _ := marshalPlan(p)
	good, _, _ := planFileBytes(planFileDoc{Format: planFileFormat, ClusterID: "c1", ReadAt: *p.ReadAt, PlannedBy: "a", Plan: raw})
	f.Add(good)
	f.Add([]byte(`{"format":"offsettui-plan/1"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := checkPlanFile("f", b)
		if err != nil {
			return
		}
		raw, _ := marshalPlan(p)
		r := p.Reviewed
		doc := planFileDoc{Format: planFileFormat, ClusterID: r.ClusterID, Bootstrap: r.Bootstrap, ReadAt: *p.ReadAt,
			PlannedBy: r.PlannedBy, PlannedWith: r.PlannedWith, PlannedAt: model.Stamp{Time: r.PlannedAt}, Plan: raw}
		if again, _, _ := planFileBytes(doc); !bytes.Equal(again, b) {
			t.Errorf("accepted bytes offsettui would not write:\n%s\nit writes\n%s", b, again)
		}
	})
}
