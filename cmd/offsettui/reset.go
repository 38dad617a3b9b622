package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The reset service runs on the Kafka client, which can read the commit history.
var (
	_ reset.Cluster       = (*kafka.Client)(nil)
	_ reset.CommitHistory = (*kafka.Client)(nil)
)

// resetFlags are reset's own flags.
type resetFlags struct {
	group     string
	allTopics bool
	topics    []string
	execute   bool
	backupDir string
	assume    string
	restore   reset.RestoreOptions
	newGroup  bool
	watch     watchFlags
	values    map[plan.StrategyKind]*string
	switches  map[plan.StrategyKind]*bool
	// planOut is --plan-out: write the plan to this plan file (planout.go).
	planOut string
	// cmd names the command in messages ("" = reset).
	cmd string
}

// prefix is how finish's messages name the command: "offsettui reset".
func (f *resetFlags) prefix() string {
	if f.cmd == "" {
		return "offsettui reset"
	}
	return "offsettui " + f.cmd
}

// newResetCmd is `offsettui reset`.
func newResetCmd() *cobra.Command {
	var (
		c common
		f = resetFlags{values: map[plan.StrategyKind]*string{}, switches: map[plan.StrategyKind]*bool{}}
	)
	cmd := &cobra.Command{
		Use: "reset --group G (--all-topics | --topic T[:P,P]...) STRATEGY [--execute] [flags]\n" +
			"       offsettui reset --group G --restore BACKUP [--execute] [flags]",
		Short: "plan (default) or --execute an offset reset; --restore undoes one",
		Long: "Plans an offset reset with kafka-consumer-groups --reset-offsets semantics and shows what each\n" +
			"move re-delivers or skips; --execute writes it only when the group is empty and every guard\n" +
			"holds, after a backup, and prints the undo command (docs/resets.md).",
		Example: "  offsettui reset --demo --group fanout --all-topics --to-earliest\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --topic orders:0,2 --shift-by -100\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --all-topics --by-duration 6d23h --execute\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --restore ~/.local/state/offsettui/billing-….csv --execute",
	}
	fs := cmd.Flags()
	c.register(fs)
	f.register(fs)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		scope, st, err := f.plan(fs, time.Now())
		if err == nil {
			f.assume, err = model.CheckAssumeReset(f.assume)
			if err != nil {
				err = fmt.Errorf("--assume-reset: %w", err)
			}
		}
		var backup reset.Backup
		if err == nil {
			err = f.watch.parse()
		}
		if err == nil {
			err = f.checkPlanOut()
		}
		if err == nil && st.Kind == plan.Restore {
			backup, err = reset.LoadBackup(st.Raw, f.group)
		}
		if err != nil {
			return badInput(err)
		}
		// SIGINT and SIGTERM cancel the plan and the re-read; once the commit is on
		// its way, its answer is awaited (bounded), the outcome is audited and the
		// undo printed before the process exits.
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		s, err := c.connectOrFail(ctx, stderr)
		if err != nil {
			return err
		}
		defer s.close()
		svc := f.service(c, s)
		var p plan.Plan
		if st.Kind == plan.Restore {
			p, err = svc.PlanRestore(ctx, f.group, backup, f.restore)
		} else {
			p, err = svc.Plan(ctx, f.group, scope, st)
		}
		if err != nil {
			return planError(err)
		}
		return exitWith(f.finish(ctx, svc, s, p, c.output, stdout, stderr))
	}
	return cmd
}

// service is the reset service of a command that writes offsets (reset, delete-offsets)
// on session s, with the command's flags.
func (f *resetFlags) service(c common, s *session) *reset.Service {
	return &reset.Service{Cluster: s.client, ClusterName: s.client.Bootstrap, ReadOnly: s.access.readOnly(), BackupDir: f.backupDir,
		AssumeReset: f.assume, AllowNewGroup: f.newGroup, RiskWindow: c.riskWindowD,
		Observe: f.watch.observeD, AllowCommitter: f.watch.allowCommitter,
		UndoCommand: func(group, backup string) string {
			return undoCommand(c, s.contextName(), s.client.Bootstrap(), group, backup, f.backupDir)
		},
		Tool: func() plan.ToolConnection { return toolConnection(c, s.context, s.client.Bootstrap()) }}
}

