package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// Drawing the planner. rebuild runs at the end of every Update and SetSize and
// renders three blocks: top (form, guards, totals, table header), a scrolling
// body (the plan's rows, or the result) and bottom (the action line), which
// stays in place above the help. View only cuts the body to its window.

// Column ids of the plan table.
const (
	ptTopic = iota
	ptP
	ptLow
	ptCommitted
	ptArrow
	ptTarget
	ptHigh
	ptReason
	ptEffect
	ptTime
	ptCount
)

// maxMembersShown caps the members named in the guard panel.
const maxMembersShown = 3

func (s *plannerScreen) rebuild() {
	s.syncKeys()
	if s.width <= 0 || s.height <= 0 {
		return
	}
	if s.phase == phaseResult && s.result != nil {
		s.top, s.body, s.bottom = s.resultLines()
	} else {
		s.top, s.body, s.bottom = s.planLines()
	}
	for _, part := range [][]string{s.top, s.body, s.bottom} {
		for i := range part {
			part[i] = truncate(part[i], s.width)
		}
	}
	// A short terminal scrolls what does not fit of the top with the body: the
	// action line (the name prompt) must stay on screen.
	if keep := max(0, s.height-len(s.bottom)-1); len(s.top) > keep {
		s.body = append(append([]string{}, s.top[keep:]...), s.body...)
		s.top = s.top[:keep]
	}
	s.bodyH = max(1, s.height-len(s.top)-len(s.bottom))
	s.offset = max(0, min(s.offset, len(s.body)-s.bodyH))
}

// View implements tea.Model.
func (s *plannerScreen) View() string {
	lines := append([]string{}, s.top...)
	end := min(len(s.body), s.offset+s.bodyH)
	window := s.body[min(s.offset, end):end]
	for i, l := range window {
		if i == len(window)-1 && end < len(s.body) {
			l = s.c.styles.muted.Render(fmt.Sprintf("  … %d more lines (pgdn)", len(s.body)-end+1))
		}
		lines = append(lines, l)
	}
	for range s.bodyH - len(window) {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, s.bottom...), "\n")
}

// planLines renders the form, the guard panel, the totals and the plan.
func (s *plannerScreen) planLines() (top, body, bottom []string) {
	st := s.c.styles
	sep := st.muted.Render(" · ")
	title := st.title.Render("Reset plan for " + s.group)
	if s.inFlight {
		title += sep + st.muted.Render("planning…")
	} else if s.plan != nil {
		title += sep + st.muted.Render("planned at "+s.madeAt.Format("15:04:05"))
	}
	if s.c.readOnly {
		title += sep + st.readOnly.Render("READ-ONLY") + " plans are shown, never executed"
	} else {
		title += sep + "dry run: nothing is written until you type the group name"
	}
	top = append(top, title)
	top = append(top, s.formLines()...)
	top = append(top, "")
	top = append(top, s.guardLines()...)
	top = append(top, "")
	switch {
	case s.invalid != nil:
		top = append(top, st.muted.Render("fix the value to see the plan"))
	case s.plan == nil && s.planErr == nil:
		top = append(top, st.muted.Render("planning: reading the group's state, commits and watermarks…"))
	case s.plan == nil:
		top = append(top, st.err.Render("no plan"))
	case len(s.plan.Rows) == 0:
		top = append(top, st.title.Render("no partitions in this plan"))
	default:
		top = append(top, st.title.Render(s.plan.Totals.String()))
	}
	if s.plan != nil && len(s.plan.Rows) > 0 {
		header, rows := s.planTable(s.plan)
		top = append(top, "", header)
		body = rows
	}
	return top, body, s.actionLines()
}

// formLines are the three fields and a line that says how the value was read.
func (s *plannerScreen) formLines() []string {
	st := s.c.styles
	label := func(f int, name string) string {
		if s.field == f && s.phase == phaseEdit {
			return st.prompt.Render(cursorGlyph + pad(name, 9, false))
		}
		return noGlyph + pad(name, 9, false)
	}
	choice := func(f int, text string) string {
		if s.field == f && s.phase == phaseEdit {
			return st.prompt.Render("◂ ") + text + st.prompt.Render(" ▸")
		}
		return "  " + text
	}
	kind := plannerKinds[s.kind]
	lines := []string{label(fieldStrategy, "strategy") + choice(fieldStrategy, st.title.Render(kind.Flag()))}
	switch {
	case !kind.TakesValue():
		lines = append(lines, label(fieldValue, "value")+st.muted.Render("  (none)"))
	case s.field == fieldValue && s.phase == phaseEdit:
		lines = append(lines, label(fieldValue, "value")+"  "+s.value.View())
	default:
		v := s.values[kind]
		if v == "" {
			v = st.muted.Render(valueExample[kind])
		}
		lines = append(lines, label(fieldValue, "value")+"  "+v)
	}
	lines = append(lines, label(fieldScope, "scope")+choice(fieldScope, s.currentScope().label))
	switch {
	case s.invalid == errNoValue:
		lines = append(lines, noGlyph+st.muted.Render("type a value for "+kind.Flag()+": "+valueExample[kind]+" (tab or ↓ goes to the field)"))
	case s.invalid != nil:
		lines = append(lines, noGlyph+st.err.Render("✗ "+s.invalid.Error()))
	default:
		lines = append(lines, noGlyph+st.muted.Render(s.st.String()+": "+understood(s.st, s.parsedAt)))
	}
	return lines
}

