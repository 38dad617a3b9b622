package reset

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
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
		if _, err := loadArchived("damaged.tar", b, groups[0]); err == nil {
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
	// The index's header changed in more than one byte, its tar checksum made right again:
	// the mode 0600 made 0700.
	h := bytes.Index(orig, []byte(archiveIndexName))
	if h < 0 || h%512 != 0 {
		t.Fatalf("the index's header is not at a block start: %d", h)
	}
	b := bytes.Clone(orig)
	copy(b[h+100:], "0000700")
	sum := 0
	for i, c := range b[h : h+512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int(c)
	}
	copy(b[h+148:], fmt.Sprintf("%06o\x00 ", sum))
	if hdr, err := tar.NewReader(bytes.NewReader(b[h:])).Next(); err != nil || hdr.Mode != 0o700 {
		t.Fatalf("the edited header does not read as mode 0700: %v %v", hdr, err)
	}
	refused("the index's mode changed", b)
	refused("a byte appended", append(bytes.Clone(orig), 0))
	refused("a block appended", append(bytes.Clone(orig), make([]byte, 512)...))
	t.Logf("%d cuts and %d one-byte edits of a %d-byte archive refused", len(orig), len(orig), len(orig))
}

// FuzzLoadArchived: whatever the bytes, loading a group from them as an archive neither
// panics nor accepts anything but the archive written, and then the named group's backup.
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
		b, err := loadArchived("fuzz.tar", raw, group)
		if err != nil {
			return
		}
		if !bytes.Equal(raw, orig) {
			t.Fatalf("accepted %d bytes that are not the archive written (%d bytes) for %q", len(raw), len(orig), group)
		}
		if b.Manifest.Group != group {
			t.Fatalf("accepted the backup of %q for %q", b.Manifest.Group, group)
		}
	})
}

// TestArchiveOrCSV: a reset's CSV backup is read as a CSV whenever its manifest is beside it,
// even with tar's magic where tar has it; a file named .tar without a manifest is read as an
// archive, however short, and refused as one; a group named twice is saved once, and the
// archive holds it once.
func TestArchiveOrCSV(t *testing.T) {
	dir := t.TempDir()
	// 248 + len(",0,10000\n") = 257: the second row's topic starts where tar's magic is.
	rows := []plan.CSVRow{{Topic: strings.Repeat("t", 248), Partition: 0, Offset: model.Ptr(int64(10000))},
		{Topic: "ustar-events", Partition: 0, Offset: model.Ptr(int64(1))}}
	for p := int32(1); p < 30; p++ { // and the file longer than a tar block
		rows = append(rows, plan.CSVRow{Topic: "ustar-events", Partition: p, Offset: model.Ptr(int64(2))})
	}
	path, err := writeBackup(dir, "g-x.csv", Manifest{Group: "g"}, rows)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !isArchive(raw) {
		t.Fatalf("the CSV has no tar magic at 257: %q", raw[250:270])
	}
	if b, err := LoadBackup(path, "g"); err != nil || len(b.Rows) != 31 {
		t.Errorf("a CSV with tar's magic, its manifest beside it: %+v %v", b, err)
	}

	short := filepath.Join(dir, archiveName("x"))
	if err := os.WriteFile(short, []byte("offsettui"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBackup(short, "g"); err == nil || !strings.Contains(err.Error(), "refused") || strings.Contains(err.Error(), "--from-file") {
		t.Errorf("an archive cut to 9 bytes: %v; want it refused as an archive", err)
	}

	g := model.Group{Group: "twice", Type: model.TypeClassic, Partitions: []model.GroupPartition{{Topic: "t", Partition: 0, Committed: model.Ptr(int64(4))}}}
	snap := model.Snapshot{Cluster: model.Cluster{AllTopicsVisible: model.Ptr(true)}, Groups: []model.Group{g, g}}
	saved := (&Service{}).SaveBackups(snap, t.TempDir())
	if saved[0].Err != nil || saved[1] != saved[0] {
		t.Fatalf("a group named twice: %+v", saved)
	}
	if b, err := LoadBackup(saved[0].Path, "twice"); err != nil || len(b.Rows) != 1 {
		t.Errorf("the archive of a group named twice: %+v %v", b, err)
	}
}

// TestCutArchiveStillGivesWholeFiles: what the refusal of a cut archive says holds: the
// system's tar takes out the members before the cut, and each group's CSV with its manifest
// is restored on its own.
func TestCutArchiveStillGivesWholeFiles(t *testing.T) {
	dir := t.TempDir()
	path, groups := testArchive(t, dir)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.tar")
	if err := os.WriteFile(cut, raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBackup(cut, groups[0]); err == nil || !strings.Contains(err.Error(), "tar -xf "+cut) {
		t.Fatalf("the cut archive: %v; want it refused, naming tar -xf", err)
	}
	out := t.TempDir()
	exec.Command("tar", "-xf", cut, "-C", out).Run() // tar says the archive ends early
	b, err := LoadBackup(filepath.Join(out, backupName(groups[0], "20261201T080000.123Z", "")), "")
	if err != nil || b.Manifest.Group != groups[0] || len(b.Rows) != 2 {
		t.Errorf("the first group's files taken out of the cut archive: %+v %v", b, err)
	}
}
