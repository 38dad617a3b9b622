package reset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// fakeCluster is a Cluster whose answers a test sets: per-partition refusals,
// a commit request that fails as a whole, a read-back that shows what another
// client committed since, or that fails.
type fakeCluster struct {
	state     plan.Input
	readBack  map[model.TP]int64
	readErr   error
	rejected  map[model.TP]string // partition → Kafka error code
	commitErr error
	commits   int
	committed map[model.TP]int64
}

func (f *fakeCluster) ReadPlanInput(context.Context, string, []string, time.Time) (plan.Input, error) {
	return f.state, nil
}
func (f *fakeCluster) TargetTimestamps(context.Context, []model.TPO, int64) map[model.TPO]time.Time {
	return nil
}
func (f *fakeCluster) CommitOffsets(_ context.Context, group string, offs map[model.TP]int64) ([]model.Error, error) {
	f.commits++
	f.committed = offs
	var out []model.Error
	for tp, code := range f.rejected {
		e := model.Error{Kind: model.KindBroker, Code: model.Ptr(code), Message: "commit rejected"}
		out = append(out, *e.WithPartition(tp).WithGroup(group))
	}
	return out, f.commitErr
}
func (f *fakeCluster) DeleteOffsets(context.Context, string, []model.TP) ([]model.Error, error) {
	return nil, nil
}
func (f *fakeCluster) DeleteGroup(context.Context, string, []model.TP) ([]model.Error, error) {
	return nil, nil
}
func (f *fakeCluster) Committed(context.Context, string) (map[model.TP]int64, error) {
	return f.readBack, f.readErr
}
func (f *fakeCluster) AlterShareOffsets(context.Context, string, map[model.TP]int64) ([]model.Error, error) {
	panic("a share-group write for a consumer group")
}
func (f *fakeCluster) DeleteShareOffsets(context.Context, string, []model.TP) ([]model.Error, error) {
	panic("a share-group delete for a consumer group")
}
func (f *fakeCluster) ShareStartOffsets(context.Context, string) (map[model.TP]int64, error) {
	panic("a share-group read-back for a consumer group")
}
func (f *fakeCluster) ShareUnwritable(context.Context, string) string {
	panic("a share-group write check for a consumer group")
}

var (
	tpA = model.TP{Topic: "t", Partition: 0}
	tpB = model.TP{Topic: "t", Partition: 1}
)

// twoPartitions is group g, Empty, committed at 5 on t-0 and t-1 (low 0, high 10).
func twoPartitions() plan.Input {
	return plan.Input{Group: "g", State: "Empty", GroupExists: true, ClusterID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true),
		Committed:  map[model.TP]int64{tpA: 5, tpB: 5},
		Partitions: map[string]int{"t": 2},
		Offsets: map[model.TP]model.PartitionOffsets{
			tpA: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))},
			tpB: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))},
		}}
}

// planToOne plans --to-offset 1 --all-topics on f and executes it.
func planToOne(t *testing.T, f *fakeCluster, dir string, before func(s *Service)) (*Service, Result) {
	t.Helper()
	s := &Service{Cluster: f, BackupDir: dir, ClusterName: func() string { return "k:9092" },
		UndoCommand: func(g, b string) string { return "offsettui reset --group " + g + " --restore " + b + " --execute" }}
	if before != nil {
		before(s)
	}
	st, err := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	return s, s.Execute(context.Background(), p)
}

