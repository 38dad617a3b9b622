package reset

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// callLog is a Cluster that records every write and read-back call by name and reads back
// what the plan wrote.
type callLog struct {
	state plan.Input
	calls []string
	pos   map[model.TP]int64
	// reject refuses every partition of a write with this Kafka error code.
	reject string
	// unwritable is ShareUnwritable's answer.
	unwritable string
}

func (f *callLog) ReadPlanInput(context.Context, string, []string, time.Time) (plan.Input, error) {
	return f.state, nil
}
func (f *callLog) TargetTimestamps(context.Context, []model.TPO, int64) map[model.TPO]time.Time {
	return nil
}
func (f *callLog) set(name string, offs map[model.TP]int64) ([]model.Error, error) {
	f.calls = append(f.calls, name)
	if f.reject != "" {
		var out []model.Error
		for tp := range offs {
			e := model.Error{Kind: model.KindBroker, Code: model.Ptr(f.reject), Message: "rejected"}
			out = append(out, *e.WithPartition(tp).WithGroup("g"))
		}
		return out, nil
	}
	for tp, o := range offs {
		f.pos[tp] = o
	}
	return nil, nil
}
func (f *callLog) del(name string, tps []model.TP) ([]model.Error, error) {
	f.calls = append(f.calls, name)
	for tp := range f.pos {
		for _, d := range tps {
			if d.Topic == tp.Topic && (name == "DeleteShareOffsets" || d == tp) {
				delete(f.pos, tp)
			}
		}
	}
	return nil, nil
}
func (f *callLog) CommitOffsets(_ context.Context, _ string, o map[model.TP]int64) ([]model.Error, error) {
	return f.set("CommitOffsets", o)
}
func (f *callLog) DeleteOffsets(_ context.Context, _ string, tps []model.TP) ([]model.Error, error) {
	return f.del("DeleteOffsets", tps)
}
func (f *callLog) DeleteGroup(_ context.Context, _ string, tps []model.TP) ([]model.Error, error) {
	return f.del("DeleteGroup", tps)
}
func (f *callLog) Committed(context.Context, string) (map[model.TP]int64, error) {
	f.calls = append(f.calls, "Committed")
	return f.pos, nil
}
func (f *callLog) AlterShareOffsets(_ context.Context, _ string, o map[model.TP]int64) ([]model.Error, error) {
	return f.set("AlterShareOffsets", o)
}
func (f *callLog) DeleteShareOffsets(_ context.Context, _ string, tps []model.TP) ([]model.Error, error) {
	return f.del("DeleteShareOffsets", tps)
}
func (f *callLog) ShareStartOffsets(context.Context, string) (map[model.TP]int64, error) {
	f.calls = append(f.calls, "ShareStartOffsets")
	return f.pos, nil
}
func (f *callLog) ShareUnwritable(context.Context, string) string {
	f.calls = append(f.calls, "ShareUnwritable")
	return f.unwritable
}

// TestWriterPerGroupType: the one executor writes and reads back through the calls of the
// group's type: share groups through DeleteShareGroupOffsets (first, per topic) /
// AlterShareGroupOffsets / DescribeShareGroupOffsets, every other type through
// OffsetCommit / OffsetDelete / OffsetFetch, never the other's; and the read-back verifies.
func TestWriterPerGroupType(t *testing.T) {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{model.TypeShare, []string{"DeleteShareOffsets", "AlterShareOffsets", "ShareStartOffsets"}},
		{model.TypeStreams, []string{"CommitOffsets", "DeleteOffsets", "Committed"}},
		{model.TypeConsumer, []string{"CommitOffsets", "DeleteOffsets", "Committed"}},
		{model.TypeClassic, []string{"CommitOffsets", "DeleteOffsets", "Committed"}},
	} {
		t.Run(c.typ, func(t *testing.T) {
			state := plan.Input{Group: "g", Type: c.typ, State: "Empty", GroupExists: true, ClusterID: model.Ptr("c1"),
				Committed: map[model.TP]int64{tpA: 5, tpB: 5}, Partitions: map[string]int{"t": 2},
				Offsets: map[model.TP]model.PartitionOffsets{tpA: wm, tpB: wm}}
			f := &callLog{state: state, pos: map[model.TP]int64{tpA: 5, tpB: 5}}
			s := &Service{Cluster: f, BackupDir: t.TempDir()}
			// Restore a backup in which t-1 had no position: one write, one delete.
			st := plan.Strategy{Kind: plan.Restore, Raw: "backup.csv", File: []plan.CSVRow{
				{Topic: "t", Partition: 0, Offset: model.Ptr(int64(3))}, {Topic: "t", Partition: 1}}}
			p, err := s.Plan(context.Background(), "g", plan.Scope{}, st)
			if err != nil || !p.Executable() {
				t.Fatalf("plan %+v %v", p, err)
			}
			res := s.Execute(context.Background(), p)
			if !slices.Equal(f.calls, c.want) || res.Outcome != plan.OutcomeApplied {
				t.Errorf("calls %v outcome %s, want %v and applied (notes %v)", f.calls, res.Outcome, c.want, res.Notes)
			}
		})
	}
}

