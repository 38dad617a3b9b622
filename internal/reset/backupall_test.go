package reset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestSaveBackups: every readable group is saved into one archive that LoadBackup takes
// group by group (a share group's start offsets as its positions); a group whose positions
// could not all be read, or a snapshot whose topics may be hidden, is not saved and leaves
// no file.
func TestSaveBackups(t *testing.T) {
	ok := model.Group{Group: "ok", Type: model.TypeClassic, Partitions: []model.GroupPartition{
		{Topic: "t", Partition: 0, Committed: model.Ptr(int64(5))}, {Topic: "t", Partition: 1}}}
	share := model.Group{Group: "sh", Type: model.TypeShare, Partitions: []model.GroupPartition{
		model.GroupPartition{Topic: "t", Partition: 0}.With(model.PartitionDetail{StartOffset: model.Ptr(int64(9))})}}
	broken := model.Group{Group: "broken", Type: model.TypeClassic, Partitions: []model.GroupPartition{
		{Topic: "t", Partition: 0, Committed: model.Ptr(int64(5))}, {Topic: "t", Partition: 1, Error: &model.Error{Message: "boom"}}}}
	failed := model.Group{Group: "failed", Type: model.TypeConsumer, Error: &model.Error{Message: "coordinator not available"}}
	snap := model.Snapshot{Cluster: model.Cluster{ID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true)},
		Groups: []model.Group{ok, share, broken, failed}}
	s := &Service{Now: func() time.Time { return time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC) }, User: "t"}
	dir := t.TempDir()
	saved := s.SaveBackups(snap, dir)
	want := map[string]int{"ok": 1, "sh": 1, "broken": -1, "failed": -1} // rows, -1 = not saved
	archive := filepath.Join(dir, "offsettui-backup-20261201T080000.000Z.tar")
	for _, sv := range saved {
		switch w := want[sv.Group]; {
		case w < 0 && (sv.Err == nil || sv.Path != ""):
			t.Errorf("%s: saved %q (%v), want not saved", sv.Group, sv.Path, sv.Err)
		case w >= 0 && (sv.Err != nil || sv.Rows != w || sv.Path != archive):
			t.Errorf("%s: %d rows in %q, %v; want %d rows saved in %s", sv.Group, sv.Rows, sv.Path, sv.Err, w, archive)
		case w >= 0:
			b, err := LoadBackup(sv.Path, sv.Group)
			if err != nil || b.Manifest.Group != sv.Group || len(b.Rows) != w || *b.Rows[0].Offset != map[string]int64{"ok": 5, "sh": 9}[sv.Group] {
				t.Errorf("%s: LoadBackup: %+v %v", sv.Group, b, err)
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 || files[0] != archive {
		t.Errorf("files %v, want the one archive %s", files, archive)
	}
	if _, err := LoadBackup(archive, "broken"); err == nil || !strings.Contains(err.Error(), "holds no backup of group broken") {
		t.Errorf("a group the archive lacks: %v", err)
	}
	// Its members are the files a reset writes: taken out, each CSV is restored with its
	// manifest beside it; docs/json.md: a strategy without a value writes "value": null.
	out := extractArchive(t, archive)
	for _, g := range []string{"ok", "sh"} {
		csv := filepath.Join(out, backupName(g, "20261201T080000.000Z", ""))
		b, err := LoadBackup(csv, "")
		if err != nil || b.Manifest.Group != g || b.Manifest.GroupType != map[string]string{"ok": model.TypeClassic, "sh": model.TypeShare}[g] {
			t.Errorf("%s taken out of the archive: %+v %v", g, b, err)
		}
		if raw, _ := os.ReadFile(manifestPath(csv)); !bytes.Contains(raw, []byte(`"strategy": {
    "name": "backup",
    "value": null
  }`)) {
			t.Errorf("%s: manifest strategy is not {backup, null}:\n%s", g, raw)
		}
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
