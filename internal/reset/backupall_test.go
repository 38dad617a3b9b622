package reset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestSaveBackups: every readable group is saved as a backup LoadBackup takes (a share
// group's start offsets as its positions); a group whose positions could not all be read,
// or a snapshot whose topics may be hidden, is not saved and leaves no file.
func TestSaveBackups(t *testing.T) {
	ok := model.Group{Group: "ok", Type: model.TypeClassic, Partitions: []model.GroupPartition{
		{Topic: "t", Partition: 0, Committed: model.Ptr(int64(5))}, {Topic: "t", Partition: 1}}}
	share := model.Group{Group: "sh", Type: model.TypeShare, Partitions: []model.GroupPartition{
		{Topic: "t", Partition: 0, StartOffset: model.Ptr(int64(9))}}}
	broken := model.Group{Group: "broken", Type: model.TypeClassic, Partitions: []model.GroupPartition{
		{Topic: "t", Partition: 0, Committed: model.Ptr(int64(5))}, {Topic: "t", Partition: 1, Error: &model.Error{Message: "boom"}}}}
	failed := model.Group{Group: "failed", Type: model.TypeConsumer, Error: &model.Error{Message: "coordinator not available"}}
	snap := model.Snapshot{Cluster: model.Cluster{ID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true)},
		Groups: []model.Group{ok, share, broken, failed}}
	s := &Service{Now: func() time.Time { return time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC) }, User: "t"}
	dir := t.TempDir()
	saved := s.SaveBackups(snap, dir)
	want := map[string]int{"ok": 1, "sh": 1, "broken": -1, "failed": -1} // rows, -1 = not saved
	for _, sv := range saved {
		switch w := want[sv.Group]; {
		case w < 0 && (sv.Err == nil || sv.Path != ""):
			t.Errorf("%s: saved %q (%v), want not saved", sv.Group, sv.Path, sv.Err)
		case w >= 0 && (sv.Err != nil || sv.Rows != w):
			t.Errorf("%s: %d rows, %v; want %d rows saved", sv.Group, sv.Rows, sv.Err, w)
		case w >= 0:
			b, err := LoadBackup(sv.Path)
			if err != nil || b.Manifest.Group != sv.Group || len(b.Rows) != w || *b.Rows[0].Offset != map[string]int64{"ok": 5, "sh": 9}[sv.Group] {
				t.Errorf("%s: LoadBackup: %+v %v", sv.Group, b, err)
			}
			// docs/json.md: a strategy without a value writes "value": null.
			if raw, _ := os.ReadFile(manifestPath(sv.Path)); !bytes.Contains(raw, []byte(`"strategy": {
    "name": "backup",
    "value": null
  }`)) {
				t.Errorf("%s: manifest strategy is not {backup, null}:\n%s", sv.Group, raw)
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 4 {
		t.Errorf("files %v, want the 2 backups with their manifests", files)
	}

	snap.Cluster.AllTopicsVisible = nil
	hiddenDir := t.TempDir()
	for _, sv := range s.SaveBackups(snap, hiddenDir) {
		if sv.Err == nil {
			t.Errorf("%s saved while topics may be hidden", sv.Group)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(hiddenDir, "*")); len(files) != 0 {
		t.Errorf("hidden topics: files %v, want none", files)
	}
}
