package reset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// writeTestBackup writes a backup of group g on cluster c1 with three rows.
func writeTestBackup(t *testing.T, dir string) string {
	t.Helper()
	rows := []plan.CSVRow{
		{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(10))},
		{Topic: "orders", Partition: 2, Offset: model.Ptr(int64(35))},
		{Topic: "orders", Partition: 5},
	}
	m := Manifest{Group: "g", ClusterID: model.Ptr("c1"), Bootstrap: "k:9092", CreatedAt: model.Stamp{Time: time.Now()},
		Strategy: plan.Strategy{Kind: plan.ToEarliest}, Purpose: "backup"}
	path, err := writeBackup(dir, backupName("g", "20261130T030000.000Z", ""), m, rows)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadBackupRefusesWhatIsNotWhole: a backup cut mid-number, cut at a line
// end, edited, or without its manifest is refused with a reason; the file as
// written loads.
func TestLoadBackupRefusesWhatIsNotWhole(t *testing.T) {
	path := writeTestBackup(t, t.TempDir())
	orig, _ := os.ReadFile(path)
	if b, err := LoadBackup(path, ""); err != nil || len(b.Rows) != 3 || b.Manifest.Group != "g" {
		t.Fatalf("whole backup: %+v, %v", b, err)
	}
	for _, c := range []struct {
		name, content, want string
	}{
		{"cut mid-number", "orders,0,10\norders,2,3", "SHA-256 differs"},
		{"cut at a line end", "orders,0,10\norders,2,35\n", "SHA-256 differs"},
		{"edited", strings.Replace(string(orig), "35", "36", 1), "SHA-256 differs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadBackup(path, ""); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--from-file") {
				t.Errorf("err %v; want %q and the --from-file way out", err, c.want)
			}
		})
	}
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(manifestPath(path))
	if _, err := LoadBackup(path, ""); err == nil || !strings.Contains(err.Error(), "manifest") {
		t.Errorf("no manifest: err %v", err)
	}
}

// TestRestoreRefusesAnotherGroupsOrClustersBackup: the plan is blocked, naming
// the override flag; the flag lifts exactly that blocker.
func TestRestoreRefusesAnotherGroupsOrClustersBackup(t *testing.T) {
	b, err := LoadBackup(writeTestBackup(t, t.TempDir()), "")
	if err != nil {
		t.Fatal(err)
	}
	in := plan.Input{Group: "other", State: "Empty", GroupExists: true, ClusterID: model.Ptr("c2"),
		Committed: map[model.TP]int64{}, Partitions: map[string]int{"orders": 6}, Offsets: map[model.TP]model.PartitionOffsets{}}
	for p := int32(0); p < 6; p++ {
		in.Offsets[model.TP{Topic: "orders", Partition: p}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(100))}
	}
	s := &Service{Cluster: &fakeCluster{state: in}, BackupDir: t.TempDir()}
	group := "other"
	mismatch := func(opt RestoreOptions) []string {
		p, err := s.PlanRestore(context.Background(), group, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, bl := range p.Blockers {
			if bl.Kind == plan.BlockBackupMismatch {
				out = append(out, bl.Message)
			}
		}
		return out
	}
	got := mismatch(RestoreOptions{})
	if len(got) != 2 || !strings.Contains(got[0], "--allow-other-group") || !strings.Contains(got[1], "--allow-other-cluster") {
		t.Errorf("blockers %q", got)
	}
	if got := mismatch(RestoreOptions{OtherGroup: true}); len(got) != 1 || !strings.Contains(got[0], "cluster c1") {
		t.Errorf("with --allow-other-group: %q", got)
	}
	if got := mismatch(RestoreOptions{OtherGroup: true, OtherCluster: true}); len(got) != 0 {
		t.Errorf("with both overrides: %q", got)
	}
	in.Group, in.ClusterID, group = "g", nil, "g"
	s.Cluster = &fakeCluster{state: in}
	if got := mismatch(RestoreOptions{}); len(got) != 1 || !strings.Contains(got[0], "cannot confirm") {
		t.Errorf("unknown cluster id: %q", got)
	}
}

// TestBackupNamesAreSafe: names stay short and free of path separators whatever
// the group is called.
func TestBackupNamesAreSafe(t *testing.T) {
	for _, g := range []string{"simple", "a/b", "../../etc", strings.Repeat("ü", 200), "with space"} {
		n := backupName(g, "20261130T030000.000Z", "-undo")
		if strings.ContainsRune(n, filepath.Separator) || len(n) > 200 || strings.HasPrefix(n, ".") {
			t.Errorf("group %q: backup name %q", g, n)
		}
	}
}
