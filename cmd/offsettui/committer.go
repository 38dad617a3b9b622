package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/spf13/pflag"
)

// watchFlags are the flags of the guard against committers outside the group
// (docs/resets.md#committers-outside-the-group): how long a write watches the group's
// commits, and the override.
type watchFlags struct {
	observe        string
	observeD       time.Duration
	allowCommitter bool
}

// observeDefault is --observe's default: reset.DefaultObserve. The package's tests set it to
// 0 (TestMain), so that the tests of other guards do not wait for the watch; the tests of the
// watch pass --observe.
var observeDefault = reset.DefaultObserve

// maxObserve bounds --observe: a longer watch catches longer commit intervals, but a write
// that waits longer than this is better made once the committer is stopped.
const maxObserve = 10 * time.Minute

// register adds --observe, and --allow-committer where an override is a flag (reset; the
// TUI's planner has a key for it).
func (w *watchFlags) register(fs *pflag.FlagSet, override bool) {
	fs.StringVar(&w.observe, "observe", observeDefault.String(),
		"`DURATION` a write watches the group's commits before it and after its read-back, for a consumer committing from outside the group (0: no watch)")
	if override {
		fs.BoolVar(&w.allowCommitter, "allow-committer", false,
			"write even when a client outside the group is seen committing its offsets (it may overwrite the write)")
	}
}

// parse checks --observe; the error names the flag.
func (w *watchFlags) parse() error {
	var err error
	if w.observeD, err = parse.Duration(w.observe); err != nil {
		return fmt.Errorf("--observe: %w", err)
	}
	if w.observeD < 0 || w.observeD > maxObserve {
		return fmt.Errorf("--observe: want 0 (no watch) up to %s, got %q", text.HumanDuration(maxObserve), w.observe)
	}
	return nil
}

// countdown writes the executor's progress to w (stderr): a line redrawn in place on a
// terminal, one line per phase elsewhere.
func countdown(w io.Writer, group string, tty bool) func(plan.Progress) {
	phase := ""
	return func(p plan.Progress) {
		if p.Phase == plan.PhaseWrite {
			return // the backup and the write: nothing to count down
		}
		what := "before writing (nothing written yet: Ctrl-C cancels)"
		if p.Phase == plan.PhaseWatch {
			what = "after writing, in case a consumer outside it overwrites the write"
		}
		started := p.Phase != phase
		phase = p.Phase
		switch {
		case tty && p.Left > 0:
			fmt.Fprintf(w, "\r\x1b[Koffsettui reset: watching group %s's commits %s: %s left", group, what, text.HumanDuration(p.Left.Round(time.Second)))
		case tty:
			fmt.Fprintln(w, "\r\x1b[K"+fmt.Sprintf("offsettui reset: watched group %s's commits %s", group, what))
		case started:
			fmt.Fprintf(w, "offsettui reset: watching group %s's commits for %s %s\n", group, text.HumanDuration(p.Left.Round(time.Second)), what)
		}
	}
}

// The TUI's resets read the commit history too.
var _ reset.CommitHistory = (*lazyClient)(nil)

// CommitsSeen implements reset.CommitHistory: none while the cluster cannot be reached.
func (l *lazyClient) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	cl, err := l.client(ctx)
	if err != nil {
		return nil
	}
	return cl.CommitsSeen(ctx, group, typ, since)
}