// guardLines are the guard panel: state, members, read-only, what changed
// since the last plan, and every blocker with its message.
func (s *plannerScreen) guardLines() []string {
	st := s.c.styles
	sep := st.muted.Render(" · ")
	state := "?"
	switch {
	case s.plan != nil:
		state = model.OrDash(s.plan.State)
	case s.g != nil:
		state = model.OrDash(s.g.State)
	}
	parts := []string{st.section.Render("GUARDS") + "  state " + state}
	var members []model.Member
	if s.g != nil {
		members = s.g.Members
	}
	switch n := len(members); {
	case s.g == nil:
		parts = append(parts, "members unknown")
	case n == 0:
		parts = append(parts, "no members")
	default:
		var names []string
		for i, m := range members {
			if i == maxMembersShown {
				names = append(names, fmt.Sprintf("and %d more", n-i))
				break
			}
			names = append(names, m.MemberRef.Name()+" on "+model.OrDash(strings.TrimPrefix(m.Host, "/")))
		}
		parts = append(parts, st.expired.Render(model.Plural(n, "live member")+": "+strings.Join(names, ", ")))
	}
	if s.c.readOnly {
		parts = append(parts, st.readOnly.Render("READ-ONLY"))
	} else {
		parts = append(parts, "writes allowed")
	}
	lines := []string{strings.Join(parts, sep)}
	budget := max(2, s.height/4)
	if len(s.changes) > 0 {
		text := st.atRisk.Render("CHANGED") + " at " + s.changeAt.Format("15:04:05") + " since the previous plan: " + strings.Join(s.changes, "; ")
		lines = append(lines, s.wrap(text, "        ", 2)...)
	}
	switch {
	case s.planErr != nil:
		lines = append(lines, s.wrap(st.err.Render("✗ cannot make the plan: "+s.planErr.Error()+"; the next refresh (r) tries again"), "  ", 3)...)
	case s.plan == nil:
	case s.plan.Executable() && len(s.plan.Rows) > 0:
		lines = append(lines, st.ok.Render("OK")+"  nothing blocks this plan"+
			st.muted.Render("; all guards run again right before the commit"))
	default:
		lines = append(lines, s.blockerLines(s.plan.Blockers, budget)...)
	}
	return lines
}

// blockerLines lists blockers, wrapped, within about budget lines.
func (s *plannerScreen) blockerLines(bs []model.Blocker, budget int) []string {
	st := s.c.styles
	if len(bs) == 0 {
		return nil
	}
	lines := []string{st.expired.Render("BLOCKED") + fmt.Sprintf("  %s: this plan cannot be executed", model.Plural(len(bs), "blocker"))}
	for i, b := range bs {
		w := s.wrap("  "+st.expired.Render("["+string(b.Kind)+"]")+" "+b.Message, "    ", 3)
		if len(lines)+len(w) > budget+1 && i > 0 {
			lines = append(lines, st.muted.Render(fmt.Sprintf("  … and %d more", len(bs)-i)))
			break
		}
		lines = append(lines, w...)
	}
	return lines
}

