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
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/views"
	"github.com/spf13/cobra"
)

// newTUICmd is offsettui without a command: the interactive inspector, the root of the
// command tree.
func newTUICmd() *cobra.Command {
	var (
		c         common
		refresh   string
		noColor   bool
		backupDir string
		reportDir string
		tf        timeFlags
		wf        watchFlags
	)
	cmd := &cobra.Command{
		Use:   "offsettui [flags]",
		Short: "the interactive inspector (TUI)",
		Long: "The interactive inspector: every group worst first, one group's partitions with why each\n" +
			"status, and the reset planner (R). Keys: ? in the TUI, and docs/tui.md.",
		Example: "  offsettui --demo\n  offsettui --bootstrap-server kafka:9092 --command-config client.properties --read-only\n" +
			"  offsettui --bootstrap-server kafka:9092 --refresh 0        # read only when r is pressed",
		Annotations: map[string]string{synopsisAnnotation: "offsettui [flags]"},
	}
	fs := cmd.Flags()
	c.noOutput = true
	c.register(fs)
	tf.register(fs, "")
	wf.register(fs, false)
	fs.StringVar(&reportDir, "report-dir", ".", "`DIR` where w writes the Markdown incident report, and the planner's w its plan files")
	fs.StringVar(&refresh, "refresh", "5s", "`DURATION` auto-refresh interval; 0 = only when r is pressed")
	fs.BoolVar(&noColor, "no-color", false, "no colors (NO_COLOR is honoured too)")
	fs.StringVar(&backupDir, "backup-dir", "", "`DIR` where resets write backups and the audit log, and restores find them (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&c.assumeReset, "assume-reset", "", "`earliest|latest|none` the consumers' auto.offset.reset: where the planner's rows say each starts without its commit (default latest, the Kafka client's; earliest for a streams group, Kafka Streams'; a share group's own share.auto.offset.reset always)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		every, err := parseTUIFlags(&c, refresh, &tf, &wf)
		if err != nil {
			return err
		}
		// The context and the client properties are read before the program starts: their
		// errors and notes belong on the terminal, and a read-only context must be read-only
		// from the first screen. Only the network connection waits for the program.
		conn, err := c.resolveConnection(stderr)
		if err != nil {
			return badInput(err)
		}
		if !isTerminal(stdout) { // redirected: the screen would go into a file, and the terminal stay blank
			return badInput(errors.New("the TUI draws on a terminal, and stdout is not one (it is redirected to a file or a pipe); " +
				"to write the groups to a file, use offsettui describe (-o json, -o markdown)"))
		}
		// The connection is made by the first snapshot, inside the program: the
		// first screen says "connecting to …" at once, and a cluster that cannot be
		// reached is an error screen with the likely causes, not a blank terminal.
		lc := &lazyClient{c: c, conn: &conn}
		defer lc.close()
		sw := &tuiSwitcher{c: c, backupDir: backupDir}
		sw.file, _ = c.loadConfig(io.Discard) // read once already: its errors were reported then
		defer sw.closeAll()
		// Detect the background before the program starts: asking later can hang
		// (lipgloss#73).
		lipgloss.SetHasDarkBackground(termenv.HasDarkBackground())
		opts := tuiOptions(c, lc, every, noColor, backupDir)
		opts.StallAfter, opts.ReportDir = tf.stallAfterD, reportDir
		opts.Contexts, opts.Close = sw, lc.close
		return runTUIProgram(stdout, opts)
	}
	return cmd
}

// parseTUIFlags checks the TUI's flags and returns the refresh interval; its errors are
// bad input, named by the flag.
func parseTUIFlags(c *common, refresh string, tf *timeFlags, wf *watchFlags) (time.Duration, error) {
	if err := c.validate(); err != nil {
		return 0, badInput(err)
	}
	var err error
	if c.assumeReset, err = model.CheckAssumeReset(c.assumeReset); err != nil {
		return 0, badInputf("--assume-reset: %v", err)
	}
	every, err := parse.Duration(refresh)
	if err != nil || every < 0 {
		return 0, badInputf("--refresh: want a non-negative duration like 5s or 0, got %q", refresh)
	}
	if err := tf.parse(); err != nil {
		return 0, badInput(err)
	}
	if err := wf.parse(); err != nil {
		return 0, badInput(err)
	}
	c.observe = wf.observeD
	return every, nil
}

// runTUIProgram runs the program until it quits, then prints what stays after the alternate
// screen is gone: what the resets wrote and how to undo it.
func runTUIProgram(stdout io.Writer, opts views.Options) error {
	m := views.New(opts)
	// Signals are the TUI's to handle: bubbletea's own handler would end the
	// program in the middle of a reset's commit.
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithoutSignalHandler())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			p.Send(views.QuitRequestedMsg{})
		}
	}()
	final, err := p.Run()
	// The result screens went with the alternate screen: print what was
	// written and how to undo it where it stays.
	if final != nil {
		fmt.Fprint(stdout, views.ExitNotes(final))
	}
	if err != nil {
		return failure(err)
	}
	if views.NeverRead(final) {
		return failure(errors.New("the cluster was never read"))
	}
	return nil
}

