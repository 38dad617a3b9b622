package plan

import (
	"context"
	"time"
)

// Progress is where a write stands while it waits: the executor watches a group's commits
// before it writes and after it read back (docs/resets.md#committers-outside-the-group), and
// says so every second, for a countdown (the CLI on stderr, the TUI in its planner). It says
// PhaseWrite once, when it begins the backup: from then on a cancel no longer stops it.
type Progress struct {
	// Phase is PhaseObserve (before the write), PhaseWrite (the backup and the write have
	// begun) or PhaseWatch (after the read-back).
	Phase string
	// Left is how long the phase still watches; 0 when it ended.
	Left time.Duration
	// Moves counts the moves of the group's committed offsets seen so far in the phase.
	Moves int
}

// The phases of Progress.
const (
	PhaseObserve = "observe"
	PhaseWrite   = "write"
	PhaseWatch   = "watch"
)

type progressKey struct{}

// WithProgress returns ctx carrying fn, which the executor calls with its Progress: how a
// front end shows a countdown without the executor knowing it (as net/http/httptrace does
// for requests).
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ReportProgress calls the function ctx carries, if any.
func ReportProgress(ctx context.Context, p Progress) {
	if fn, ok := ctx.Value(progressKey{}).(func(Progress)); ok && fn != nil {
		fn(p)
	}
}