// plan checks reset's own flags and builds the scope and strategy; the error
// names the flag.
func (f *resetFlags) plan(fs *pflag.FlagSet, now time.Time) (plan.Scope, plan.Strategy, error) {
	if strings.TrimSpace(f.group) == "" {
		return plan.Scope{}, plan.Strategy{}, fmt.Errorf("--group is required")
	}
	var kinds []plan.StrategyKind
	for _, k := range plan.StrategyKinds {
		if fs.Changed(string(k)) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) != 1 {
		var names []string
		for _, k := range plan.StrategyKinds {
			names = append(names, k.Flag())
		}
		return plan.Scope{}, plan.Strategy{}, fmt.Errorf("exactly one strategy is needed, got %d; one of %s", len(kinds), strings.Join(names, ", "))
	}
	k := kinds[0]
	var st plan.Strategy
	var err error
	switch {
	case k == plan.Restore:
		// A backup is read and checked whole by reset.LoadBackup: a CSV with its manifest,
		// or an archive of `offsettui backup`.
		st = plan.Strategy{Kind: k, Raw: *f.values[k]}
	case k.FromFileKind():
		path := *f.values[k]
		fh, oerr := os.Open(path)
		if oerr != nil {
			return plan.Scope{}, plan.Strategy{}, fmt.Errorf("%s: %v", k.Flag(), oerr)
		}
		st, err = plan.FileStrategy(k, path, fh)
		fh.Close()
	case k.TakesValue():
		st, err = plan.ParseStrategy(k, *f.values[k], now)
	default:
		if !*f.switches[k] {
			return plan.Scope{}, plan.Strategy{}, fmt.Errorf("%s=false is not a strategy", k.Flag())
		}
		st, err = plan.ParseStrategy(k, "", now)
	}
	if err != nil {
		return plan.Scope{}, plan.Strategy{}, err
	}
	if k == plan.FromGroup {
		if err := plan.SourceIsGroup(f.group, st.Raw); err != nil {
			return plan.Scope{}, plan.Strategy{}, err
		}
	}
	scope, err := plan.NewScope(f.allTopics, f.topics, k)
	return scope, st, err
}

// undoCommand renders the command that restores a backup on the same cluster, with the
// same context (its client properties) and the same --command-config.
func undoCommand(c common, contextName, cluster, group, backup, backupDir string) string {
	parts := []string{"offsettui", "reset"}
	// The context alone reaches the cluster when it supplied the addresses: no
	// --bootstrap-server (nor KAFKA_BOOTSTRAP_SERVERS) overrode it, or the TUI switched to
	// it with :ctx, where the run's connection flags do not apply.
	fromContext := contextName != "" && (c.onlyContext || c.bootstrap == "" && os.Getenv("KAFKA_BOOTSTRAP_SERVERS") == "")
	if contextName != "" {
		parts = append(parts, "--context", shellQuote(contextName))
		if c.config != "" {
			parts = append(parts, "--config", shellQuote(absPath(c.config)))
		}
	}
	if !fromContext {
		parts = append(parts, "--bootstrap-server", shellQuote(cluster))
	}
	if c.commandConfig != "" && !c.onlyContext {
		parts = append(parts, "--command-config", shellQuote(absPath(c.commandConfig)))
	}
	parts = append(parts, "--group", shellQuote(group), "--restore", shellQuote(absPath(backup)))
	if backupDir != "" {
		parts = append(parts, "--backup-dir", shellQuote(absPath(backupDir)))
	}
	return strings.Join(append(parts, "--execute"), " ")
}

// absPath is path made absolute, so a printed command works from any directory; path
// itself if that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

