package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/spf13/cobra"
)

// planOrWrite is delete-offsets and delete-group once their flags are parsed: the checks
// they share (a group, --assume-reset, the watch; badInput is the command's own), the plan,
// and with --execute the write under a reset's guards (resetFlags.finish).
func planOrWrite(cmd *cobra.Command, c common, f *resetFlags, scope plan.Scope, st plan.Strategy, bad error) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := c.validate(); err != nil {
		return badInput(err)
	}
	err := bad
	if strings.TrimSpace(f.group) == "" {
		err = fmt.Errorf("--group is required")
	}
	if err == nil {
		if f.assume, err = model.CheckAssumeReset(f.assume); err != nil {
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
		return badInput(err)
	}
	ctx, stop := signalContext(cmd.Context())
	defer stop()
	s, err := c.connectOrFail(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	svc := f.service(c, s)
	p, err := svc.Plan(ctx, f.group, scope, st)
	if err != nil {
		return planError(err)
	}
	return exitWith(f.finish(ctx, svc, s, p, c.output, stdout, stderr))
}

// planError is a plan that could not be made: blocked (exit 3) when a guard refused
// (nothing is planned on guesses or past a denial), else a failure.
func planError(err error) error {
	var denied *model.Error
	if errors.Is(err, kafka.ErrCannotProveInactive) || errors.As(err, &denied) && denied.Kind == model.KindDenied {
		return &exitError{code: exitBlocked, err: err}
	}
	return failure(err)
}
