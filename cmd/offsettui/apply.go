package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/pflag"
)

// applyFlags are apply's own flags.
type applyFlags struct {
	execute   bool
	backupDir string
	watch     watchFlags
}

// register adds apply's own flags to fs. There is no --assume-reset nor --allow-committer:
// the plan file's are the ones reviewed.
func (f *applyFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.execute, "execute", false, "apply the plan (default: show it beside the group now and write nothing)")
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	f.watch.register(fs, false)
}

// applyMain is `offsettui apply FILE`: a plan file (reset|delete-offsets|delete-group
// --plan-out) shown beside its group as it is now, and with --execute written exactly as
// reviewed by the reset service, under a reset's guards, when the cluster is the plan's and
// nothing drifted (docs/resets.md#plan-files).
func applyMain(args []string, stdout, stderr io.Writer) int {
	var (
		c  common
		f  applyFlags
		fs = pflag.NewFlagSet("apply", pflag.ContinueOnError)
	)
	c.register(fs)
	f.register(fs)
	files, ok, code := parseFlagsWithArgs(fs, &c, args, "FILE", stdout, stderr)
	if !ok {
		return code
	}
	planned, err := reset.LoadPlanFile(files[0])
	if err == nil {
		err = f.watch.parse()
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui apply: %v\n", err)
		return exitBadInput
	}
	// As for reset: SIGINT and SIGTERM cancel the re-read and the watch before the backup;
	// from the backup on the write runs to its answer.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, code := c.connectOrExit(ctx, "apply", exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	svc := f.service(c, s, planned)
	appliedBy := svc.Author("").By
	now, committed, err := svc.Recheck(ctx, planned)
	if err != nil {
		fmt.Fprintf(stderr, "offsettui apply: %v\n", err)
		return planErrorExit(err)
	}
	if !f.execute || !now.Executable() {
		if err := applyOutput(stdout, c.output, report.NewApplyDocument(planned, now, committed, appliedBy, nil)); err != nil {
			fmt.Fprintf(stderr, "offsettui apply: %v\n", err)
			return exitFailure
		}
		switch {
		case !now.Executable():
			fmt.Fprintf(stderr, "offsettui apply: refused: the plan cannot be applied now (see REFUSED NOW); nothing was written. Plan again and have the new plan reviewed\n")
			return exitBlocked
		default:
			fmt.Fprintln(stderr, "DRY RUN: nothing was written. Add --execute to apply this plan as reviewed (offsettui writes a backup first).")
			return exitOK
		}
	}
	res := svc.Execute(plan.WithProgress(ctx, countdown(stderr, planned.Group, isTerminal(stderr))), planned)
	if c.output == "json" {
		out := res.Outcome
		if err := writeJSON(stdout, report.NewApplyDocument(planned, res.Plan, committed, appliedBy, &out)); err != nil {
			fmt.Fprintf(stderr, "offsettui apply: %v\n", err)
		}
	} else {
		report.PlanFileHeading(stdout, planned, appliedBy)
		if err := report.Plan(stdout, res.Plan, res.Notes); err != nil {
			fmt.Fprintf(stderr, "offsettui apply: %v\n", err)
		}
		fmt.Fprintln(stdout, report.OutcomeLine(res.Outcome))
	}
	fmt.Fprintf(stderr, "offsettui apply: %s\n", res.Outcome)
	return outcomeExitCode(res.Outcome)
}

// service is the reset service apply writes with: reset's, with the plan file's own
// auto.offset.reset (its counts are the reviewed ones).
func (f *applyFlags) service(c common, s *session, planned plan.Plan) *reset.Service {
	return &reset.Service{Cluster: s.client, ClusterName: s.client.Bootstrap, ReadOnly: c.readOnly, BackupDir: f.backupDir,
		AssumeReset: planned.AssumeReset, RiskWindow: c.riskWindowD, Observe: f.watch.observeD,
		UndoCommand: func(group, backup string) string {
			return undoCommand(c, s.contextName(), s.client.Bootstrap(), group, backup, f.backupDir)
		}}
}

// applyOutput writes a dry run's document as a table or JSON.
func applyOutput(w io.Writer, format string, d report.ApplyDocument) error {
	if format == "json" {
		return writeJSON(w, d)
	}
	return report.Apply(w, d)
}