func shellQuote(s string) string { return plan.ShellWord(s) }

func output(w io.Writer, format string, p plan.Plan, notes []string) error {
	if format == "json" {
		return writeJSON(w, p)
	}
	return report.Plan(w, p, notes)
}

// register adds reset's own flags to fs.
func (f *resetFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.group, "group", "", "`GROUP` the consumer group to reset (required)")
	fs.BoolVar(&f.allTopics, "all-topics", false, "scope: every partition the group has a commit on")
	fs.StringArrayVar(&f.topics, "topic", nil, "`T[:P,P]` scope: every partition of topic T, or partitions P of it (repeatable)")
	fs.BoolVar(&f.execute, "execute", false, "write the offsets (default: print the plan only)")
	f.registerPlanOut(fs)
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", "", "`earliest|latest|none` the consumers' auto.offset.reset, for partitions without a commit (default latest, the Kafka client's; earliest for a streams group, Kafka Streams'; a share group's own share.auto.offset.reset always)")
	fs.BoolVar(&f.restore.OtherGroup, "allow-other-group", false, "--restore: allow a backup taken of another group")
	fs.BoolVar(&f.restore.OtherCluster, "allow-other-cluster", false, "--restore: allow a backup taken on another (or an unknown) cluster")
	fs.BoolVar(&f.newGroup, "allow-new-group", false, "allow a plan for a group no broker lists: --execute creates it (else the plan is blocked)")
	f.watch.register(fs, true)
	for _, k := range plan.StrategyKinds {
		name := string(k)
		switch {
		case !k.TakesValue():
			f.switches[k] = fs.Bool(name, false, "strategy: "+k.Hint())
		default:
			f.values[k] = fs.String(name, "", "`"+k.ValueName()+"` strategy: "+k.Hint())
		}
	}
}

// finish prints a dry run (and writes it to --plan-out), or executes the plan and prints
// what happened, and returns the exit code.
func (f *resetFlags) finish(ctx context.Context, svc *reset.Service, s *session, p plan.Plan, format string, stdout, stderr io.Writer) exitCode {
	if f.planOut != "" {
		return f.writePlanOut(svc, p, format, stdout, stderr)
	}
	done := p.Strategy.Kind.Act().Done
	if !f.execute {
		if p.Executable() {
			fmt.Fprintln(stderr, "DRY RUN: nothing was "+done+". Add --execute to apply this plan (offsettui writes a backup first).")
		} else {
			fmt.Fprintln(stderr, "DRY RUN: nothing was "+done+". This plan is BLOCKED (its blockers are listed with it): --execute would refuse it.")
		}
		if err := output(stdout, format, p, nil); err != nil {
			fmt.Fprintf(stderr, f.prefix()+": %v\n", err)
			return exitFailure
		}
		if !p.Executable() {
			return exitBlocked
		}
		return exitOK
	}
	if !p.Executable() {
		_ = output(stdout, format, p, nil)
		fmt.Fprintln(stderr, f.prefix()+": not executed: the plan has blockers (see above); nothing was "+done)
		return exitBlocked
	}
	res := svc.Execute(plan.WithProgress(ctx, countdown(stderr, f.prefix(), p.Group, p.Strategy.Kind, isTerminal(stderr))), p)
	if s.demo != nil && res.Plan.Undo != nil {
		res.Notes = append(res.Notes, "the demo cluster stopped when this command exited: the undo command above cannot reach it")
	}
	if err := output(stdout, format, res.Plan, res.Notes); err != nil {
		fmt.Fprintf(stderr, f.prefix()+": %v\n", err)
	}
	if format != "json" {
		fmt.Fprintln(stdout, report.OutcomeLine(res.Outcome, res.Plan.Strategy.Kind))
	}
	fmt.Fprintf(stderr, f.prefix()+": %s\n", res.Outcome) // every outcome, applied too: the word a script or a person looks for
	return outcomeExitCode(res.Outcome)
}
