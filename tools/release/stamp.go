package release

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Stamp is what a release build says it is: the version, the full commit and
// the commit's time, which serves as the build date and as the time of every
// file written.
type Stamp struct {
	Version  string    // "1.2.3" for a release, "1.2.4-snapshot.57cc6655abcd" for a snapshot
	Commit   string    // the full commit hash
	Date     time.Time // the commit's time, UTC
	Tag      string    // the tag released ("v1.2.3"); empty for a snapshot
	Previous string    // the newest tag before the commit, for the changelog; empty if none
	Snapshot bool
}

// DateText is the build date as --version prints it.
func (s Stamp) DateText() string { return s.Date.UTC().Format(time.RFC3339) }

var releaseTag = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)$`)

// ReadStamp asks git about the checkout in dir. A snapshot is named after the
// next patch of the newest release tag (0.0.0 without one) and the commit; a
// release needs a clean tree whose commit carries a tag vX.Y.Z.
func ReadStamp(ctx context.Context, dir string, snapshot bool) (Stamp, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
			}
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	var s Stamp
	var err error
	if s.Commit, err = git("rev-parse", "HEAD"); err != nil {
		return s, err
	}
	unix, err := git("log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return s, err
	}
	secs, err := strconv.ParseInt(unix, 10, 64)
	if err != nil {
		return s, fmt.Errorf("the commit's time %q: %w", unix, err)
	}
	s.Date = time.Unix(secs, 0).UTC()
	status, err := git("status", "--porcelain")
	if err != nil {
		return s, err
	}
	at, _ := git("tag", "--points-at", "HEAD", "--list", "v*")
	s.Previous, _ = git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD^")
	if !snapshot {
		if status != "" {
			return s, fmt.Errorf("a release needs a clean tree; git status shows:\n%s\n(use --snapshot to build it anyway)", status)
		}
		for _, t := range strings.Fields(at) {
			if m := releaseTag.FindStringSubmatch(t); m != nil {
				s.Tag, s.Version = t, strings.TrimPrefix(t, "v")
				return s, nil
			}
		}
		return s, fmt.Errorf("a release needs a tag vX.Y.Z on %s (tags there: %q); use --snapshot otherwise", s.Commit[:12], at)
	}
	s.Snapshot = true
	base := "0.0.0"
	last, _ := git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD")
	if m := releaseTag.FindStringSubmatch(last); m != nil {
		patch, _ := strconv.Atoi(m[3])
		base = fmt.Sprintf("%s.%s.%d", m[1], m[2], patch+1)
	}
	s.Version = base + "-snapshot." + s.Commit[:12]
	if status != "" {
		s.Version += ".dirty"
	}
	return s, nil
}
