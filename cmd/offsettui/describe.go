package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/spf13/pflag"
)

// describeMain is `offsettui describe`; Ctrl-C (or SIGTERM) ends --watch.
func describeMain(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return describeContext(ctx, args, stdout, stderr)
}

// describeContext is `offsettui describe`; ctx ends --watch (Ctrl-C).
func describeContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		c        common
		tf       timeFlags
		groups   []string
		topics   []string
		budget   int64
		watch    bool
		baseline string
		fs       = pflag.NewFlagSet("describe", pflag.ContinueOnError)
		bad      = func(format string, a ...any) int {
			fmt.Fprintf(stderr, "offsettui describe: "+format+"\n", a...)
			return exitBadInput
		}
	)
	c.markdown = true
	c.register(fs)
	tf.register(fs, "--sample and --watch")
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` only this group (repeatable); reads only what it needs")
	fs.StringArrayVar(&topics, "topic", nil, "`TOPIC` only rows of this topic (repeatable)")
	fs.Int64Var(&budget, "fetch-budget", model.DefaultFetchBudget, "`BYTES` to fetch for committed-record timestamps (time lag, expires-in); 0 = none")
	fs.BoolVar(&watch, "watch", false, "keep taking snapshots every --interval and print each one, with rates, until Ctrl-C")
	fs.StringVar(&baseline, "baseline", "", "`FILE` an earlier describe -o json: show what changed since")
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	if budget < 0 {
		return bad("--fetch-budget: must not be negative, got %d", budget)
	}
	if err := tf.parse(); err != nil {
		return bad("%v", err)
	}
	if watch && tf.sampleD > 0 {
		return bad("--watch and --sample exclude each other: --watch samples until Ctrl-C, --sample for a fixed time")
	}
	run := &describeRun{out: stdout, errw: stderr, output: c.output, tf: tf, groups: groups, clock: sampler.RealClock,
		tty: isTerminal(stdout)}
	if baseline != "" {
		b, err := readBaseline(baseline)
		if err != nil {
			return bad("--baseline: %v", err)
		}
		if !b.Cluster.TakenAt.Before(time.Now()) {
			return bad("--baseline: %s was taken at %s, not before now", baseline, b.Cluster.TakenAt.UTC().Format(model.StampLayout))
		}
		run.base, run.baseFile = &b, baseline
	}
	if err := nonEmpty("--group", groups); err != nil {
		return bad("%v", err)
	}
	if err := nonEmpty("--topic", topics); err != nil {
		return bad("%v", err)
	}
	s, code := c.connectOrExit(ctx, "describe", exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	run.src = s.client
	run.q = c.withCommitLog(model.Query{Groups: groups, Topics: topics, RiskWindow: c.riskWindowD, FetchBudget: budget, CommitLogCatchUp: watch})
	switch {
	case watch:
		return run.watch(ctx)
	case tf.sampleD > 0:
		return run.sample(ctx)
	}
	return run.once(ctx)
}

func readBaseline(path string) (model.Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return model.Snapshot{}, err
	}
	defer f.Close()
	return timeaxis.ReadBaseline(f, path)
}

// notFoundGroups names the groups named with --group that do not exist (exit 3); a group
// deleted while the snapshot was taken, not named, is shown gone and changes no exit code.
func notFoundGroups(s model.Snapshot, named []string) []string {
	var out []string
	for _, g := range s.Groups {
		if g.Error.IsGroupNotFound() && slices.Contains(named, g.Group) {
			out = append(out, "group "+g.Group)
		}
	}
	return out
}
