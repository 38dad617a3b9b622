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
	opts := check.Options{Topics: topics, RiskWindow: c.riskWindowD, RequireCommitTimes: c.commitLog == "on"}
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
