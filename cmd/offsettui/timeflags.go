package main

import (
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/spf13/pflag"
)

// timeFlags are the time-axis flags (docs/timeaxis.md): how long and how often
// to sample, and how long a commit must stand still to be stalled.
type timeFlags struct {
	sample, interval, stallAfter string
	sampling                     bool // --sample and --interval are offered

	sampleD, intervalD, stallAfterD time.Duration
}

// register adds the flags: --sample and --interval when sampling ("" for none; else the
// flags --interval paces, as its help says), and --stall-after always.
func (t *timeFlags) register(fs *pflag.FlagSet, sampling string) {
	t.sampling = sampling != ""
	if t.sampling {
		fs.StringVar(&t.sample, "sample", "", "`DURATION` to take snapshots over (e.g. 30s), showing rates, ETA, evaluation and time to loss")
		fs.StringVar(&t.interval, "interval", "5s", "`DURATION` between the snapshots of "+sampling)
	}
	fs.StringVar(&t.stallAfter, "stall-after", timeaxis.DefaultStallAfter.String(),
		"`DURATION` a committed offset must stand still, with lag, before the partition is stalled or stopped")
}

// parse checks the flags; the error names the flag.
func (t *timeFlags) parse() error {
	var err error
	if t.stallAfterD, err = parse.Duration(t.stallAfter); err != nil {
		return fmt.Errorf("--stall-after: %w", err)
	}
	if t.stallAfterD <= 0 {
		return fmt.Errorf("--stall-after: must be positive, got %q", t.stallAfter)
	}
	if !t.sampling {
		return nil
	}
	if t.intervalD, err = parse.Duration(t.interval); err != nil {
		return fmt.Errorf("--interval: %w", err)
	}
	if t.intervalD <= 0 {
		return fmt.Errorf("--interval: must be positive, got %q", t.interval)
	}
	if t.sample != "" {
		if t.sampleD, err = parse.Duration(t.sample); err != nil {
			return fmt.Errorf("--sample: %w", err)
		}
		if t.sampleD <= 0 {
			return fmt.Errorf("--sample: must be positive (how long to sample, e.g. 30s), got %q", t.sample)
		}
	}
	return nil
}

func (t *timeFlags) options() timeaxis.Options { return timeaxis.Options{StallAfter: t.stallAfterD} }

// sampleHistory keeps up to 32 samples spread over --sample (docs/timeaxis.md).
func (t *timeFlags) sampleHistory() *timeaxis.History {
	return timeaxis.NewHistory(32, t.sampleD/16)
}

// watchHistory keeps samples reaching back about 2 × --stall-after, as the TUI does.
func (t *timeFlags) watchHistory() *timeaxis.History { return timeaxis.NewWatchHistory(t.stallAfterD) }
