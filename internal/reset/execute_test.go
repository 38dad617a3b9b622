package reset

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// fakeCluster is a Cluster whose commit request fails as a whole (a timeout) and
// whose read-back returns what the broker may or may not have applied.
type fakeCluster struct {
	state     model.PlanInput
	readBack  map[model.TP]int64
	commitErr error
	commits   int
	// calls records every write and read-back call by method name.
	calls []string
}

func (f *fakeCluster) ReadPlanInput(context.Context, string, []string, time.Time) (model.PlanInput, error) {
	return f.state, nil
}
func (f *fakeCluster) TargetTimestamps(context.Context, []model.TPO, int64) map[model.TPO]time.Time {
	return nil
}
func (f *fakeCluster) CommitOffsets(context.Context, string, map[model.TP]int64) ([]model.Error, error) {
	f.commits++
	f.calls = append(f.calls, "CommitOffsets")
	return nil, f.commitErr
}
func (f *fakeCluster) DeleteOffsets(context.Context, string, []model.TP) ([]model.Error, error) {
	f.calls = append(f.calls, "DeleteOffsets")
	return nil, nil
}
func (f *fakeCluster) Committed(context.Context, string) (map[model.TP]int64, error) {
	f.calls = append(f.calls, "Committed")
	return f.readBack, nil
}
func (f *fakeCluster) AlterShareOffsets(context.Context, string, map[model.TP]int64) ([]model.Error, error) {
	f.commits++
	f.calls = append(f.calls, "AlterShareOffsets")
	return nil, f.commitErr
}
func (f *fakeCluster) DeleteShareOffsets(context.Context, string, []model.TP) ([]model.Error, error) {
	f.calls = append(f.calls, "DeleteShareOffsets")
	return nil, nil
}
func (f *fakeCluster) ShareStartOffsets(context.Context, string) (map[model.TP]int64, error) {
	f.calls = append(f.calls, "ShareStartOffsets")
	return f.readBack, nil
}

// TestCommitRequestFailureIsClassifiedByReadBack: when the commit request fails
// as a whole, the outcome comes from reading the offsets back, not from a guess.
func TestCommitRequestFailureIsClassifiedByReadBack(t *testing.T) {
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
	state := model.PlanInput{Group: "g", State: "Empty", GroupExists: true,
		Committed:  map[model.TP]int64{a: 5, b: 5},
		Partitions: map[string]int{"t": 2},
		Offsets: map[model.TP]model.PartitionOffsets{
			a: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))},
			b: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))},
		}}
	for _, c := range []struct {
		name     string
		readBack map[model.TP]int64
		want     Outcome
		executed bool
	}{
		{"it was applied after all", map[model.TP]int64{a: 1, b: 1}, Applied, true},
		{"nothing was written", map[model.TP]int64{a: 5, b: 5}, Refused, false},
		{"half was written", map[model.TP]int64{a: 1, b: 5}, PartlyApplied, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeCluster{state: state, readBack: c.readBack, commitErr: errors.New("i/o timeout")}
			s := &Service{Cluster: f, BackupDir: t.TempDir()}
			st, err := model.ParseStrategy(model.ToOffset, "1", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := model.NewScope(true, nil, model.ToOffset)
			p, err := s.Plan(context.Background(), "g", sc, st)
			if err != nil || !p.Executable() {
				t.Fatalf("plan %+v %v", p, err)
			}
			res := s.Execute(context.Background(), p)
			if res.Outcome != c.want || res.Plan.Executed != c.executed || f.commits != 1 {
				t.Errorf("outcome %s executed %v commits %d; want %s %v 1 (notes %v)", res.Outcome, res.Plan.Executed, f.commits, c.want, c.executed, res.Notes)
			}
		})
	}
}

// TestWriterPerGroupType: the one executor writes and reads back through the calls of the
// group's type: share groups through DeleteShareGroupOffsets (first: per topic) /
// AlterShareGroupOffsets / DescribeShareGroupOffsets, every other type through
// OffsetCommit / OffsetDelete / OffsetFetch, never the other's.
func TestWriterPerGroupType(t *testing.T) {
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
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
			state := model.PlanInput{Group: "g", Type: c.typ, State: "Empty", GroupExists: true,
				Committed: map[model.TP]int64{a: 5}, Partitions: map[string]int{"t": 2},
				Offsets: map[model.TP]model.PartitionOffsets{a: wm, b: wm}}
			// Restore a backup in which b had no position: one write, one delete.
			f := &fakeCluster{state: state, readBack: map[model.TP]int64{a: 3}}
			s := &Service{Cluster: f, BackupDir: t.TempDir()}
			st := model.Strategy{Kind: model.Restore, Raw: "backup.csv", File: []model.CSVRow{
				{Topic: "t", Partition: 0, Offset: model.Ptr(int64(3))}, {Topic: "t", Partition: 1}}}
			p, err := s.Plan(context.Background(), "g", model.Scope{}, st)
			if err != nil || !p.Executable() {
				t.Fatalf("plan %+v %v", p, err)
			}
			res := s.Execute(context.Background(), p)
			if !slices.Equal(f.calls, c.want) {
				t.Errorf("calls %v, want %v (outcome %s, notes %v)", f.calls, c.want, res.Outcome, res.Notes)
			}
		})
	}
}
