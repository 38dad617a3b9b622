package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/spf13/pflag"
)

// checkMain is `offsettui check`: the fail-closed start-up proof for one
// group. Exit 0 when every partition passes, 1 when one fails, 2 when the proof
// is incomplete or the input is bad (2 outranks 1).
func checkMain(args []string, stdout, stderr io.Writer) int {
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
		fs      = pflag.NewFlagSet("check", pflag.ContinueOnError)
		badFlag = func(format string, a ...any) int {
			fmt.Fprintf(stderr, "offsettui check: "+format+"\n", a...)
			return exitBadInput
		}
	)
	c.register(fs)
	tf.register(fs, "--sample")
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` the consumer group to prove (required, once)")
	fs.StringArrayVar(&topics, "topic", nil, "`TOPIC` check every partition of it, with or without a commit (repeatable); default: the group's partitions")
	fs.StringVar(&window, "recovery-window", "0s", "`DURATION` how long the service may be down and still resume without loss (3d, P3D; 0 = none)")
	fs.StringVar(&assume, "assume-reset", model.ResetLatest, "`earliest|latest|none` the consumer's auto.offset.reset (latest is the Kafka client default)")
	fs.BoolVar(&ignoreD, "ignore-missed-deletes", false, "the consumer does not care about deletes (tombstones) on compacted topics: a group that may have missed them passes, with a note")
	fs.StringVar(&server, "server", "", "`URL` ask a running offsettui serve (its last snapshot, docs/api.md) instead of the cluster; --context names its cluster")
	fs.StringVar(&maxAge, "max-age", "", "`DURATION` with --server: a snapshot older than this is incomplete (default twice the server's interval)")
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	if len(groups) != 1 || strings.TrimSpace(groups[0]) == "" {
		return badFlag("--group: pass exactly one consumer group to prove (got %d)", len(groups))
	}
	for _, t := range topics {
		if strings.TrimSpace(t) == "" {
			return badFlag("--topic: empty topic name")
		}
	}
	opts := check.Options{Topics: topics, RiskWindow: c.riskWindowD, RequireCommitTimes: c.commitLog == "on",
		IgnoreMissedDeletes: ignoreD}
	var err error
	if opts.RecoveryWindow, err = parse.Duration(window); err != nil {
		return badFlag("--recovery-window: %v", err)
	}
	if opts.RecoveryWindow < 0 {
		return badFlag("--recovery-window: must not be negative, got %q", window)
	}
	if opts.AssumeReset, err = model.ParseAssumeReset(assume); err != nil {
		return badFlag("--assume-reset: %v", err)
	}
	if err := tf.parse(); err != nil {
		return badFlag("%v", err)
	}
	group := groups[0]
	if server != "" || maxAge != "" {
		return checkAtServer(fs, &c, serverCheck{group: group, opts: opts, sample: tf.sampleD, timeout: c.timeoutD, now: time.Now}, server, maxAge, stdout, stderr)
	}

	ctx := context.Background()
	c.stderr = stderr
	s, err := c.connect(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "offsettui check: %v\n", err)
		if errors.Is(err, errBadInput) {
			return exitBadInput
		}
		return emitCheck(stdout, stderr, c.output, check.Unread(group, opts, time.Now(), "cannot connect: "+err.Error()))
	}
	defer s.close()
	q := model.Query{Groups: []string{group}, Topics: topics, WholeTopics: len(topics) > 0,
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
		return emitCheck(stdout, stderr, c.output, check.Unread(group, opts, time.Now(), "cannot read the cluster: "+err.Error()))
	}
	return emitCheck(stdout, stderr, c.output, check.Check(snap, group, opts))
}

// checkAtServer is check --server: the flags checked, the server asked, the answer written.
func checkAtServer(fs *pflag.FlagSet, c *common, sc serverCheck, server, maxAge string, stdout, stderr io.Writer) int {
	bad := func(err error) int {
		fmt.Fprintf(stderr, "offsettui check: %v\n", err)
		return exitBadInput
	}
	if server == "" {
		return bad(errors.New("--max-age applies to --server only"))
	}
	if err := serverFlagsRefused(fs); err != nil {
		return bad(err)
	}
	var err error
	if sc.server, err = parseServerURL(server); err != nil {
		return bad(err)
	}
	if maxAge != "" {
		if sc.maxAge, err = parse.Duration(maxAge); err != nil || sc.maxAge <= 0 {
			return bad(fmt.Errorf("--max-age: want a positive duration (1m, PT1M), got %q", maxAge))
		}
	}
	if c.commitLog == "off" {
		return bad(errors.New("--commit-log=off does not apply with --server: the server reads __consumer_offsets as its own --commit-log says"))
	}
	sc.cluster = c.context
	r, why := sc.ask(context.Background())
	if why != "" {
		fmt.Fprintf(stderr, "offsettui check: %s\n", why)
	}
	return emitCheck(stdout, stderr, c.output, r)
}

// emitCheck writes the result and returns its exit code; an output that cannot
// be written leaves the proof incomplete.
func emitCheck(stdout, stderr io.Writer, output string, r check.Result) int {
	r.ExitCode = verdictExitCode(r.Verdict)
	var err error
	if output == "json" {
		err = writeJSON(stdout, r)
	} else {
		err = report.Check(stdout, r)
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui check: write output: %v\n", err)
		return exitBadInput
	}
	return r.ExitCode
}