// tuiOptions configures the TUI. Demo tells the views that the cluster stops
// with the process, so an undo command printed for it works only while
// offsettui runs.
func tuiOptions(c common, lc *lazyClient, every time.Duration, noColor bool, backupDir string) views.Options {
	cluster := c.bootstrap
	var info views.ContextInfo
	if lc.conn != nil {
		cluster = strings.Join(lc.conn.bootstrap, ",")
		info = contextInfo(lc.conn.context, cluster)
		if cluster == "" && len(lc.conn.props) > 0 {
			cluster = lc.conn.props["bootstrap.servers"]
		}
	}
	if c.demo {
		cluster = "demo"
	}
	return views.Options{
		Source: lc, Cluster: cluster, Demo: c.demo, Refresh: every, RiskWindow: c.riskWindowD, CommitLog: c.withCommitLog(model.Query{}),
		ReadOnly: lc.access().readOnly(), NoColor: noColor, Now: time.Now,
		Resetter: newTUIResetter(c, lc, backupDir), Context: info, WriteReport: report.Markdown,
	}
}

// tuiResetter lets the TUI's planner use the reset service, the one place
// where the guards live (the same as `offsettui reset`); views never import it.
type tuiResetter struct{ svc *reset.Service }

var _ views.Resetter = tuiResetter{}

// newTUIResetter builds the reset service as `offsettui reset` does, with the
// undo command that restores a backup on this cluster.
func newTUIResetter(c common, lc *lazyClient, backupDir string) tuiResetter {
	return tuiResetter{svc: &reset.Service{Cluster: lc, ClusterName: lc.bootstrap, ReadOnly: lc.access().readOnly(), BackupDir: backupDir, RiskWindow: c.riskWindowD, Observe: c.observe,
		AssumeReset: c.assumeReset,
		UndoCommand: func(group, backup string) string {
			return undoCommand(c, lc.contextName(), lc.bootstrap(), group, backup, backupDir)
		},
		Tool: lc.toolConnection}}
}

// Plan implements views.Resetter. A restore loads the backup and checks it
// against its manifest, then plans it as `reset --restore` does (no other
// group, no other cluster).
func (r tuiResetter) Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	if st.Kind == plan.Restore {
		b, err := reset.LoadBackup(st.Raw, group)
		if err != nil {
			return plan.Plan{}, err
		}
		return r.svc.PlanRestore(ctx, group, b, reset.RestoreOptions{})
	}
	return r.svc.Plan(ctx, group, scope, st)
}

// Execute implements views.Resetter.
func (r tuiResetter) Execute(ctx context.Context, p plan.Plan) plan.ResetResult {
	res := r.svc.Execute(ctx, p)
	return plan.ResetResult{Plan: res.Plan, Outcome: res.Outcome, Notes: res.Notes}
}

// WritePlan implements views.Resetter: the planner's w (docs/resets.md#plan-files).
func (r tuiResetter) WritePlan(p plan.Plan, path string) (plan.Plan, error) {
	return reset.WritePlanFile(absPath(path), p, r.svc.Author("offsettui (the TUI's planner)"))
}

// Backups implements views.Resetter.
func (r tuiResetter) Backups(_ context.Context, group string) ([]plan.Backup, error) {
	return r.svc.Backups(group)
}
