package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	clone := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "57cc6655abcdef0123456789abcdef0123456789"},
		{Key: "vcs.time", Value: "2026-11-01T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name                  string
		info                  *debug.BuildInfo
		version, commit, date string
		want                  string
	}{
		{"release stamp", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"0.0.0-SNAPSHOT-57cc6655abcd", "57cc6655abcdef0123456789abcdef0123456789", "2026-11-01T12:00:00Z",
			"offsettui 0.0.0-SNAPSHOT-57cc6655abcd go1.26.8 commit 57cc6655abcd 2026-11-01T12:00:00Z"},
		{"the stamp wins over the build info", clone, "1.2.3", "0123456789abcdef", "2027-01-02T03:04:05Z",
			"offsettui 1.2.3 go1.26.8 commit 0123456789ab 2027-01-02T03:04:05Z"},
		{"go build in a clone", clone, "", "", "",
			"offsettui (devel) go1.26.8 commit 57cc6655abcd (modified) 2026-11-01T12:00:00Z"},
		{"go install @tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}, "", "", "",
			"offsettui v1.2.3 go1.26.8"},
		{"no build info", &debug.BuildInfo{}, "", "", "", "offsettui (unknown version) (unknown Go version)"},
	} {
		if got := versionLine(tc.info, tc.version, tc.commit, tc.date); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
