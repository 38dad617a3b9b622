package plan

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// The guard against committers outside the group (docs/resets.md#committers-outside-the-group):
// a group without members whose commits keep moving has a consumer committing for it from
// outside, whose next commit would overwrite any write. Kafka's own tool resets such a
// group (it is Empty); offsettui refuses unless the operator overrides.

// BlockCommitter: a client outside the group keeps committing its offsets.
const BlockCommitter BlockerKind = "committer"

// AllowCommitterHint is how an operator overrides the committer guard, in each front end.
const AllowCommitterHint = "--allow-committer (the TUI's planner: !)"

// CommitterText says what was seen of a committer: "12 commits over 22s, every 2s, moving
// the offsets 20/s (seen in __consumer_offsets)".
func CommitterText(c *model.Committer) string {
	var b strings.Builder
	b.WriteString(text.Plural(c.Commits, "commit"))
	if span := c.Last.Sub(c.First.Time); span > 0 {
		b.WriteString(" over " + text.HumanDuration(span))
	}
	if c.IntervalMs.OK {
		b.WriteString(", every " + text.HumanDuration(time.Duration(c.IntervalMs.V)*time.Millisecond))
	}
	if c.Rate > 0 {
		b.WriteString(", moving the offsets " + text.FormatRate(c.Rate))
	} else {
		b.WriteString(", the same offsets again (idle partitions)")
	}
	var where []string
	for _, s := range c.Seen {
		where = append(where, seenWords[s])
	}
	b.WriteString(" (seen " + strings.Join(where, " and ") + ")")
	return b.String()
}

var seenWords = map[string]string{
	model.SeenCommitLog:   "in __consumer_offsets",
	model.SeenTimeAxis:    "across snapshots",
	model.SeenObservation: "while watching before the write",
}

// CommitterBlocker is the blocker of a write to group while c commits for it.
func CommitterBlocker(group string, c *model.Committer) Blocker {
	return Blocker{Kind: BlockCommitter, Message: fmt.Sprintf(
		"group %s has no members, yet a client outside it keeps committing its offsets: %s. "+
			"It is a consumer that commits without joining the group (assign() and commit: Flink, Spark, a hand-written service); "+
			"its next commit would overwrite this write, as it overwrites a reset by Kafka's own tool. "+
			"Stop the consumer that commits for this group, then plan again; override with %s",
		group, CommitterText(c), AllowCommitterHint)}
}

// MovedBlocker is the blocker of a write to group whose committed offsets moved during the
// observation before it (moves of them), too few to measure a committer's cadence.
func MovedBlocker(group string, moves int, watched time.Duration) Blocker {
	return Blocker{Kind: BlockCommitter, Message: fmt.Sprintf(
		"group %s has no members, yet its committed offsets moved %s during the %s watch before the write: "+
			"something commits for it (a consumer outside the group with assign() and commit, or another reset), "+
			"and it would overwrite this write. Stop the consumer that commits for this group, then plan again; override with %s",
		group, times(moves), text.HumanDuration(watched), AllowCommitterHint)}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// WithCommitter returns p with c, a committer seen outside the group (nil: none), and
// the operator's override: with allow the plan keeps what was seen but is not blocked by it
// (AllowCommitter); without it, a committer blocks the plan.
func (p Plan) WithCommitter(c *model.Committer, allow bool) Plan {
	if c != nil {
		p.Committer = c
	}
	p.AllowCommitter = allow
	p.Blockers = slices.DeleteFunc(slices.Clone(p.Blockers), func(b Blocker) bool { return b.Kind == BlockCommitter })
	if p.Committer != nil && !allow {
		p.Blockers = append(p.Blockers, CommitterBlocker(p.Group, p.Committer))
	}
	return p
}
