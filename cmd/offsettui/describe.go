package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/spf13/pflag"
)

func describeMain(args []string, stdout, stderr io.Writer) int {
	var (
		c      common
		groups []string
		topics []string
		budget int64
		fs     = pflag.NewFlagSet("describe", pflag.ContinueOnError)
	)
	c.register(fs)
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` only this group (repeatable); reads only what it needs")
	fs.StringArrayVar(&topics, "topic", nil, "`TOPIC` only rows of this topic (repeatable)")
	fs.Int64Var(&budget, "fetch-budget", model.DefaultFetchBudget, "`BYTES` to fetch for committed-record timestamps (time lag, expires-in); 0 = none")
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	if budget < 0 {
		fmt.Fprintf(stderr, "offsettui describe: --fetch-budget: must not be negative, got %d\n", budget)
		return exitBadInput
	}
	if err := nonEmpty("--group", groups); err != nil {
		fmt.Fprintf(stderr, "offsettui describe: %v\n", err)
		return exitBadInput
	}
	if err := nonEmpty("--topic", topics); err != nil {
		fmt.Fprintf(stderr, "offsettui describe: %v\n", err)
		return exitBadInput
	}
	ctx := context.Background()
	s, code := c.connectOrExit(ctx, "describe", exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	snap, err := s.client.Snapshot(ctx, model.Query{Groups: groups, Topics: topics, RiskWindow: c.riskWindowD, FetchBudget: budget})
	if err != nil {
		fmt.Fprintf(stderr, "offsettui describe: %v\n", err)
		return exitFailure
	}
	if c.output == "json" {
		err = report.DescribeJSON(stdout, snap)
	} else {
		err = report.Describe(stdout, snap)
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui describe: write output: %v\n", err)
		return exitFailure
	}
	if missing := notFoundGroups(snap); len(missing) > 0 {
		fmt.Fprintf(stderr, "offsettui describe: %s does not exist\n", strings.Join(missing, ", "))
		return exitNotFound
	}
	return exitOK
}

// notFoundGroups names the groups of a snapshot that do not exist.
func notFoundGroups(s model.Snapshot) []string {
	var out []string
	for _, g := range s.Groups {
		if g.Error.IsGroupNotFound() {
			out = append(out, "group "+g.Group)
		}
	}
	return out
}
