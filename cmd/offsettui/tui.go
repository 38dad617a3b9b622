package main

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/views"
	"github.com/spf13/pflag"
)

func runTUI(args []string) int {
	var (
		c         common
		refresh   string
		noColor   bool
		backupDir string
		reportDir string
		tf        timeFlags
		fs        = pflag.NewFlagSet("offsettui", pflag.ContinueOnError)
	)
	c.register(fs)
	tf.register(fs, false)
	fs.StringVar(&reportDir, "report-dir", ".", "where w writes the Markdown incident report")
	fs.StringVar(&refresh, "refresh", "5s", "auto-refresh interval; 0 = only when r is pressed")
	fs.BoolVar(&noColor, "no-color", false, "no colors (NO_COLOR is honoured too)")
	fs.StringVar(&backupDir, "backup-dir", "", "where resets write backups and the audit log (default $XDG_STATE_HOME/offsettui)")
	if ok, code := parseFlags(fs, &c, args); !ok {
		return code
	}
	every, err := model.ParseDuration(refresh)
	if err != nil || every < 0 {
		fmt.Fprintf(os.Stderr, "offsettui: --refresh: want a non-negative duration like 5s or 0, got %q\n", refresh)
		return exitBadInput
	}
	if err := tf.parse(); err != nil {
		fmt.Fprintf(os.Stderr, "offsettui: %v\n", err)
		return exitBadInput
	}
	ctx := context.Background()
	s, code := c.connectOrExit(ctx, "tui", exitFailure)
	if s == nil {
		return code
	}
	defer s.close()
	// Detect the background before the program starts: asking later can hang
	// (lipgloss#73).
	lipgloss.SetHasDarkBackground(termenv.HasDarkBackground())
	opts := tuiOptions(c, s, every, noColor, backupDir)
	opts.StallAfter, opts.ReportDir = tf.stallAfterD, reportDir
	m := views.New(opts)
	p := tea.NewProgram(m, tea.WithAltScreen())
	if _, err := p.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "offsettui: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// tuiOptions configures the TUI for a connected session. Demo tells the views
// that the cluster stops with the process, so an undo command printed for it
// works only while offsettui runs.
func tuiOptions(c common, s *session, every time.Duration, noColor bool, backupDir string) views.Options {
	return views.Options{
		Source: s.client, Cluster: s.cluster, Demo: s.demo != nil, Refresh: every, RiskWindow: c.riskWindowD,
		ReadOnly: c.readOnly, NoColor: noColor, Now: time.Now,
		Resetter: newTUIResetter(c, s.client, backupDir), WriteReport: report.Markdown,
	}
}

// tuiResetter lets the TUI's planner use the reset service, the one place
// where the guards live (the same as `offsettui reset`); views never import it.
type tuiResetter struct{ svc *reset.Service }

var _ views.Resetter = tuiResetter{}

// newTUIResetter builds the reset service as `offsettui reset` does, with the
// undo command that restores a backup on this cluster.
func newTUIResetter(c common, cl *kafka.Client, backupDir string) tuiResetter {
	return tuiResetter{svc: &reset.Service{Cluster: cl, ClusterName: cl.Bootstrap(), ReadOnly: c.readOnly, BackupDir: backupDir,
		UndoCommand: func(group, backup string) string { return undoCommand(c, cl.Bootstrap(), group, backup, backupDir) }}}
}

// Plan implements views.Resetter.
func (r tuiResetter) Plan(ctx context.Context, group string, scope model.Scope, st model.Strategy) (model.Plan, error) {
	return r.svc.Plan(ctx, group, scope, st)
}

// Execute implements views.Resetter.
func (r tuiResetter) Execute(ctx context.Context, p model.Plan) views.ResetResult {
	res := r.svc.Execute(ctx, p)
	return views.ResetResult{Plan: res.Plan, Outcome: string(res.Outcome), Notes: res.Notes}
}