// auditEvents returns the event (and the outcome's result) of each audit.log line.
func auditEvents(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "audit.log"))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e struct {
			Event  string  `json:"event"`
			Result *string `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		if e.Result != nil {
			e.Event += ":" + *e.Result
		}
		out = append(out, e.Event)
	}
	return out
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestCommitRequestFailureIsClassifiedByReadBack: when the commit request gets
// no answer, what was written comes from reading the offsets back; a partition
// that does not show its target is unknown (the request may still land), never
// "nothing written".
func TestCommitRequestFailureIsClassifiedByReadBack(t *testing.T) {
	for _, c := range []struct {
		name     string
		readBack map[model.TP]int64
		want     plan.ResetOutcome
	}{
		{"it was applied after all", map[model.TP]int64{tpA: 1, tpB: 1}, plan.OutcomeApplied},
		{"nothing shows yet", map[model.TP]int64{tpA: 5, tpB: 5}, plan.OutcomeFailed},
		{"half shows", map[model.TP]int64{tpA: 1, tpB: 5}, plan.OutcomeFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeCluster{state: twoPartitions(), readBack: c.readBack, commitErr: errors.New("i/o timeout")}
			_, res := planToOne(t, f, t.TempDir(), nil)
			if res.Outcome != c.want || !res.Plan.Executed || res.Plan.Undo == nil || f.commits != 1 {
				t.Errorf("outcome %s executed %v undo %v commits %d; want %s, executed, an undo (notes %v)",
					res.Outcome, res.Plan.Executed, res.Plan.Undo, f.commits, c.want, res.Notes)
			}
		})
	}
}

// TestEveryPartitionRefusedIsNothingWritten: a consumer joined during the commit
// and the broker refused every partition (UNKNOWN_MEMBER_ID): refused, exit 3,
// no undo, the unused backup removed, the audit log holds the intent and a
// refused outcome.
func TestEveryPartitionRefusedIsNothingWritten(t *testing.T) {
	dir := t.TempDir()
	f := &fakeCluster{state: twoPartitions(), rejected: map[model.TP]string{tpA: "UNKNOWN_MEMBER_ID", tpB: "UNKNOWN_MEMBER_ID"},
		readBack: map[model.TP]int64{tpA: 7, tpB: 7}} // the consumer's own commits
	_, res := planToOne(t, f, dir, nil)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || res.Plan.Undo != nil || res.Plan.Backup != nil {
		t.Fatalf("outcome %s executed %v undo %v backup %v; want refused, nothing written, no undo (notes %v)",
			res.Outcome, res.Plan.Executed, res.Plan.Undo, res.Plan.Backup, res.Notes)
	}
	if fs := files(t, dir); len(fs) != 1 || fs[0] != "audit.log" {
		t.Errorf("state dir holds %v; want only audit.log (the unused backup removed)", fs)
	}
	if ev := auditEvents(t, dir); strings.Join(ev, ",") != "intent,outcome:refused" {
		t.Errorf("audit events %v", ev)
	}
}

// TestPartlyRefusedUndoesOnlyWhatWasWritten: the undo file holds only the
// partition that was written; the refused one is listed and not touched by it.
func TestPartlyRefusedUndoesOnlyWhatWasWritten(t *testing.T) {
	f := &fakeCluster{state: twoPartitions(), rejected: map[model.TP]string{tpB: "TOPIC_AUTHORIZATION_FAILED"},
		readBack: map[model.TP]int64{tpA: 1, tpB: 5}}
	_, res := planToOne(t, f, t.TempDir(), nil)
	if res.Outcome != plan.OutcomePartlyApplied || len(res.Plan.Rejected) != 1 || res.Plan.Undo == nil {
		t.Fatalf("outcome %s rejected %v undo %v", res.Outcome, res.Plan.Rejected, res.Plan.Undo)
	}
	if res.Plan.Rows[0].Result != plan.WriteWritten || res.Plan.Rows[1].Result != plan.WriteRejected {
		t.Errorf("row results %s, %s", res.Plan.Rows[0].Result, res.Plan.Rows[1].Result)
	}
	undo := strings.Fields(*res.Plan.Undo)[5]
	b, err := LoadBackup(undo, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Rows) != 1 || b.Rows[0].TP() != tpA || *b.Rows[0].Offset != 5 || b.Manifest.Purpose != "undo" {
		t.Errorf("undo file %s rows %+v manifest %+v; want only t-0 back to 5", undo, b.Rows, b.Manifest)
	}
}

// TestChangedSinceIsReportedAsSuch: the broker took the commit, then a member
// committed before the read-back: the row says changed-since (exit 4), not a
// failed verification.
func TestChangedSinceIsReportedAsSuch(t *testing.T) {
	f := &fakeCluster{state: twoPartitions(), readBack: map[model.TP]int64{tpA: 1, tpB: 9}}
	_, res := planToOne(t, f, t.TempDir(), nil)
	if res.Outcome != plan.OutcomePartlyApplied || res.Plan.Rows[1].Result != plan.WriteChanged ||
		!strings.Contains(strings.Join(res.Notes, "\n"), "written, then changed to 9") {
		t.Errorf("outcome %s rows %+v notes %v", res.Outcome, res.Plan.Rows, res.Notes)
	}
}

// TestReadBackFailureAfterAcknowledgedCommit: acknowledged but unreadable is
// written-unverified, exit 1, and the undo is printed.
func TestReadBackFailureAfterAcknowledgedCommit(t *testing.T) {
	f := &fakeCluster{state: twoPartitions(), readErr: errors.New("connection refused")}
	_, res := planToOne(t, f, t.TempDir(), nil)
	if res.Outcome != plan.OutcomeFailed || res.Plan.Undo == nil || res.Plan.Rows[0].Result != plan.WriteUnverified {
		t.Errorf("outcome %s undo %v rows %+v", res.Outcome, res.Plan.Undo, res.Plan.Rows)
	}
}

// TestNoAuditNoCommit: an audit log that cannot be written stops the commit and
// leaves no backup behind.
func TestNoAuditNoCommit(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "audit.log"), 0o700); err != nil { // a directory: not appendable
		t.Fatal(err)
	}
	f := &fakeCluster{state: twoPartitions()}
	_, res := planToOne(t, f, dir, nil)
	if res.Outcome != plan.OutcomeRefused || f.commits != 0 || res.Plan.Backup != nil {
		t.Fatalf("outcome %s commits %d backup %v; want refused before any commit", res.Outcome, f.commits, res.Plan.Backup)
	}
	if fs := files(t, dir); len(fs) != 1 {
		t.Errorf("state dir holds %v; want the backup removed", fs)
	}
}

// TestSignalDuringCommitAwaitsTheAnswer: a context cancelled (SIGTERM) once the
// commit is on its way does not abandon it: the answer is read, the outcome
// audited and the undo set.
func TestSignalDuringCommitAwaitsTheAnswer(t *testing.T) {
	dir := t.TempDir()
	f := &fakeCluster{state: twoPartitions(), readBack: map[model.TP]int64{tpA: 1, tpB: 1}}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{Cluster: f, BackupDir: dir, UndoCommand: func(g, b string) string { return "undo " + b }}
	s.beforeWrite = cancel
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(ctx, "g", sc, st)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Execute(ctx, p)
	if res.Outcome != plan.OutcomeApplied || res.Plan.Undo == nil || f.commits != 1 {
		t.Fatalf("outcome %s undo %v commits %d", res.Outcome, res.Plan.Undo, f.commits)
	}
	if ev := auditEvents(t, dir); strings.Join(ev, ",") != "intent,outcome:applied" {
		t.Errorf("audit events %v", ev)
	}
	// Cancelled before the re-read: a cancel, nothing written at all, no backup, one audit
	// line saying so.
	f.commits = 0
	before := files(t, dir)
	res = s.Execute(ctx, p)
	if res.Outcome != plan.OutcomeCancelled || f.commits != 0 || res.Plan.Backup != nil || len(res.Plan.Blockers) > 0 {
		t.Errorf("cancelled before the commit: outcome %s commits %d backup %v blockers %v", res.Outcome, f.commits, res.Plan.Backup, res.Plan.Blockers)
	}
	if ev := auditEvents(t, dir); strings.Join(ev, ",") != "intent,outcome:applied,outcome:cancelled" {
		t.Errorf("audit events %v", ev)
	}
	if after := files(t, dir); len(after) != len(before)+0 || !slices.Equal(after, before) {
		t.Errorf("files %v, were %v: a cancel leaves no backup", after, before)
	}
}

// TestDeadlineIsNoCancel: a context whose deadline passed (--timeout) before the re-read is
// a refusal, as before, not a cancel.
func TestDeadlineIsNoCancel(t *testing.T) {
	dir := t.TempDir()
	f := &fakeCluster{state: twoPartitions(), readBack: map[model.TP]int64{tpA: 1, tpB: 1}}
	s := &Service{Cluster: f, BackupDir: dir}
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if res := s.Execute(ctx, p); res.Outcome != plan.OutcomeRefused || f.commits != 0 {
		t.Errorf("outcome %s commits %d", res.Outcome, f.commits)
	}
}

// TestLongGroupNameCanBeBackedUp: a 300-character group name gives a backup
// name within file-system limits, distinct per group.
func TestLongGroupNameCanBeBackedUp(t *testing.T) {
	long := strings.Repeat("a", 300)
	in := twoPartitions()
	in.Group = long
	f := &fakeCluster{state: in, readBack: map[model.TP]int64{tpA: 1, tpB: 1}}
	s := &Service{Cluster: f, BackupDir: t.TempDir()}
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(context.Background(), long, sc, st)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Execute(context.Background(), p)
	if res.Outcome != plan.OutcomeApplied || res.Plan.Backup == nil || len(filepath.Base(*res.Plan.Backup)) > 200 {
		t.Fatalf("outcome %s backup %v notes %v", res.Outcome, res.Plan.Backup, res.Notes)
	}
	if a, b := backupName(long, "x", ""), backupName(long+"b", "x", ""); a == b {
		t.Errorf("two long names share the backup name %s", a)
	}
}

// notSentCluster fails the commit before sending it: its coordinator could not
// be found.
type notSentCluster struct{ fakeCluster }

func (f *notSentCluster) CommitOffsets(context.Context, string, map[model.TP]int64) ([]model.Error, error) {
	f.commits++
	return nil, fmt.Errorf("%w: find the coordinator of g: i/o timeout", plan.ErrNotSent)
}

// TestCommitNeverSentIsNothingWritten: a commit request that never left (no
// coordinator) wrote nothing and can never land: refused, exit 3, no undo, no
// backup left — not "unknown, may still be applied".
func TestCommitNeverSentIsNothingWritten(t *testing.T) {
	dir := t.TempDir()
	f := &notSentCluster{fakeCluster{state: twoPartitions(), readBack: map[model.TP]int64{tpA: 5, tpB: 5}}}
	s := &Service{Cluster: f, BackupDir: dir, UndoCommand: func(g, b string) string { return "undo " + b }}
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Execute(context.Background(), p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Undo != nil || res.Plan.Backup != nil ||
		!strings.Contains(strings.Join(res.Notes, "\n"), "the request was never sent") {
		t.Errorf("outcome %s undo %v backup %v notes %v", res.Outcome, res.Plan.Undo, res.Plan.Backup, res.Notes)
	}
}

// TestPlanStampsItsReads: a plan carries when its state was read; executed, it carries the
// time of the read made right before the write (its rows' offsets are that read's), and when
// its commits were read back, by the service's clock; a read-back that failed has no time.
func TestPlanStampsItsReads(t *testing.T) {
	clock := time.Date(2026, 11, 29, 8, 53, 36, 0, time.UTC)
	for _, readErr := range []error{nil, errors.New("coordinator gone")} {
		f := &fakeCluster{state: twoPartitions(), readBack: map[model.TP]int64{tpA: 1, tpB: 1}, readErr: readErr}
		s := &Service{Cluster: f, BackupDir: t.TempDir(), Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
		st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
		sc, _ := plan.NewScope(true, nil, plan.ToOffset)
		p, err := s.Plan(context.Background(), "g", sc, st)
		if err != nil || p.ReadAt == nil {
			t.Fatalf("plan: %v, readAt %v", err, p.ReadAt)
		}
		planned := p.ReadAt.Time
		res := s.Execute(context.Background(), p)
		got := res.Plan
		switch {
		case got.ReadAt == nil || !got.ReadAt.After(planned):
			t.Errorf("read-back error %v: executed plan's readAt %v, want the read before the write, after the plan's %v", readErr, got.ReadAt, planned)
		case readErr == nil && (got.ReadBackAt == nil || !got.ReadBackAt.After(got.ReadAt.Time)):
			t.Errorf("readBackAt %v, want after readAt %v", got.ReadBackAt, got.ReadAt)
		case readErr != nil && got.ReadBackAt != nil:
			t.Errorf("failed read-back: readBackAt %v, want none", got.ReadBackAt)
		}
	}
}
