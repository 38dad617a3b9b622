package main

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/views"
	"github.com/spf13/pflag"
)

func runTUI(args []string) int {
	var (
		c       common
		refresh string
		noColor bool
		fs      = pflag.NewFlagSet("offsettui", pflag.ContinueOnError)
	)
	c.register(fs)
	fs.StringVar(&refresh, "refresh", "5s", "auto-refresh interval; 0 = only when r is pressed")
	fs.BoolVar(&noColor, "no-color", false, "no colors (NO_COLOR is honoured too)")
	if ok, code := parseFlags(fs, &c, args); !ok {
		return code
	}
	every, err := model.ParseDuration(refresh)
	if err != nil || every < 0 {
		fmt.Fprintf(os.Stderr, "offsettui: --refresh: want a non-negative duration like 5s or 0, got %q\n", refresh)
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
	m := views.New(views.Options{
		Source: s.client, Cluster: s.cluster, Refresh: every, RiskWindow: c.riskWindowD,
		ReadOnly: c.readOnly, NoColor: noColor, Now: time.Now,
	})
	p := tea.NewProgram(m, tea.WithAltScreen())
	if _, err := p.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "offsettui: %v\n", err)
		return exitFailure
	}
	return exitOK
}
