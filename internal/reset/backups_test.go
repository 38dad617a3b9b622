package reset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Backups lists a group's backups newest first, by their manifests, and the archives
// holding a whole backup of it: another group's (even one whose file name starts alike),
// strays, files without a manifest and a damaged archive are left out.
func TestBackupsOfAGroup(t *testing.T) {
	dir := t.TempDir()
	svc := &Service{BackupDir: dir}
	at := func(day, hour int) time.Time { return time.Date(2026, 11, day, hour, 0, 0, 0, time.UTC) }
	write := func(group string, taken time.Time, purpose string) string {
		t.Helper()
		m := Manifest{Group: group, CreatedAt: model.Stamp{Time: taken}, Purpose: purpose}
		p, err := writeBackup(dir, backupName(group, taken.Format("20060102T150405.000Z"), ""), m,
			[]plan.CSVRow{{Topic: "t", Partition: 0, Offset: model.Ptr[int64](1)}})
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Base(p)
	}
	older := write("billing", at(28, 8), "backup")
	newer := write("billing", at(29, 9), "undo")
	write("billing-eu", at(29, 10), "backup")
	spaced := write("a b", at(29, 8), "backup")
	write("a_b", at(29, 9), "backup")
	// An archive of `offsettui backup` at 30 Nov 07:00 holding billing, and a damaged one.
	archived := &Service{Now: func() time.Time { return at(30, 7) }}
	snap := model.Snapshot{Cluster: model.Cluster{AllTopicsVisible: model.Ptr(true)}, Groups: []model.Group{{Group: "billing", Type: model.TypeClassic,
		Partitions: []model.GroupPartition{{Topic: "t", Partition: 0, Committed: model.Ptr[int64](3)}}}}}
	archive := filepath.Base(archived.SaveBackups(snap, dir)[0].Path)
	raw, err := os.ReadFile(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, archiveName("20261201T000000.000Z")), raw[:len(raw)-1], 0o600); err != nil {
		t.Fatal(err)
	}
	for _, stray := range []string{"billing-notes.csv", "billing-20261130T080000.000Z.csv", "x.manifest.json"} {
		if err := os.WriteFile(filepath.Join(dir, stray), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names := func(group string) []string {
		bs, err := svc.Backups(group)
		if err != nil {
			t.Fatalf("%s: %v", group, err)
		}
		var out []string
		for i, b := range bs {
			out = append(out, filepath.Base(b.Path))
			if _, err := os.Stat(b.Path); err != nil {
				t.Errorf("%s: %v", group, err)
			}
			if i > 0 && !bs[i-1].Taken.After(b.Taken) {
				t.Errorf("%s: not newest first: %v", group, bs)
			}
		}
		return out
	}
	if got, want := names("billing"), []string{archive, newer, older}; !slices.Equal(got, want) {
		t.Errorf("billing: %v, want %v", got, want)
	}
	if got, want := names("a b"), []string{spaced}; !slices.Equal(got, want) {
		t.Errorf("a b: %v, want %v", got, want)
	}
	if got := names("nobody"); len(got) != 0 {
		t.Errorf("nobody: %v", got)
	}
	svc.BackupDir = filepath.Join(dir, "missing")
	if bs, err := svc.Backups("billing"); err != nil || len(bs) != 0 {
		t.Errorf("a missing directory: %v, %v; want no backups, no error", bs, err)
	}
}