// TestShareGroupRefusedByTheBroker: a share group whose member joined between the re-read and
// the write gets NON_EMPTY_GROUP for every partition: refused, exit 3, no undo, the unused
// backup removed, and the audit log holds the intent and a refused outcome, as for any type.
func TestShareGroupRefusedByTheBroker(t *testing.T) {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}
	state := plan.Input{Group: "g", Type: model.TypeShare, State: "Empty", GroupExists: true, ClusterID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true),
		Committed: map[model.TP]int64{tpA: 5, tpB: 5}, Partitions: map[string]int{"t": 2},
		Offsets: map[model.TP]model.PartitionOffsets{tpA: wm, tpB: wm}}
	dir := t.TempDir()
	f := &callLog{state: state, pos: map[model.TP]int64{tpA: 5, tpB: 5}, reject: "NON_EMPTY_GROUP"}
	s := &Service{Cluster: f, BackupDir: dir, ClusterName: func() string { return "k:9092" },
		UndoCommand: func(g, b string) string { return "offsettui reset --group " + g + " --restore " + b + " --execute" }}
	p, err := s.Plan(context.Background(), "g", plan.Scope{AllTopics: true}, plan.Strategy{Kind: plan.ToEarliest})
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	res := s.Execute(context.Background(), p)
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
	if !slices.Equal(f.calls, []string{"AlterShareOffsets", "ShareStartOffsets"}) {
		t.Errorf("calls %v, want the share write and read-back only", f.calls)
	}
}

// TestRestoreHoldsDeletesBackWhenEveryCommitIsRefused: a restore whose every commit the
// broker refuses for live members (UNKNOWN_MEMBER_ID) sends no OffsetDelete: refused,
// nothing written, rather than half a restore on a live group.
func TestRestoreHoldsDeletesBackWhenEveryCommitIsRefused(t *testing.T) {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}
	state := plan.Input{Group: "g", Type: model.TypeClassic, State: "Empty", GroupExists: true, ClusterID: model.Ptr("c1"),
		Committed: map[model.TP]int64{tpA: 5, tpB: 5}, Partitions: map[string]int{"t": 2},
		Offsets: map[model.TP]model.PartitionOffsets{tpA: wm, tpB: wm}}
	f := &callLog{state: state, pos: map[model.TP]int64{tpA: 5, tpB: 5}, reject: "UNKNOWN_MEMBER_ID"}
	s := &Service{Cluster: f, BackupDir: t.TempDir()}
	st := plan.Strategy{Kind: plan.Restore, Raw: "backup.csv", File: []plan.CSVRow{
		{Topic: "t", Partition: 0, Offset: model.Ptr(int64(3))}, {Topic: "t", Partition: 1}}}
	p, err := s.Plan(context.Background(), "g", plan.Scope{}, st)
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	res := s.Execute(context.Background(), p)
	if slices.Contains(f.calls, "DeleteOffsets") {
		t.Errorf("calls %v: deletes sent after every commit was refused", f.calls)
	}
	if res.Outcome != plan.OutcomeRefused || f.pos[tpB] != 5 {
		t.Errorf("outcome %s, t-1 at %d; want refused and untouched (notes %v)", res.Outcome, f.pos[tpB], res.Notes)
	}
}

