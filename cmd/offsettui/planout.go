package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/pflag"
)

// registerPlanOut adds --plan-out to a command that plans a write (reset, delete-offsets,
// delete-group).
func (f *resetFlags) registerPlanOut(fs *pflag.FlagSet) {
	fs.StringVar(&f.planOut, "plan-out", "",
		"`FILE` write the plan to FILE, a plan file for another person to review and apply (offsettui apply FILE); nothing is written to Kafka")
}

// checkPlanOut refuses --plan-out with --execute, and a FILE that exists: a plan file is
// never written over another file.
func (f *resetFlags) checkPlanOut() error {
	switch {
	case f.planOut == "":
		return nil
	case f.execute:
		return errors.New("--plan-out writes a plan for another person to apply (offsettui apply FILE): it does not go with --execute")
	}
	if _, err := os.Lstat(f.planOut); err == nil {
		return fmt.Errorf("--plan-out %s: the file exists; a plan file is never written over another file", f.planOut)
	}
	return nil
}

// writePlanOut prints plan p, as a dry run does, and writes it to the plan file: exit 0, or
// 3 when the plan is blocked (no file: nobody could apply it; a read-only blocker is the
// planner's setting and no reason, reset.Fileable), 1 when the file cannot be written.
func (f *resetFlags) writePlanOut(svc *reset.Service, p plan.Plan, format string, stdout, stderr io.Writer) exitCode {
	if err := output(stdout, format, p, nil); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.prefix(), err)
		return exitFailure
	}
	path := absPath(f.planOut)
	written, err := reset.WritePlanFile(path, p, svc.Author(f.prefix()))
	switch {
	case errors.Is(err, reset.ErrPlanBlocked):
		fmt.Fprintf(stderr, "%s: no plan file written: %v\n", f.prefix(), err)
		return exitBlocked
	case err != nil:
		fmt.Fprintf(stderr, "%s: no plan file written: %v\n", f.prefix(), err)
		return exitFailure
	}
	fmt.Fprintf(stderr, "PLAN FILE: %s (sha256 %s). Nothing was written to Kafka. offsettui apply %s shows it beside the group as it is then; with --execute it applies it as planned.\n",
		path, written.Reviewed.SHA256, shellQuote(path))
	return exitOK
}
