package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/spf13/cobra"
)

// newCheckCmd is `offsettui check`: the fail-closed start-up proof for one
// group. Exit 0 when every partition passes, 1 when one fails, 2 when the proof
// is incomplete or the input is bad (2 outranks 1).
func newCheckCmd() *cobra.Command {
	var (
		c       common
		tf      timeFlags
		groups  []string
		topics  []string
		window  string
		assume  string
		ignoreD bool
		server  string
		maxAge  string
	)
	cmd := &cobra.Command{
		Use:   "check --group G [--topic T]... [--recovery-window DURATION] [--assume-reset earliest|latest|none] [flags]",
		Short: "fail-closed proof that one group can start without losing data",
		Long: "A fail-closed proof that one group's consumer can start without losing data: exit 0 every\n" +
			"partition passes, 1 one fails, 2 the proof could not be completed. The last line is the verdict.",
		Example: "  offsettui check --demo --group fanout\n" +
			"  offsettui check --bootstrap-server kafka:9092 --group fanout --topic outbox --recovery-window P3D --assume-reset earliest\n" +
			"  offsettui check --server http://offsettui:9308 --group fanout --topic outbox --assume-reset earliest   # a running serve's snapshot",
	}
	fs := cmd.Flags()
	c.register(fs)
	tf.register(fs, "--sample")
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` the consumer group to prove (required, once)")
	fs.StringArrayVar(&topics, "topic", nil, "`TOPIC` check every partition of it, with or without a commit (repeatable); default: the group's partitions")
	fs.StringVar(&window, "recovery-window", "0s", "`DURATION` how long the service may be down and still resume without loss (3d, P3D; 0 = none)")
	fs.StringVar(&assume, "assume-reset", model.ResetLatest, "`earliest|latest|none` the consumer's auto.offset.reset (latest is the Kafka client default)")
	fs.BoolVar(&ignoreD, "ignore-missed-deletes", false, "the consumer does not care about deletes (tombstones) on compacted topics: a group that may have missed them passes, with a note")
	fs.StringVar(&server, "server", "", "`URL` ask a running offsettui serve (its last snapshot, docs/api.md) instead of the cluster; --context names its cluster")
	fs.StringVar(&maxAge, "max-age", "", "`DURATION` with --server: a snapshot older than this is incomplete (default twice the server's interval)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		if err := checkNames(groups, topics); err != nil {
			return err
		}
		opts := check.Options{Topics: topics, RiskWindow: c.riskWindowD, RequireCommitTimes: c.commitLog == "on",
			IgnoreMissedDeletes: ignoreD}
		var err error
		if opts.RecoveryWindow, err = parse.Duration(window); err != nil {
			return badInputf("--recovery-window: %v", err)
		}
		if opts.RecoveryWindow < 0 {
			return badInputf("--recovery-window: must not be negative, got %q", window)
		}
		if opts.AssumeReset, err = model.ParseAssumeReset(assume); err != nil {
			return badInputf("--assume-reset: %v", err)
		}
		if err := tf.parse(); err != nil {
			return badInput(err)
		}
		group := groups[0]
		if server != "" || maxAge != "" {
			return checkAtServer(cmd, &c, serverCheck{group: group, opts: opts, sample: tf.sampleD, timeout: c.timeoutD, now: time.Now}, server, maxAge)
		}
		return checkAtCluster(cmd, &c, tf, group, opts)
	}
	return cmd
}

// checkNames refuses anything but exactly one --group, not blank, and a blank --topic.
func checkNames(groups, topics []string) error {
	if len(groups) != 1 || strings.TrimSpace(groups[0]) == "" {
		return badInputf("--group: pass exactly one consumer group to prove (got %d)", len(groups))
	}
	for _, t := range topics {
		if strings.TrimSpace(t) == "" {
			return badInputf("--topic: empty topic name")
		}
	}
	return nil
}

// checkAtCluster is check against the cluster: a snapshot of the group (with --sample,
// the last of those taken), proved, and the verdict written. A cluster that cannot be
// reached or read makes the proof incomplete, with the reason.
func checkAtCluster(cmd *cobra.Command, c *common, tf timeFlags, group string, opts check.Options) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	ctx := cmd.Context()
	c.stderr = stderr
	s, err := c.connect(ctx)
	if err != nil {
		if isBadInput(err) {
			return err
		}
		fmt.Fprintf(stderr, "offsettui check: %v\n", err)
		return exitWith(emitCheck(stdout, stderr, c.output, check.Unread(group, opts, time.Now(), "cannot connect: "+err.Error())))
	}
	defer s.close()
	q := model.Query{Groups: []string{group}, Topics: opts.Topics, WholeTopics: len(opts.Topics) > 0,
		RiskWindow: c.riskWindowD, FetchBudget: model.DefaultFetchBudget}
	q = c.withCommitLog(q)
	var snap model.Snapshot
	if tf.sampleD > 0 {
		run := &describeRun{src: s.client, q: q, errw: stderr, tf: tf, clock: sampler.RealClock}
		snap, err = run.sampleLast(ctx, "check")
	} else {
		snap, err = s.client.Snapshot(ctx, q)
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui check: %v\n", err)
		return exitWith(emitCheck(stdout, stderr, c.output, check.Unread(group, opts, time.Now(), "cannot read the cluster: "+err.Error())))
	}
	return exitWith(emitCheck(stdout, stderr, c.output, check.Check(snap, group, opts)))
}

// checkAtServer is check --server: the flags checked, the server asked, the answer written.
func checkAtServer(cmd *cobra.Command, c *common, sc serverCheck, server, maxAge string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if server == "" {
		return badInputf("--max-age applies to --server only")
	}
	if err := serverFlagsRefused(cmd.Flags()); err != nil {
		return badInput(err)
	}
	var err error
	if sc.server, err = parseServerURL(server); err != nil {
		return badInput(err)
	}
	if maxAge != "" {
		if sc.maxAge, err = parse.Duration(maxAge); err != nil || sc.maxAge <= 0 {
			return badInputf("--max-age: want a positive duration (1m, PT1M), got %q", maxAge)
		}
	}
	if c.commitLog == "off" {
		return badInputf("--commit-log=off does not apply with --server: the server reads __consumer_offsets as its own --commit-log says")
	}
	sc.cluster = c.context
	r, why := sc.ask(cmd.Context())
	if why != "" {
		fmt.Fprintf(stderr, "offsettui check: %s\n", why)
	}
	return exitWith(emitCheck(stdout, stderr, c.output, r))
}

// emitCheck writes the result and returns its exit code; an output that cannot
// be written leaves the proof incomplete.
func emitCheck(stdout, stderr io.Writer, output string, r check.Result) exitCode {
	code := verdictExitCode(r.Verdict)
	r.ExitCode = int(code)
	var err error
	if output == "json" {
		err = writeJSON(stdout, r)
	} else {
		err = report.Check(stdout, r)
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui check: write output: %v\n", err)
		return exitIncomplete
	}
	return code
}
