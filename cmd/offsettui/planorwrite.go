package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// planOrWrite is delete-offsets and delete-group once their flags are parsed: the checks
// they share (a group, --assume-reset, the watch; badInput is the command's own), the plan,
// and with --execute the write under a reset's guards (resetFlags.finish).
func planOrWrite(c common, f *resetFlags, scope plan.Scope, st plan.Strategy, badInput error, stdout, stderr io.Writer) int {
	err := badInput
	if strings.TrimSpace(f.group) == "" {
		err = fmt.Errorf("--group is required")
	}
	if err == nil {
		if f.assume, err = model.ParseAssumeReset(f.assume); err != nil {
			err = fmt.Errorf("--assume-reset: %w", err)
		}
	}
	if err == nil {
		err = f.watch.parse()
	}
	if err == nil {
		err = f.checkPlanOut()
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui %s: %v\n", f.cmd, err)
		return exitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, code := c.connectOrExit(ctx, f.cmd, exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	svc := f.service(c, s)
	p, err := svc.Plan(ctx, f.group, scope, st)
	if err != nil {
		fmt.Fprintf(stderr, "offsettui %s: %v\n", f.cmd, err)
		return planErrorExit(err)
	}
	return f.finish(ctx, svc, s, p, c.output, stdout, stderr)
}

// planErrorExit is the exit code of a plan that could not be made: blocked when a guard
// refused (nothing is planned on guesses or past a denial), else a failure.
func planErrorExit(err error) int {
	var denied *model.Error
	if errors.Is(err, kafka.ErrCannotProveInactive) || errors.As(err, &denied) && denied.Kind == model.KindDenied {
		return exitBlocked
	}
	return exitFailure
}
