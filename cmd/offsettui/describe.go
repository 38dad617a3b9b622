package main

import (
	"os"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/spf13/cobra"
)

// newDescribeCmd is `offsettui describe`; Ctrl-C (or SIGTERM) ends --watch.
func newDescribeCmd() *cobra.Command {
	var (
		c        common
		tf       timeFlags
		groups   []string
		topics   []string
		budget   int64
		watch    bool
		baseline string
	)
	cmd := &cobra.Command{
		Use:   "describe [flags]",
		Short: "every group's positions as a table or JSON",
		Long: "Every group's positions (low, committed, high, lag, status, time lag, expires-in) as a table\n" +
			"like kafka-consumer-groups --describe, as JSON (docs/json.md), or as the Markdown incident\n" +
			"report (-o markdown) the TUI's w writes.",
		Example: "  offsettui describe --demo\n  offsettui describe --bootstrap-server kafka:9092 --group billing --group audit-export\n" +
			"  offsettui describe --bootstrap-server kafka:9092 --topic orders -o json\n" +
			"  offsettui describe --bootstrap-server kafka:9092 --sample 30s -o markdown > incident.md",
	}
	fs := cmd.Flags()
	c.markdown = true
	c.register(fs)
	tf.register(fs, "--sample and --watch")
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` only this group (repeatable); reads only what it needs")
	fs.StringArrayVar(&topics, "topic", nil, "`TOPIC` only rows of this topic (repeatable)")
	fs.Int64Var(&budget, "fetch-budget", model.DefaultFetchBudget, "`BYTES` to fetch for committed-record timestamps (time lag, expires-in); 0 = none")
	fs.BoolVar(&watch, "watch", false, "keep taking snapshots every --interval and print each one, with rates, until Ctrl-C")
	fs.StringVar(&baseline, "baseline", "", "`FILE` an earlier describe -o json: show what changed since")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		if budget < 0 {
			return badInputf("--fetch-budget: must not be negative, got %d", budget)
		}
		if err := tf.parse(); err != nil {
			return badInput(err)
		}
		if watch && tf.sampleD > 0 {
			return badInputf("--watch and --sample exclude each other: --watch samples until Ctrl-C, --sample for a fixed time")
		}
		run := &describeRun{out: stdout, errw: stderr, output: c.output, tf: tf, groups: groups, clock: sampler.RealClock,
			tty: isTerminal(stdout)}
		if baseline != "" {
			b, err := readBaseline(baseline)
			if err != nil {
				return badInputf("--baseline: %v", err)
			}
			if !b.Cluster.TakenAt.Before(time.Now()) {
				return badInputf("--baseline: %s was taken at %s, not before now", baseline, b.Cluster.TakenAt.UTC().Format(model.StampLayout))
			}
			run.base, run.baseFile = &b, baseline
		}
		if err := nonEmpty("--group", groups); err != nil {
			return badInput(err)
		}
		if err := nonEmpty("--topic", topics); err != nil {
			return badInput(err)
		}
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		s, err := c.connectOrFail(ctx, stderr)
		if err != nil {
			return err
		}
		defer s.close()
		run.src = s.client
		run.q = c.withCommitLog(model.Query{Groups: groups, Topics: topics, RiskWindow: c.riskWindowD, FetchBudget: budget, CommitLogCatchUp: watch})
		switch {
		case watch:
			return exitWith(run.watch(ctx))
		case tf.sampleD > 0:
			return exitWith(run.sample(ctx))
		}
		return exitWith(run.once(ctx))
	}
	return cmd
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
