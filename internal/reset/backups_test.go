package reset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Backups lists a group's backups newest first, from the names writeBackup
// gives them; other groups' files, strays and what the audit log gives to
// another group are left out.
func TestBackupsOfAGroup(t *testing.T) {
	dir := t.TempDir()
	svc := &Service{BackupDir: dir}
	for _, name := range []string{
		"billing-20261128T080000.000Z.csv", "billing-20261129T091500.250Z.csv",
		"billing-eu-20261129T100000.000Z.csv", // another group whose name starts alike
		"billing-notes.csv", "billing-20261129T091500.250Z.csv.tmp", "audit.log",
		"a_b-20261129T080000.000Z.csv", // a b and a_b share this prefix: the audit log says whose
		"a_b-20261129T090000.000Z.csv",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("t,0,1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	log := `{"group":"a b","backup":"` + filepath.Join(dir, "a_b-20261129T080000.000Z.csv") + `"}` + "\n" +
		`{"group":"a_b","backup":"` + filepath.Join(dir, "a_b-20261129T090000.000Z.csv") + `"}` + "\nnot json\n"
	if err := os.WriteFile(filepath.Join(dir, "audit.log"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	names := func(group string) []string {
		bs, err := svc.Backups(group)
		if err != nil {
			t.Fatalf("%s: %v", group, err)
		}
		var out []string
		for i, b := range bs {
			out = append(out, filepath.Base(b.Path))
			if i > 0 && !bs[i-1].Taken.After(b.Taken) {
				t.Errorf("%s: not newest first: %v", group, bs)
			}
		}
		return out
	}
	if got, want := names("billing"), []string{"billing-20261129T091500.250Z.csv", "billing-20261128T080000.000Z.csv"}; !slices.Equal(got, want) {
		t.Errorf("billing: %v, want %v", got, want)
	}
	if got, want := names("a b"), []string{"a_b-20261129T080000.000Z.csv"}; !slices.Equal(got, want) {
		t.Errorf("a b: %v, want %v", got, want)
	}
	if got, want := names("a_b"), []string{"a_b-20261129T090000.000Z.csv"}; !slices.Equal(got, want) {
		t.Errorf("a_b: %v, want %v", got, want)
	}
	bs, _ := svc.Backups("billing")
	if want := time.Date(2026, 11, 29, 9, 15, 0, 250e6, time.UTC); !bs[0].Taken.Equal(want) {
		t.Errorf("taken %v, want %v", bs[0].Taken, want)
	}
	if got := names("nobody"); len(got) != 0 {
		t.Errorf("nobody: %v", got)
	}
	svc.BackupDir = filepath.Join(dir, "missing")
	if bs, err := svc.Backups("billing"); err != nil || len(bs) != 0 {
		t.Errorf("a missing directory: %v, %v; want no backups, no error", bs, err)
	}
}
