// Package sampler decides when `describe --sample`, `describe --watch` and
// `check --sample` take their snapshots: one at once, then one every
// interval on a fixed schedule, the last exactly when the duration is up. It
// only keeps time; what a snapshot is, and what to do with it, is the
// caller's.
package sampler

import (
	"context"
	"time"
)

// Plan says when to take snapshots.
type Plan struct {
	// For is how long to sample; 0 samples until ctx ends (--watch).
	For time.Duration
	// Every is the time between two snapshots; must be positive.
	Every time.Duration
}

// Clock is the time the sampler keeps; tests replace it.
type Clock struct {
	Now func() time.Time
	// Sleep waits d or until ctx ends, and returns ctx's error then.
	Sleep func(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
var RealClock = Clock{Now: time.Now, Sleep: sleep}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Run calls take at once and then at start + k·Every, and once more at
// start + For when For is set (at least two calls then). A take that overruns
// the next slot skips the slots it missed, so slow snapshots do not pile up
// and the whole run ends no later than For plus the last take's own
// duration. last is true for the final call of a bounded plan. Run stops at
// the first error from take, or when ctx ends (returning nil for --watch,
// whose end is Ctrl-C).
func Run(ctx context.Context, p Plan, clk Clock, take func(ctx context.Context, last bool) error) error {
	start := clk.Now()
	end := start.Add(p.For)
	next := start
	for {
		last := p.For > 0 && !next.Before(end)
		if err := take(ctx, last); err != nil {
			return err
		}
		if last {
			return nil
		}
		now := clk.Now()
		for !next.After(now) {
			next = next.Add(p.Every)
		}
		if p.For > 0 && next.After(end) {
			next = end
		}
		if err := clk.Sleep(ctx, next.Sub(now)); err != nil {
			if p.For == 0 {
				return nil
			}
			return err
		}
	}
}