// TestDeleteOffsetsAndDeleteGroupWrites: a delete-offsets plan sends one OffsetDelete with
// every partition (a share group: DeleteShareGroupOffsets) and reads back; a delete-group
// plan sends DeleteGroups, never OffsetDelete; both back up every commit they remove first,
// in a backup that names the group's type.
func TestDeleteOffsetsAndDeleteGroupWrites(t *testing.T) {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}
	for _, c := range []struct {
		typ  string
		st   plan.Strategy
		want []string
	}{
		{model.TypeClassic, plan.DeleteOffsetsStrategy(), []string{"DeleteOffsets", "Committed"}},
		{model.TypeClassic, plan.DeleteGroupStrategy(), []string{"DeleteGroup", "Committed"}},
		{model.TypeShare, plan.DeleteOffsetsStrategy(), []string{"DeleteShareOffsets", "ShareStartOffsets"}},
		{model.TypeShare, plan.DeleteGroupStrategy(), []string{"DeleteGroup", "ShareStartOffsets"}},
	} {
		state := plan.Input{Group: "g", Type: c.typ, State: "Empty", GroupExists: true, ClusterID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true),
			Committed: map[model.TP]int64{tpA: 5, tpB: 5}, Partitions: map[string]int{"t": 2},
			Offsets: map[model.TP]model.PartitionOffsets{tpA: wm, tpB: wm}}
		f := &callLog{state: state, pos: map[model.TP]int64{tpA: 5, tpB: 5}}
		s := &Service{Cluster: f, BackupDir: t.TempDir()}
		p, err := s.Plan(context.Background(), "g", plan.Scope{AllTopics: true}, c.st)
		if err != nil || !p.Executable() {
			t.Fatalf("%s: plan %+v %v", c.st.Kind, p, err)
		}
		res := s.Execute(context.Background(), p)
		if !slices.Equal(f.calls, c.want) || res.Outcome != plan.OutcomeApplied || res.Plan.Backup == nil {
			t.Errorf("%s: calls %v outcome %s backup %v, want %v, applied, a backup (notes %v)", c.st.Kind, f.calls, res.Outcome, res.Plan.Backup, c.want, res.Notes)
			continue
		}
		b, err := LoadBackup(*res.Plan.Backup, "")
		if err != nil || len(b.Rows) != 2 || b.Manifest.GroupType != c.typ || b.Strategy().GroupType != c.typ {
			t.Errorf("%s %s: backup %+v %v, want both commits and the group's type", c.typ, c.st.Kind, b, err)
		}
	}
}

// TestShareBackupIntoAGoneGroup: the undo of deleting a share group (its backup, into a name
// no broker lists) is a share restore: AlterShareGroupOffsets makes the share group again,
// never an offset commit (which would make a classic group); a coordinator that cannot take
// it refuses the plan; and a share group's backup into a consumer group is refused.
func TestShareBackupIntoAGoneGroup(t *testing.T) {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}
	gone := plan.Input{Group: "g", ClusterID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true), Committed: map[model.TP]int64{},
		Partitions: map[string]int{"t": 2}, Offsets: map[model.TP]model.PartitionOffsets{tpA: wm, tpB: wm}}
	b := Backup{Path: "g.csv", Manifest: Manifest{Group: "g", ClusterID: model.Ptr("c1"), GroupType: model.TypeShare},
		Rows: []plan.CSVRow{{Topic: "t", Partition: 0, Offset: model.Ptr(int64(3))}, {Topic: "t", Partition: 1, Offset: model.Ptr(int64(4))}}}
	f := &callLog{state: gone, pos: map[model.TP]int64{}}
	s := &Service{Cluster: f, BackupDir: t.TempDir()}
	p, err := s.PlanRestore(context.Background(), "g", b, RestoreOptions{})
	if err != nil || !p.Executable() || p.Type != model.TypeShare {
		t.Fatalf("plan type %s blockers %+v %v; want an executable share restore", p.Type, p.Blockers, err)
	}
	res := s.Execute(context.Background(), p)
	want := []string{"ShareUnwritable", "ShareUnwritable", "AlterShareOffsets", "ShareStartOffsets"}
	if !slices.Equal(f.calls, want) || res.Outcome != plan.OutcomeApplied || f.pos[tpB] != 4 {
		t.Errorf("calls %v outcome %s positions %v; want %v, applied (notes %v)", f.calls, res.Outcome, f.pos, want, res.Notes)
	}

	f = &callLog{state: gone, unwritable: "broker 1 cannot reset share-group offsets"}
	s.Cluster = f
	if p, _ := s.PlanRestore(context.Background(), "g", b, RestoreOptions{}); p.Executable() || p.Blockers[0].Kind != plan.BlockWriteUnsupported {
		t.Errorf("a coordinator without AlterShareGroupOffsets: blockers %+v; want write-unsupported", p.Blockers)
	}

	consumer := gone
	consumer.Type, consumer.State, consumer.GroupExists = model.TypeConsumer, "Empty", true
	s.Cluster = &callLog{state: consumer}
	if p, _ := s.PlanRestore(context.Background(), "g", b, RestoreOptions{}); p.Type != model.TypeConsumer || !hasBlocker(p.Blockers, plan.BlockBackupMismatch) {
		t.Errorf("a share backup into a consumer group: type %s blockers %+v; want backup-mismatch", p.Type, p.Blockers)
	}
}

func hasBlocker(bs []plan.Blocker, k plan.BlockerKind) bool {
	return slices.ContainsFunc(bs, func(b plan.Blocker) bool { return b.Kind == k })
}