// wrap wraps text to the width with indent on the following lines, within
// at most maxLines lines (the last one cut with …).
func (s *plannerScreen) wrap(text, indent string, maxLines int) []string {
	lines := strings.Split(ansi.Wrap(text, max(1, s.width-len(indent)), ""), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	if len(lines) > maxLines {
		lines[maxLines-1] = truncate(lines[maxLines-1]+" "+strings.Join(lines[maxLines:], " "), s.width)
		lines = lines[:maxLines]
	}
	return lines
}

// actionLines say what enter does now, and answer the last key.
func (s *plannerScreen) actionLines() []string {
	st := s.c.styles
	var action string
	switch {
	case s.phase == phaseExecuting:
		action = st.atRisk.Render("EXECUTING") + "  re-reading the group, writing the backup, committing, reading back…"
	case s.phase == phaseArmed:
		action = st.atRisk.Render("ARMED") + "  type " + st.title.Render(s.group) + " and enter to execute, esc disarms: " + s.confirm.View()
	case s.c.readOnly:
		action = st.readOnly.Render("READ-ONLY") + "  this plan can be reviewed, never executed"
	case s.armable():
		action = "enter arms this plan; then type " + st.title.Render(s.group) + " to execute it"
	case s.plan != nil && !s.plan.Executable():
		action = st.muted.Render("cannot be armed while it has blockers; nothing will be written")
	default:
		action = st.muted.Render("enter arms the plan once it is made and nothing blocks it")
	}
	flash := ""
	if s.flash != "" {
		flash = st.atRisk.Render(s.flash)
	}
	return []string{flash, action}
}

// planTable renders the plan's rows, each followed by its note when it has one.
func (s *plannerScreen) planTable(p *model.Plan) (header string, lines []string) {
	st := s.c.styles
	var wTopic, wP, wLow, wCom, wTarget, wHigh, wReason, wEffect int
	for _, r := range p.Rows {
		wTopic = max(wTopic, ansi.StringWidth(r.Topic))
		wP = max(wP, len(fmt.Sprint(r.Partition)))
		wLow, wCom = max(wLow, len(model.OptThousands(r.Low))), max(wCom, len(model.OptThousands(r.Committed)))
		wTarget, wHigh = max(wTarget, len(r.TargetText())), max(wHigh, len(model.OptThousands(r.High)))
		wReason = max(wReason, len(r.ReasonText()))
		wEffect = max(wEffect, len(r.Effect()))
	}
	cols := layoutColumns([]column{
		{id: ptTopic, title: "TOPIC", width: 8, flex: true, maxW: max(8, min(wTopic, 40))},
		{id: ptP, title: "P", width: textWidth("P", wP, 0), right: true},
		{id: ptLow, title: "LOW", width: textWidth("LOW", wLow, 0), right: true, drop: 2},
		{id: ptCommitted, title: "COMMITTED", width: textWidth("COMMITTED", wCom, 0), right: true},
		{id: ptArrow, title: "→", width: 1},
		{id: ptTarget, title: "TARGET", width: textWidth("TARGET", wTarget, 0)},
		{id: ptHigh, title: "HIGH", width: textWidth("HIGH", wHigh, 0), right: true, drop: 1},
		{id: ptReason, title: "REASON", width: textWidth("REASON", wReason, 0)},
		{id: ptEffect, title: "EFFECT", width: textWidth("EFFECT", wEffect, 0)},
		{id: ptTime, title: "TARGET-TIME", width: textWidth("TARGET-TIME", 0, 0), right: true, drop: 3},
	}, s.width)
	for _, r := range p.Rows {
		lines = append(lines, renderRow(cols, s.width, noGlyph, s.planCells(r)))
		if n := r.Note(); n != "" {
			lines = append(lines, s.wrap(st.muted.Render("    ↳ "+n), "      ", 3)...)
		}
	}
	return renderHeader(cols, s.width, st.colHeader, -1, ""), lines
}

func (s *plannerScreen) planCells(r model.PlanRow) []cell {
	st := s.c.styles
	cells := make([]cell, ptCount)
	cells[ptTopic] = cell{text: r.Topic}
	cells[ptP] = cell{text: fmt.Sprint(r.Partition)}
	cells[ptLow] = cell{text: model.OptThousands(r.Low)}
	cells[ptCommitted] = cell{text: model.OptThousands(r.Committed)}
	cells[ptArrow] = cell{text: "→"}
	cells[ptTarget] = cell{text: r.TargetText()}
	cells[ptHigh] = cell{text: model.OptThousands(r.High)}
	reason := r.ReasonText()
	cells[ptReason] = cell{text: reason}
	switch {
	case r.Target == nil && r.Reason != model.ReasonRestore:
		cells[ptReason].style = &st.expired
	case reason != string(model.ReasonAsRequested) && reason != string(model.ReasonRestore):
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
	cells[ptEffect] = cell{text: r.Effect(), style: &effect}
	cells[ptTime] = cell{text: "-"}
	if r.TargetTimestamp != nil {
		cells[ptTime] = cell{text: model.HumanDuration(s.c.now().Sub(r.TargetTimestamp.Time).Truncate(1e9)) + " ago"}
	}
	return cells
}

// ShortHelp implements help.KeyMap.
func (s *plannerScreen) ShortHelp() []key.Binding {
	switch s.phase {
	case phaseArmed:
		return []key.Binding{described(s.keys.Confirm, "execute"), s.keys.Disarm}
	case phaseExecuting:
		return nil
	case phaseResult:
		if len(s.body) > s.bodyH {
			return []key.Binding{described(s.keys.Scroll.Down, "scroll")}
		}
		return nil
	}
	b := []key.Binding{s.keys.NextField}
	if s.field != fieldValue {
		b = append(b, s.keys.Choose)
	} else {
		b = append(b, s.keys.LeaveField)
	}
	if s.keys.Arm.Enabled() {
		b = append(b, described(s.keys.Arm, "arm (then type the name)"))
	}
	if len(s.body) > s.bodyH {
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
		{s.keys.NextField, s.keys.PrevField, described(s.keys.Choose, "choose the strategy or scope"),
			described(s.keys.LeaveField, "leave the value field"), s.keys.ScrollDown, s.keys.ScrollUp},
		{
			arm,
			described(s.keys.Confirm, "with the exact name typed: execute"),
			described(s.keys.Disarm, "disarm (while asked for the name)"),
		},
	}
}

// syncKeys enables the bindings that can fire now.
func (s *plannerScreen) syncKeys() {
	s.keys.Arm.SetEnabled(s.armable() && s.phase == phaseEdit)
	s.keys.Confirm.SetEnabled(!s.c.readOnly)
	s.keys.Disarm.SetEnabled(!s.c.readOnly)
}
