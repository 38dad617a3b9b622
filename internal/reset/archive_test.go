package reset

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// extractArchive takes an archive's members out with the system's tar, into a new
// directory it returns: the archive is an ordinary tar file.
func extractArchive(t *testing.T, archive string) string {
	t.Helper()
	tarBin, err := exec.LookPath("tar")
	if err != nil {
		t.Fatalf("the system's tar, to take the archive apart: %v", err)
	}
	out := t.TempDir()
	if b, err := exec.Command(tarBin, "-xf", archive, "-C", out).CombinedOutput(); err != nil {
		t.Fatalf("tar -xf %s: %v\n%s", archive, err, b)
	}
	return out
}

// testArchive saves three groups, one with a name long enough that tar needs an extended
// header for it, and returns the archive and the groups.
func testArchive(t testing.TB, dir string) (string, []string) {
	t.Helper()
	groups := []string{"a", "billing-" + strings.Repeat("x", 150), "c"}
	snap := model.Snapshot{Cluster: model.Cluster{ID: model.Ptr("c1"), AllTopicsVisible: model.Ptr(true)}}
	for i, g := range groups {
		snap.Groups = append(snap.Groups, model.Group{Group: g, Type: model.TypeClassic, Partitions: []model.GroupPartition{
			{Topic: "orders", Partition: 0, Committed: model.Ptr(int64(10 + i))}, {Topic: "orders", Partition: 1, Committed: model.Ptr(int64(1))}}})
	}
	s := &Service{Now: func() time.Time { return time.Date(2026, 12, 1, 8, 0, 0, 123e6, time.UTC) }, User: "t"}
	saved := s.SaveBackups(snap, dir)
	for _, sv := range saved {
		if sv.Err != nil || sv.Path != saved[0].Path {
			t.Fatalf("%s: %q %v", sv.Group, sv.Path, sv.Err)
		}
	}
	return saved[0].Path, groups
}

// TestArchiveRefusesEveryCutAndEdit: an archive cut at any length, with any one byte
// changed, or with bytes after its end, is refused for every group in it, not only for the
// group whose bytes changed; the archive as written gives each group its own backup.
func TestArchiveRefusesEveryCutAndEdit(t *testing.T) {
	dir := t.TempDir()
	path, groups := testArchive(t, dir)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range groups {
		b, err := LoadBackup(path, g)
		if err != nil || b.Manifest.Group != g || b.Path != path || len(b.Rows) != 2 || *b.Rows[0].Offset != int64(10+i) {
			t.Fatalf("%s: %+v %v", g, b, err)
		}
	}
	refused := func(what string, b []byte) {
		t.Helper()
		// The whole archive is checked whichever group is restored: the first group's
		// restore is refused for a change in the last group's bytes too.
		if _, err := loadArchived("damaged.tar", b, groups[0]); !isArchive(b) {
			return // LoadBackup reads it as a CSV, without its manifest: refused
		} else if err == nil {
			t.Fatalf("%s: the restore of %s was not refused", what, groups[0])
		} else if !strings.Contains(err.Error(), "refused") {
			t.Fatalf("%s: %v does not say it is refused", what, err)
		}
	}
	for n := 0; n < len(orig); n++ {
		refused(fmt.Sprintf("cut to %d bytes", n), orig[:n])
	}
	for i := range orig {
		b := bytes.Clone(orig)
		b[i] ^= 0x01
		refused(fmt.Sprintf("byte %d changed", i), b)
	}
	// Through the file, as a restore reads it: cut, and edited in the last group's CSV.
	damaged := filepath.Join(dir, "damaged.tar")
	for _, b := range [][]byte{orig[:len(orig)/2], bytes.Replace(orig, []byte("orders,0,12\n"), []byte("orders,0,13\n"), 1)} {
		if err := os.WriteFile(damaged, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadBackup(damaged, groups[0]); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("a damaged archive of %d bytes: %v", len(b), err)
		}
	}
	refused("a byte appended", append(bytes.Clone(orig), 0))
	refused("a block appended", append(bytes.Clone(orig), make([]byte, 512)...))
	t.Logf("%d cuts and %d one-byte edits of a %d-byte archive refused", len(orig), len(orig), len(orig))
}

// FuzzLoadArchived: whatever the bytes, loading a group from them as an archive neither
// panics nor accepts what is not the archive written: an accepted archive is one whose
// members all match its index, and the backup is the named group's.
func FuzzLoadArchived(f *testing.F) {
	path, groups := testArchive(f, f.TempDir())
	orig, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(orig, groups[1])
	f.Add(orig[:len(orig)-512], groups[0])
	f.Add([]byte("orders,0,1\n"), "a")
	f.Fuzz(func(t *testing.T, raw []byte, group string) {
		if !isArchive(raw) {
			return
		}
		b, err := loadArchived("fuzz.tar", raw, group)
		if err != nil {
			return
		}
		if b.Manifest.Group != group || b.Manifest.Rows != len(b.Rows) {
			t.Fatalf("accepted a backup of %q with %d rows (manifest %d) for %q", b.Manifest.Group, len(b.Rows), b.Manifest.Rows, group)
		}
		if _, _, err := readArchive(raw); err != nil {
			t.Fatalf("accepted an archive readArchive refuses: %v", err)
		}
	})
}
