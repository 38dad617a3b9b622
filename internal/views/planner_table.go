package views

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// Column ids of the plan table.
const (
	ptTopic = iota
	ptP
	ptLow
	ptCommitted
	ptArrow
	ptTarget
	ptResult
	ptHigh
	ptReason
	ptEffect
	ptTime
	ptCount
)

// planColumns is the plan table, left to right; drop is the written priority
// of what goes when the terminal is narrow (highest first, 0 never):
// TARGET-TIME, then HIGH, LOW. RESULT, what the execution did to each row
// (written, rejected by the broker…), is there once the plan was executed,
// and never dropped. To add a column: an id above, an entry here, its cell in
// planCells.
func planColumns(p *plan.Plan) []column {
	var wTopic, wP, wLow, wCom, wTarget, wResult, wHigh, wReason, wEffect int
	for _, r := range p.Rows {
		wResult = max(wResult, len(r.Result))
		wTopic = max(wTopic, ansi.StringWidth(r.Topic))
		wP = max(wP, len(fmt.Sprint(r.Partition)))
		wLow, wCom = max(wLow, len(text.OptThousands(r.Low))), max(wCom, len(text.OptThousands(r.Committed)))
		wTarget, wHigh = max(wTarget, len(display.TargetText(r))), max(wHigh, len(text.OptThousands(r.High)))
		wReason = max(wReason, len(display.ReasonText(r)))
		wEffect = max(wEffect, len(display.Effect(r)))
	}
	cols := []column{
		{id: ptTopic, title: "TOPIC", width: max(textWidth("TOPIC", 0, 0), min(wTopic, 10)), flex: true, maxW: max(8, min(wTopic, 40)), middle: true},
		{id: ptP, title: "P", width: textWidth("P", wP, 0), right: true},
		{id: ptLow, title: "LOW", width: textWidth("LOW", wLow, 0), right: true, drop: 2},
		{id: ptCommitted, title: positionTitle(p.Type), width: textWidth(positionTitle(p.Type), wCom, 0), right: true},
		{id: ptArrow, title: "→", width: 1},
		{id: ptTarget, title: "TARGET", width: textWidth("TARGET", wTarget, 0)},
		{id: ptResult, title: "RESULT", width: textWidth("RESULT", wResult, 0)},
		{id: ptHigh, title: "HIGH", width: textWidth("HIGH", wHigh, 0), right: true, drop: 1},
		{id: ptReason, title: "REASON", width: textWidth("REASON", wReason, 0), flex: true, maxW: textWidth("REASON", wReason, 0)},
		{id: ptEffect, title: "EFFECT", width: textWidth("EFFECT", wEffect, 0), flex: true, maxW: textWidth("EFFECT", wEffect, 0)},
		{id: ptTime, title: "TARGET-TIME", width: textWidth("TARGET-TIME", 0, 0), right: true, drop: 3},
	}
	if wResult == 0 { // not executed
		cols = slices.DeleteFunc(cols, func(c column) bool { return c.id == ptResult })
	}
	return cols
}

// planTable renders the plan's rows, each followed by its note when it has one;
// hidden says how many columns the width dropped ("" for none).
func (s *plannerScreen) planTable(p *plan.Plan) (header string, lines []string, hidden string) {
	st := s.c.styles
	cols := layoutColumns(planColumns(p), s.width)
	hidden = hiddenNote(cols)
	for _, r := range p.Rows {
		lines = append(lines, renderRow(cols, s.width, noGlyph, s.planCells(r)))
		if n := display.NoteFor(r, p.Type, p.AssumeReset); n != "" {
			lines = append(lines, wrapLines(st.muted.Render("    ↳ "+n), s.width, "      ", 3)...)
		}
	}
	return renderHeader(cols, s.width, st.colHeader, -1, ""), lines, hidden
}

func (s *plannerScreen) planCells(r plan.Row) []cell {
	st := s.c.styles
	cells := make([]cell, ptCount)
	cells[ptTopic] = cell{text: r.Topic}
	cells[ptP] = cell{text: fmt.Sprint(r.Partition)}
	cells[ptLow] = cell{text: text.OptThousands(r.Low)}
	cells[ptCommitted] = cell{text: text.OptThousands(r.Committed)}
	cells[ptArrow] = cell{text: "→"}
	cells[ptTarget] = cell{text: display.TargetText(r)}
	cells[ptResult] = s.resultCell(r.Result)
	cells[ptHigh] = cell{text: text.OptThousands(r.High)}
	reason := display.ReasonText(r)
	cells[ptReason] = cell{text: reason}
	switch {
	case r.Target == nil && r.Reason != plan.ReasonRestore:
		cells[ptReason].style = &st.expired
	case reason != string(plan.ReasonAsRequested) && reason != string(plan.ReasonRestore):
		cells[ptReason].style = &st.atRisk
	}
	effect := st.muted
	switch {
	case r.Skipped > 0:
		effect = st.atRisk
	case r.AlreadyLost > 0:
		effect = st.expired
	case r.Duplicates > 0:
		effect = st.lagging
	}
	cells[ptEffect] = cell{text: display.Effect(r), style: &effect}
	cells[ptTime] = cell{text: "-"}
	if r.TargetTimestamp != nil {
		cells[ptTime] = cell{text: text.HumanDuration(s.c.now().Sub(r.TargetTimestamp.Time).Truncate(1e9)) + " ago"}
	}
	return cells
}

