package views

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// ExitNotes returns what to print on the terminal once the program has
// ended (the alternate screen is gone, and with it the result screens): each
// plan executed in the session (a reset, copy, restore or delete), its outcome, backup and undo command. It is
// "" when nothing was written. m is the final model tea.Program.Run returns.
func ExitNotes(m tea.Model) string {
	a, ok := m.(*app)
	if !ok || len(a.executed) == 0 {
		return ""
	}
	var run []plan.ResetResult
	var cancelled []string
	for _, r := range a.executed {
		if r.Outcome == plan.OutcomeCancelled {
			cancelled = append(cancelled, r.Plan.Group)
			continue
		}
		run = append(run, r)
	}
	var b strings.Builder
	if len(cancelled) > 0 {
		b.WriteString("offsettui: cancelled before anything was written: " + strings.Join(cancelled, ", ") + "\n")
		if len(run) == 0 {
			return b.String()
		}
		b.WriteString("\n")
	}
	b.WriteString("offsettui: " + text.Plural(len(run), "plan") + " executed in this session:\n")
	for _, r := range run {
		p := r.Plan
		b.WriteString("\n  " + p.Group + ": " + string(r.Outcome) + " (" + display.OutcomeMeaning(r.Outcome, p.Strategy.Kind) + "), " + resolvedText(p.Strategy) + "\n")
		if p.Backup != nil {
			b.WriteString("    backup: " + *p.Backup + "\n")
		}
		if p.Undo != nil {
			b.WriteString("    undo:   " + *p.Undo + "\n")
		}
	}
	if a.c.demo {
		b.WriteString("\n  the demo cluster stopped with offsettui: these undo commands can no longer reach it\n")
	}
	return b.String()
}

// NeverRead reports whether the session ended without reading any snapshot (the cluster
// could not be reached, or the user quit first): `offsettui` then exits 1. m is the final
// model tea.Program.Run returns.
func NeverRead(m tea.Model) bool {
	a, ok := m.(*app)
	return ok && !a.everRead
}
