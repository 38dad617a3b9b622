package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/cobra"
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

// newApplyCmd is `offsettui apply FILE`: a plan file (reset|delete-offsets|delete-group
// --plan-out) shown beside its group as it is now, and with --execute written exactly as
// reviewed by the reset service, under a reset's guards, when the cluster is the plan's and
// nothing drifted (docs/resets.md#plan-files).
func newApplyCmd() *cobra.Command {
	var (
		c common
		f applyFlags
	)
	cmd := &cobra.Command{
		Use:         "apply FILE [--execute] [flags]",
		Annotations: map[string]string{synopsisAnnotation: "offsettui apply FILE [flags]"},
		Short:       "show a plan file (--plan-out) beside its group now; --execute applies it",
		Long: "Shows a plan file (reset, delete-offsets or delete-group --plan-out; the TUI planner's w; an MCP\n" +
			"plan tool's plan-out) beside its group as it is now, and with --execute and the group's name typed\n" +
			"(or on stdin) as the confirmation writes exactly the plan\n" +
			"reviewed, under a reset's guards, when the cluster is the plan's, the group is in the state it\n" +
			"required and every row's commit is the one planned; else exit 3, nothing written. An edited or\n" +
			"cut file: exit 2 (docs/resets.md#plan-files).",
		Example: "  offsettui reset --bootstrap-server kafka:9092 --group billing --all-topics --by-duration 1h --plan-out billing-rewind.json\n" +
			"  offsettui apply billing-rewind.json --bootstrap-server kafka:9092              # the plan beside the group now\n" +
			"  echo billing | offsettui apply billing-rewind.json --bootstrap-server kafka:9092 --execute   # the group's name confirms",
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return badInputf("the plan FILE is missing (%s --help)", cmd.CommandPath())
			case len(args) > 1:
				return badInputf("one plan FILE, got %d: %q (%s --help)", len(args), args, cmd.CommandPath())
			}
			return nil
		},
	}
	fs := cmd.Flags()
	c.register(fs)
	f.register(fs)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		planned, err := reset.LoadPlanFile(args[0])
		if err == nil {
			err = f.watch.parse()
		}
		if err != nil {
			return badInput(err)
		}
		return f.apply(cmd, c, planned)
	}
	return cmd
}

// apply re-reads the plan's group, shows the plan beside it, and with --execute writes it.
func (f *applyFlags) apply(cmd *cobra.Command, c common, planned plan.Plan) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	// As for reset: SIGINT and SIGTERM cancel the re-read and the watch before the backup;
	// from the backup on the write runs to its answer.
	ctx, stop := signalContext(cmd.Context())
	defer stop()
	s, err := c.connectOrFail(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	svc := f.service(c, s, planned)
	appliedBy := svc.Author("").By
	now, committed, err := svc.Recheck(ctx, planned)
	if err != nil {
		return planError(err)
	}
	if !f.execute || !now.Executable() {
		if err := applyOutput(stdout, c.output, report.NewApplyDocument(planned, now, committed, appliedBy, nil)); err != nil {
			return failure(err)
		}
		if !now.Executable() {
			fmt.Fprintln(stderr, "offsettui apply: refused: the plan cannot be applied now (see REFUSED NOW); nothing was written. Plan again and have the new plan reviewed")
			return exitWith(exitBlocked)
		}
		fmt.Fprintln(stderr, "DRY RUN: nothing was written. Add --execute to apply this plan as reviewed (offsettui writes a backup first).")
		return nil
	}
	if err := confirmApply(cmd.InOrStdin(), stderr, planned.Group); err != nil {
		fmt.Fprintf(stderr, "offsettui apply: not applied: %v; nothing was written\n", err)
		return exitWith(exitBlocked)
	}
	res := svc.Execute(plan.WithProgress(ctx, countdown(stderr, "offsettui apply", planned.Group, planned.Strategy.Kind, isTerminal(stderr))), planned)
	if s.demo != nil && res.Plan.Undo != nil {
		res.Notes = append(res.Notes, "the demo cluster stopped when this command exited: the undo command above cannot reach it")
	}
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
		fmt.Fprintln(stdout, report.OutcomeLine(res.Outcome, res.Plan.Strategy.Kind))
	}
	fmt.Fprintf(stderr, "offsettui apply: %s\n", res.Outcome)
	return exitWith(outcomeExitCode(res.Outcome))
}

// confirmApply is apply's typed confirmation, as the TUI's: the group's name, typed at the
// prompt on a terminal, or one line on stdin from a script (echo G | offsettui apply FILE
// --execute). Anything else, or nothing, is not a confirmation.
func confirmApply(stdin io.Reader, stderr io.Writer, group string) error {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		fmt.Fprintf(stderr, "Type the group's name (%s) to apply this plan: ", group)
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	typed := strings.TrimSpace(line)
	switch {
	case typed == group:
		return nil
	case typed == "" && err != nil:
		return fmt.Errorf("--execute needs the group's name (%s) typed, or on stdin, as its confirmation: none was given", group)
	}
	return fmt.Errorf("the confirmation %q is not the group's name (%s)", typed, group)
}

// service is the reset service apply writes with: reset's, with the plan file's own
// auto.offset.reset (its counts are the reviewed ones).
func (f *applyFlags) service(c common, s *session, planned plan.Plan) *reset.Service {
	return &reset.Service{Cluster: s.client, ClusterName: s.client.Bootstrap, ReadOnly: s.access.readOnly(), BackupDir: f.backupDir,
		AssumeReset: planned.AssumeReset, RiskWindow: c.riskWindowD, Observe: f.watch.observeD,
		UndoCommand: func(group, backup string) string {
			return undoCommand(c, s.contextName(), s.client.Bootstrap(), group, backup, f.backupDir)
		},
		Tool: func() plan.ToolConnection { return toolConnection(c, s.context, s.client.Bootstrap()) }}
}

// applyOutput writes a dry run's document as a table or JSON.
func applyOutput(w io.Writer, format string, d report.ApplyDocument) error {
	if format == "json" {
		return writeJSON(w, d)
	}
	return report.Apply(w, d)
}
