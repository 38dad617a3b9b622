package views

import (
	"path/filepath"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The planner's w writes the plan shown to a plan file, for another person to review and apply
// with offsettui apply (docs/resets.md#plan-files), in the directory reports go to
// (--report-dir). A blocked plan is not written: nobody could apply it. A read-only blocker is
// the planner's setting, not the group's state, so a read-only TUI writes plan files too.

// planFileWrittenMsg is the reply to writePlanFileCmd: the plan as written, or why not.
type planFileWrittenMsg struct {
	written plan.Plan
	err     error
}

// planFileWritable reports whether w may write the plan shown: made for the form's inputs,
// nothing blocking it but read-only (plan.Plan.Fileable).
func (s *plannerScreen) planFileWritable() bool {
	return s.phase == phaseEdit && !s.holding && s.invalid == nil && s.planErr == nil && s.plan != nil && s.plan.Fileable()
}

// writePlanFile starts writing the plan shown to a new plan file.
func (s *plannerScreen) writePlanFile() tea.Cmd {
	if !s.planFileWritable() {
		s.flash = "no plan file written: the plan is blocked (nobody could apply it) or not made yet"
		return nil
	}
	dir := s.c.reportDir
	if dir == "" {
		dir = "."
	}
	path := planFilePath(dir, s.group, s.c.now())
	s.flash = "writing the plan file " + path + "…"
	return writePlanFileCmd(s.rs, s.id, *s.plan, path)
}

// planFilePath is where w writes group's plan at a time.
func planFilePath(dir, group string, at time.Time) string {
	return filepath.Join(dir, "offsettui-plan-"+model.FileNamePart(group, 60)+"-"+at.UTC().Format("20060102-150405.000")+".json")
}

// writePlanFileCmd writes p to path off the update loop.
func writePlanFileCmd(rs Resetter, id int, p plan.Plan, path string) tea.Cmd {
	p.Rows = slices.Clone(p.Rows)
	return replyTo(id, func() tea.Msg {
		w, err := rs.WritePlan(p, path)
		return planFileWrittenMsg{written: w, err: err}
	})
}

// planFileWritten says where the plan file went and how it is applied, or why it was not written.
func (s *plannerScreen) planFileWritten(msg planFileWrittenMsg) {
	if msg.err != nil {
		s.flash = "no plan file written: " + msg.err.Error()
		return
	}
	r := msg.written.Reviewed
	s.flash = "plan file written: " + r.File + " (sha256 " + r.SHA256[:min(12, len(r.SHA256))] + "…): offsettui apply " +
		plan.ShellWord(r.File) + " shows it beside the group then, and --execute applies it"
}
