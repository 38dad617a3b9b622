// Command release builds offsettui's release files into dist/ (docs/cli.md,
// "Releases"). scripts/release.sh runs it offline: go run ./cmd/release
// --snapshot --repo .. --dist ../dist.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/offsettui/offsettui/tools/release"
)

func main() {
	snapshot := flag.Bool("snapshot", false, "build the commit as a snapshot (no tag needed, a dirty tree allowed)")
	repo := flag.String("repo", "..", "the checkout to build")
	dist := flag.String("dist", "", "where to write (default REPO/dist); emptied first")
	targets := flag.String("targets", "", "comma-separated OS/ARCH to build (default all six); the others' configuration is checked")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "release: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	chosen := release.AllTargets
	if *targets != "" {
		var err error
		if chosen, err = release.ParseTargets(*targets); err != nil {
			fmt.Fprintln(os.Stderr, "release:", err)
			os.Exit(2)
		}
	}
	if *dist == "" {
		*dist = filepath.Join(*repo, "dist")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if err := run(ctx, *repo, *dist, *snapshot, chosen); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// step prints how long each part took.
func step(name string, f func() error) error {
	t0 := time.Now()
	if err := f(); err != nil {
		return err
	}
	fmt.Printf("%-48s %5.1fs\n", name, time.Since(t0).Seconds())
	return nil
}

func run(ctx context.Context, repo, dist string, snapshot bool, targets []release.Target) error {
	s, err := release.ReadStamp(ctx, repo, snapshot)
	if err != nil {
		return err
	}
	fmt.Printf("offsettui %s, commit %s, dated %s\n", s.Version, s.Commit, s.DateText())
	if err := os.RemoveAll(dist); err != nil {
		return err
	}
	work := filepath.Join(dist, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	m := release.Metadata{Version: s.Version, Commit: s.Commit, Date: s.DateText()}

	// The other targets' configuration: their packages resolve under their
	// GOOS and GOARCH (what a build would compile, without compiling it).
	for _, t := range release.AllTargets {
		if contains(targets, t) {
			continue
		}
		if err := step("checked "+t.String()+" (not built)", func() error { return checkTarget(ctx, repo, t) }); err != nil {
			return err
		}
	}

	// The host's binary first: it writes the completions and man pages.
	host := release.Target{OS: runtime.GOOS, Arch: runtime.GOARCH}
	order := append([]release.Target(nil), targets...)
	if i := index(order, host); i > 0 {
		order[0], order[i] = order[i], order[0]
	}
	binaries := map[release.Target]string{}
	for _, t := range order {
		if err := step("built "+t.String(), func() error {
			b, err := release.Build(ctx, repo, filepath.Join(dist, "bin"), s, t)
			binaries[t] = b
			return err
		}); err != nil {
			return err
		}
		m.Targets = append(m.Targets, t.String())
	}
	hostBinary, ok := binaries[host]
	if !ok {
		if err := step("built "+host.String()+" (for the docs)", func() error {
			var err error
			hostBinary, err = release.Build(ctx, repo, filepath.Join(work, "host"), s, host)
			return err
		}); err != nil {
			return err
		}
	}
	var docs release.Docs
	if err := step("completions and man pages", func() error {
		docs, err = release.GenerateDocs(ctx, hostBinary, filepath.Join(work, "docs"), s.Date)
		return err
	}); err != nil {
		return err
	}

	var brew []release.BrewArchive
	if err := step("archives", func() error {
		for _, t := range targets {
			entries := []release.Entry{
				{Name: t.Exe(), Source: binaries[t], Mode: 0o755},
				{Name: "README.md", Source: filepath.Join(repo, "README.md"), Mode: 0o644},
			}
			for _, f := range docs.Files {
				entries = append(entries, release.Entry{Name: f, Source: filepath.Join(docs.Dir, f), Mode: 0o644})
			}
			name := release.ArchiveName(s.Version, t)
			if err := release.WriteArchive(filepath.Join(dist, name), entries, s.Date); err != nil {
				return err
			}
			m.Archives = append(m.Archives, name)
			if t.OS != "windows" {
				sum, err := release.FileSHA256(filepath.Join(dist, name))
				if err != nil {
					return err
				}
				brew = append(brew, release.BrewArchive{OS: t.OS, Arch: t.Arch, URL: release.DownloadURL(s, name), SHA256: sum})
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := step("deb and rpm packages", func() error {
		for _, t := range targets {
			if t.OS != "linux" {
				continue
			}
			for _, format := range release.PackageFormats {
				name, err := release.WritePackage(dist, format, s, t, binaries[t], docs)
				if err != nil {
					return err
				}
				m.Packages = append(m.Packages, name)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := step("checksums, Homebrew formula, changelog", func() error {
		if err := release.WriteChecksums(dist, append(append([]string(nil), m.Archives...), m.Packages...)); err != nil {
			return err
		}
		formula, err := release.Formula(s, brew)
		if err != nil {
			return err
		}
		m.Formula = filepath.Join("homebrew", "offsettui.rb")
		if err := os.MkdirAll(filepath.Join(dist, "homebrew"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dist, m.Formula), formula, 0o644); err != nil {
			return err
		}
		log, err := release.Changelog(ctx, repo, s)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dist, "CHANGELOG.md"), log, 0o644)
	}); err != nil {
		return err
	}
	if err := step("OCI image", func() error {
		m.Image = release.ImageLayoutDir
		return release.WriteImage(filepath.Join(dist, release.ImageLayoutDir), s, binaries)
	}); err != nil {
		return err
	}
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	if err := release.WriteMetadata(dist, m); err != nil {
		return err
	}
	fmt.Printf("wrote %d archives, %d packages, %s, homebrew/offsettui.rb, CHANGELOG.md and image/ (%s) into %s\n",
		len(m.Archives), len(m.Packages), release.ChecksumsFile, strings.Join(linuxTargets(targets), ", "), dist)
	return nil
}

func checkTarget(ctx context.Context, repo string, t release.Target) error {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-e", "-f", "{{with .Error}}{{.}}{{end}}{{range .DepsErrors}}{{.}}{{end}}", "./cmd/offsettui")
	cmd.Dir, cmd.Env = repo, release.BuildEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		return fmt.Errorf("%s: go list: %v\n%s", t, err, out)
	}
	return nil
}

func contains(ts []release.Target, t release.Target) bool { return index(ts, t) >= 0 }

func index(ts []release.Target, t release.Target) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}

func linuxTargets(ts []release.Target) []string {
	var out []string
	for _, t := range ts {
		if t.OS == "linux" {
			out = append(out, t.String())
		}
	}
	return out
}
