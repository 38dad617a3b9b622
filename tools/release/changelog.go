package release

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Changelog is the release's CHANGELOG.md: one line per commit since the
// previous release tag (since the first commit without one), newest first.
func Changelog(ctx context.Context, repo string, s Stamp) ([]byte, error) {
	rng, since := "HEAD", "the first commit"
	if s.Previous != "" {
		rng, since = s.Previous+"..HEAD", s.Previous
	}
	out, err := exec.CommandContext(ctx, "git", "-C", repo, "log", "--no-merges", "--format=%h %s", rng).Output()
	if err != nil {
		return nil, fmt.Errorf("git log %s: %w", rng, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# offsettui %s (%s)\n\nChanges since %s:\n\n", s.Version, s.Date.Format("2006-01-02"), since)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "- %s\n", line)
		}
	}
	return []byte(b.String()), nil
}
