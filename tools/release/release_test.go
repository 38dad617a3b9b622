package release

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestArchivesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("contents of "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	entries := []Entry{{Name: "offsettui", Source: filepath.Join(dir, "b"), Mode: 0o755}, {Name: "README.md", Source: filepath.Join(dir, "a"), Mode: 0o644}}
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for _, ext := range []string{".tar.gz", ".zip"} {
		first, second := filepath.Join(dir, "1"+ext), filepath.Join(dir, "2"+ext)
		if err := WriteArchive(first, entries, at); err != nil {
			t.Fatal(err)
		}
		// The sources' own times and the order given change nothing.
		later := time.Now().Add(time.Hour)
		_ = os.Chtimes(entries[0].Source, later, later)
		if err := WriteArchive(second, []Entry{entries[1], entries[0]}, at); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(first)
		b, _ := os.ReadFile(second)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two archives of the same files differ", ext)
		}
	}
}

// git runs git in dir with a fixed author and committer time.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-11-01T12:00:00Z", "GIT_COMMITTER_DATE=2026-11-01T12:00:00Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestReadStamp(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a")
	git(t, dir, "add", "a")
	git(t, dir, "commit", "-qm", "first")

	s, err := ReadStamp(ctx, dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := "0.0.0-snapshot." + s.Commit[:12]; s.Version != want || s.DateText() != "2026-11-01T12:00:00Z" {
		t.Errorf("before any tag: %q dated %s, want %q dated 2026-11-01T12:00:00Z", s.Version, s.DateText(), want)
	}
	if _, err := ReadStamp(ctx, dir, false); err == nil || !strings.Contains(err.Error(), "tag vX.Y.Z") {
		t.Errorf("a release without a tag: %v", err)
	}

	git(t, dir, "tag", "v1.2.3")
	s, err = ReadStamp(ctx, dir, false)
	if err != nil || s.Version != "1.2.3" || s.Tag != "v1.2.3" || s.Snapshot {
		t.Errorf("at v1.2.3: %+v, %v", s, err)
	}
	write("b")
	if _, err := ReadStamp(ctx, dir, false); err == nil || !strings.Contains(err.Error(), "clean tree") {
		t.Errorf("a release of a dirty tree: %v", err)
	}
	if s, _ := ReadStamp(ctx, dir, true); s.Version != "1.2.4-snapshot."+s.Commit[:12]+".dirty" {
		t.Errorf("a dirty snapshot after v1.2.3: %q", s.Version)
	}
	git(t, dir, "add", "b")
	git(t, dir, "commit", "-qm", "second")
	s, err = ReadStamp(ctx, dir, true)
	if err != nil || s.Version != "1.2.4-snapshot."+s.Commit[:12] || s.Previous != "v1.2.3" {
		t.Errorf("a snapshot after v1.2.3: %+v, %v", s, err)
	}
	log, err := Changelog(ctx, dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "Changes since v1.2.3") || !strings.Contains(string(log), " second\n") || strings.Contains(string(log), " first\n") {
		t.Errorf("the changelog since v1.2.3:\n%s", log)
	}
}

func TestFormula(t *testing.T) {
	s := Stamp{Version: "1.2.3"}
	f, err := Formula(s, []BrewArchive{
		{OS: "darwin", Arch: "arm64", URL: DownloadURL(s, ArchiveName("1.2.3", Target{"darwin", "arm64"})), SHA256: "aa"},
		{OS: "linux", Arch: "amd64", URL: "https://x/linux.tar.gz", SHA256: "bb"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"class Offsettui < Formula",
		"  on_macos do\n    on_arm do\n      url \"https://github.com/offsettui/offsettui/releases/download/v1.2.3/offsettui_1.2.3_darwin_arm64.tar.gz\"\n      sha256 \"aa\"\n    end\n  end",
		"  on_linux do\n    on_intel do\n      url \"https://x/linux.tar.gz\"\n      sha256 \"bb\"\n    end\n  end",
		`bin.install "offsettui"`,
	} {
		if !strings.Contains(string(f), want) {
			t.Errorf("the formula lacks %q:\n%s", want, f)
		}
	}
}

func TestParseTargets(t *testing.T) {
	got, err := ParseTargets("linux/amd64, windows/arm64")
	if err != nil || len(got) != 2 || got[1].Exe() != "offsettui.exe" {
		t.Errorf("%v %v", got, err)
	}
	if _, err := ParseTargets("plan9/386"); err == nil {
		t.Error("plan9/386 accepted")
	}
}
