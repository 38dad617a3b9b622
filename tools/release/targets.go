package release

import (
	"fmt"
	"strings"
)

// Target is one platform a binary is built for.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Exe is the binary's file name on the target.
func (t Target) Exe() string {
	if t.OS == "windows" {
		return "offsettui.exe"
	}
	return "offsettui"
}

// AllTargets are the platforms a release ships: linux, darwin and windows on
// amd64 and arm64.
var AllTargets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// ParseTargets reads "linux/amd64,darwin/arm64"; each must be one of AllTargets.
func ParseTargets(s string) ([]Target, error) {
	var out []Target
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		found := false
		for _, t := range AllTargets {
			if t.String() == f {
				out, found = append(out, t), true
			}
		}
		if !found {
			return nil, fmt.Errorf("--targets: %q is not one of %v", f, AllTargets)
		}
	}
	return out, nil
}
