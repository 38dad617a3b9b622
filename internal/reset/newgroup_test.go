package reset

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// A reset of a group no broker lists is blocked unless --allow-new-group
// (AllowNewGroup); the restore of the group's own backup, and of another
// group's, is not blocked, and says it creates the group.
func TestPlansForAGroupThatDoesNotExist(t *testing.T) {
	gone := twoPartitions()
	gone.State, gone.GroupExists, gone.Committed = "Dead", false, map[model.TP]int64{}
	f := &fakeCluster{state: gone}
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(false, []string{"t"}, plan.ToOffset)
	for _, allow := range []bool{false, true} {
		s := &Service{Cluster: f, BackupDir: t.TempDir(), AllowNewGroup: allow}
		p, err := s.Plan(context.Background(), "g", sc, st)
		if err != nil {
			t.Fatal(err)
		}
		blocked := len(p.Blockers) == 1 && p.Blockers[0].Kind == plan.BlockGroupNotFound
		noted := len(p.Notes) == 1 && p.Notes[0].Kind == plan.NoteNewGroup
		if blocked == allow || noted != allow {
			t.Errorf("allow %v: blockers %+v notes %+v", allow, p.Blockers, p.Notes)
		}
	}
	backup := Backup{Path: "g.csv", Manifest: Manifest{Group: "g", ClusterID: model.Ptr("c1")},
		Rows: []plan.CSVRow{{Topic: "t", Partition: 0, Offset: model.Ptr(int64(5))}}}
	gone.ClusterID = model.Ptr("c1")
	f.state = gone
	s := &Service{Cluster: f, BackupDir: t.TempDir()}
	for _, c := range []struct {
		group, want string
	}{
		{"g", "group g does not exist: restoring its own backup (the undo of deleting it) creates it"},
		{"h", "group h does not exist: copying another group's positions creates it"},
	} {
		f.state.Group = c.group
		p, err := s.PlanRestore(context.Background(), c.group, backup, RestoreOptions{OtherGroup: true})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Executable() || len(p.Notes) != 1 || p.Notes[0].Message != c.want {
			t.Errorf("restore onto %s: blockers %+v notes %+v; want executable, noting %q", c.group, p.Blockers, p.Notes, c.want)
		}
	}
}
