package main

import (
	"runtime/debug"
	"strings"
)

// The release build (scripts/release.sh, tools/cmd/release) sets these with
// -ldflags -X: the version it names, the full commit and the commit's time
// (RFC 3339, UTC) as the build date. A plain go build or go install leaves them
// empty and the build info speaks instead.
var (
	releaseVersion string
	releaseCommit  string
	releaseDate    string
)

// versionText is the line `offsettui --version` prints (docs/cli.md):
// "offsettui VERSION GOVERSION commit COMMIT DATE", the last two when known.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	return versionLine(info, releaseVersion, releaseCommit, releaseDate)
}

// versionLine words the version from a release's stamp where there is one, else
// from the build info: the module version (a tag with go install, "(devel)" in
// a clone) and the commit and its time when go build stamped them.
func versionLine(info *debug.BuildInfo, version, commit, date string) string {
	v, rev, at, dirty := info.Main.Version, "", "", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = " (modified)"
			}
		}
	}
	if version != "" {
		v, rev, at, dirty = version, commit, date, ""
	}
	if v == "" {
		v = "(unknown version)"
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = "(unknown Go version)"
	}
	parts := []string{"offsettui", v, goVersion}
	if rev != "" {
		parts = append(parts, "commit "+rev[:min(12, len(rev))]+dirty)
	}
	if at != "" {
		parts = append(parts, at)
	}
	return strings.Join(parts, " ")
}
