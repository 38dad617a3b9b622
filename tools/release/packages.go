package release

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
	_ "github.com/goreleaser/nfpm/v2/rpm" // registers the rpm packager
)

// PackageFormats are the Linux packages a release ships.
var PackageFormats = []string{"deb", "rpm"}

// completionPaths is where each packager installs each shell's completion
// (Debian's zsh reads vendor-completions, Fedora's site-functions; PowerShell
// has no system place).
var completionPaths = map[string]map[string]string{
	"deb": {
		"bash": "/usr/share/bash-completion/completions/offsettui",
		"zsh":  "/usr/share/zsh/vendor-completions/_offsettui",
		"fish": "/usr/share/fish/vendor_completions.d/offsettui.fish",
	},
	"rpm": {
		"bash": "/usr/share/bash-completion/completions/offsettui",
		"zsh":  "/usr/share/zsh/site-functions/_offsettui",
		"fish": "/usr/share/fish/vendor_completions.d/offsettui.fish",
	},
}

// PackageContents is what a package of format installs: the binary, the man
// pages and the completions.
func PackageContents(format, binary string, d Docs) files.Contents {
	c := files.Contents{{Source: binary, Destination: "/usr/bin/offsettui", FileInfo: &files.ContentFileInfo{Mode: 0o755}}}
	for _, p := range d.ManPages {
		c = append(c, &files.Content{Source: filepath.Join(d.Dir, p),
			Destination: "/usr/share/man/man" + ManSection(p) + "/" + filepath.Base(p), FileInfo: &files.ContentFileInfo{Mode: 0o644}})
	}
	for _, comp := range Completions {
		if dst, ok := completionPaths[format][comp.Shell]; ok {
			c = append(c, &files.Content{Source: filepath.Join(d.Dir, "completions", comp.File), Destination: dst,
				FileInfo: &files.ContentFileInfo{Mode: 0o644}})
		}
	}
	return c
}

// WritePackage writes the deb or rpm of a linux target into dir and returns
// its file name.
func WritePackage(dir, format string, s Stamp, t Target, binary string, d Docs) (string, error) {
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:        "offsettui",
		Arch:        t.Arch,
		Platform:    t.OS,
		Version:     s.Version,
		Release:     "1",
		Section:     "utils",
		Priority:    "optional",
		Maintainer:  "offsettui <offsettui@users.noreply.github.com>",
		Description: "Where every Kafka consumer group really stands, and guarded offset resets",
		Homepage:    Homepage,
		MTime:       s.Date,
		Overridables: nfpm.Overridables{
			Contents: PackageContents(format, binary, d),
			Umask:    0o022,
			// gzip's default level, as the rpm's: level 9 (nfpm's default for a
			// deb) took 3x the CPU for 0.3% fewer bytes of the binary.
			Deb: nfpm.Deb{Compression: "gzip:6"},
		},
	})
	packager, err := nfpm.Get(format)
	if err != nil {
		return "", err
	}
	if err := nfpm.PrepareForPackager(info, format); err != nil {
		return "", fmt.Errorf("%s for %s: %w", format, t, err)
	}
	name := packager.ConventionalFileName(info)
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return "", err
	}
	if err := packager.Package(info, f); err != nil {
		f.Close()
		return "", fmt.Errorf("%s for %s: %w", format, t, err)
	}
	return name, f.Close()
}