// resultCell is a row's RESULT: what the execution did to it, in words that stand without
// colour (a refusal reads "rejected", never like a deletion).
func (s *plannerScreen) resultCell(w plan.WriteResult) cell {
	st := s.c.styles
	style := &st.atRisk
	switch w {
	case plan.WriteWritten:
		style = &st.ok
	case plan.WriteRejected, plan.WriteUnknown:
		style = &st.expired
	case plan.WriteUntouched, "":
		style = &st.muted
	}
	return cell{text: text.OrDash(string(w)), style: style}
}

// ShortHelp implements help.KeyMap.
func (s *plannerScreen) ShortHelp() []key.Binding {
	scroll := len(s.body) > s.bodyH
	switch s.phase {
	case phaseArmed:
		b := []key.Binding{described(s.keys.Confirm, "execute"), s.keys.Disarm}
		if scroll {
			b = append(b, s.keys.ScrollDown)
		}
		return b
	case phaseExecuting:
		if s.phase == phaseExecuting && !s.writeBegun && !s.cancelling {
			return []key.Binding{described(s.keys.Disarm, "cancel (nothing written yet)"), s.keys.CancelQuit}
		}
		return nil
	case phaseResult:
		if scroll {
			return []key.Binding{described(s.keys.Scroll.Down, "scroll")}
		}
		return nil
	}
	if s.holding {
		return []key.Binding{described(s.keys.Disarm, "leave the name field")}
	}
	b := []key.Binding{s.keys.NextField}
	switch {
	case s.choosingSource():
		b = append(b, s.keys.SourceNext, s.keys.LeaveField)
	case s.typing():
		b = append(b, s.keys.LeaveField)
	default:
		b = append(b, s.keys.Choose)
	}
	if s.keys.Arm.Enabled() {
		b = append(b, described(s.keys.Arm, "arm (then type the name)"))
	}
	if s.keys.AllowCommitter.Enabled() {
		b = append(b, described(s.keys.AllowCommitter, "override the committer guard"))
	}
	if s.keys.AssumeReset.Enabled() {
		b = append(b, described(s.keys.AssumeReset, "auto.offset.reset"))
	}
	if scroll {
		b = append(b, s.keys.ScrollDown)
	}
	return b
}

// FullHelp implements help.KeyMap. Arm is listed even while this plan cannot
// be armed, except in read-only mode, where nothing can be.
func (s *plannerScreen) FullHelp() [][]key.Binding {
	arm := described(s.keys.Arm, "arm the plan: asks for the group name")
	arm.SetEnabled(!s.c.readOnly)
	return [][]key.Binding{
		{s.keys.NextField, s.keys.PrevField, described(s.keys.Choose, "choose the strategy, backup or scope"),
			described(s.keys.SourceNext, "in the source field of --from-group: choose the group to copy from"),
			described(s.keys.LeaveField, "leave the value field"), s.keys.ScrollDown, s.keys.ScrollUp},
		{
			arm,
			described(s.keys.Confirm, "with the exact name typed: execute"),
			described(s.keys.Disarm, "disarm (while asked for the name)"),
			s.keys.AllowCommitter,
			s.keys.AssumeReset,
		},
	}
}

// syncKeys enables the bindings that can fire now.
func (s *plannerScreen) syncKeys() {
	s.keys.Arm.SetEnabled(s.armable() && s.phase == phaseEdit && !s.holding)
	s.keys.Confirm.SetEnabled(!s.c.readOnly)
	s.keys.Disarm.SetEnabled(!s.c.readOnly)
	s.keys.AllowCommitter.SetEnabled(!s.c.readOnly && s.phase == phaseEdit && s.plan != nil && s.plan.Committer != nil)
	s.keys.AssumeReset.SetEnabled(s.phase == phaseEdit && !s.holding && s.plan != nil && s.plan.AssumptionMatters())
}
