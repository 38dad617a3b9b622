package release

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// mainPackage is the package every target builds.
const mainPackage = "./cmd/offsettui"

// BuildArgs are the go build arguments of a release binary: static, without
// local paths, stamped through -X (cmd/offsettui/version.go) rather than
// through the VCS stamping of go build, which a GOFLAGS can turn off.
func BuildArgs(s Stamp, out string) []string {
	ldflags := strings.Join([]string{"-s", "-w",
		"-X main.releaseVersion=" + s.Version,
		"-X main.releaseCommit=" + s.Commit,
		"-X main.releaseDate=" + s.DateText(),
	}, " ")
	return []string{"build", "-trimpath", "-buildvcs=false", "-ldflags=" + ldflags, "-o", out, mainPackage}
}

// BuildEnv is the environment of a target's build: cgo off (a static binary),
// the target's GOOS and GOARCH, and the caller's environment for the rest (the
// one build cache, GOPROXY=off from scripts/release.sh).
func BuildEnv(t Target) []string {
	return append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch)
}

// Build compiles the binary for t into dir/<os>_<arch>/ and returns its path.
func Build(ctx context.Context, repo, dir string, s Stamp, t Target) (string, error) {
	out := filepath.Join(dir, t.OS+"_"+t.Arch, t.Exe())
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", BuildArgs(s, out)...)
	cmd.Dir, cmd.Env = repo, BuildEnv(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s: %v\n%s", t, err, b)
	}
	return out, nil
}
