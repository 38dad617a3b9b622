package views

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// Drawing the planner. rebuild runs at the end of every Update and SetSize and
// renders three blocks: top (form, guards, totals, table header), a scrolling
// body (the plan's rows, or the result) and bottom (the action line), which
// stays in place above the help. View only cuts the body to its window.
//
// On a short screen (compact) the blank lines go, the guards take one line
// and, once armed, the form shrinks to one line: the plan's rows stay in view
// at 60×15 while the operator is asked to confirm them.

// compactPlannerBelow is the body height under which the planner is compact.
const compactPlannerBelow = 24

// maxMembersShown caps the members named in the guard panel.
const maxMembersShown = 3

func (s *plannerScreen) compact() bool { return s.height < compactPlannerBelow }

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
	// A very short terminal scrolls what does not fit of the top with the
	// body, keeping room for two rows: the action line (the name prompt)
	// must stay on screen.
	if keep := max(0, s.height-len(s.bottom)-3); len(s.top) > keep {
		s.body = append(append([]string{}, s.top[keep:]...), s.body...)
		s.top = s.top[:keep]
	}
	s.bodyH = max(1, s.height-len(s.top)-len(s.bottom))
	s.offset = max(0, min(s.offset, len(s.body)-listRows(len(s.body), s.bodyH)))
}

// View implements tea.Model.
func (s *plannerScreen) View() string {
	lines := append([]string{}, s.top...)
	rows := listRows(len(s.body), s.bodyH)
	end := min(len(s.body), s.offset+rows)
	start := min(s.offset, end)
	lines = append(lines, s.body[start:end]...)
	if more := moreLine(start, end-start, len(s.body)); more != "" {
		lines = append(lines, s.c.styles.muted.Render(strings.Replace(more, "more", "more lines", 1)))
	}
	for len(lines) < len(s.top)+s.bodyH {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, s.bottom...), "\n")
}

// planLines renders the form, the guard panel, the totals and the plan.
func (s *plannerScreen) planLines() (top, body, bottom []string) {
	st := s.c.styles
	sep := st.muted.Render(" · ")
	title := st.title.Render(s.titleText())
	if s.req.inFlight {
		title += sep + st.muted.Render("planning…")
	} else if s.plan != nil {
		title += sep + st.muted.Render("planned at "+s.madeAt.Format("15:04:05"))
	}
	if s.c.readOnly {
		title += sep + st.readOnly.Render("READ-ONLY") + " plans are shown, never executed"
	} else {
		title += sep + "dry run: nothing is written until you type the group name"
	}
	gap := func() {
		if !s.compact() {
			top = append(top, "")
		}
	}
	top = append(top, title)
	if s.compact() && s.phase == phaseArmed {
		top = append(top, s.formSummary())
	} else {
		top = append(top, s.formLines()...)
	}
	gap()
	top = append(top, s.guardLines()...)
	gap()
	switch {
	case s.invalid != nil:
		top = append(top, st.muted.Render("fix the value to see the plan"))
	case s.plan == nil && s.planErr == nil:
		top = append(top, st.muted.Render("planning: reading the group's state, commits and watermarks…"))
	case s.plan == nil:
		top = append(top, st.err.Render("no plan"))
	case len(s.plan.Rows) == 0:
		top = append(top, st.title.Render("no partitions in this plan"))
	case s.plan.MovesForward() != nil: // coloured: it skips records nobody asked to skip
		top = append(top, st.atRisk.Render(display.TotalsText(s.plan.Totals)))
	default:
		top = append(top, st.title.Render(display.TotalsText(s.plan.Totals)))
	}
	if s.plan != nil && len(s.plan.Rows) > 0 {
		header, rows, hidden := s.planTable(s.plan)
		if hidden != "" {
			top[len(top)-1] += sep + st.notice.Render(hidden)
		}
		if a := display.AssumptionText(*s.plan); a != "" {
			for _, l := range wrapLines(a+" (a switches)", s.width, "  ", s.assumptionLines()) {
				top = append(top, st.muted.Render(l))
			}
		}
		gap()
		top = append(top, header)
		body = append(rows, s.equivalentLines(s.plan)...)
	}
	return top, body, s.actionLines()
}

func (s *plannerScreen) titleText() string {
	return display.OperationTitle(s.kindNow()) + " plan for " + s.group
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
	case !kind.TakesValue() && s.compact(): // nothing to show on its own line
	case !kind.TakesValue():
		lines = append(lines, label(fieldValue, "value")+st.muted.Render("  (none)"))
	case kind == plan.Restore:
		lines = append(lines, label(fieldValue, "backup")+choice(fieldValue, s.backupText()))
	case kind == plan.FromGroup:
		lines = append(lines, s.sourceLines(label(fieldValue, "source"))...)
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
	case s.invalid == errNoValue && kind == plan.Restore:
		lines = append(lines, noGlyph+st.muted.Render("nothing to restore: "+s.backupText()))
	case s.invalid == errNoValue && kind == plan.FromGroup:
		lines = append(lines, noGlyph+st.muted.Render("choose the group to copy positions from: type a part of its name (tab goes to the field)"))
	case s.invalid == errNoValue:
		lines = append(lines, noGlyph+st.muted.Render("type a value for "+kind.Flag()+": "+valueExample[kind]+" (tab or ↓ goes to the field)"))
	case s.invalid != nil:
		lines = append(lines, noGlyph+st.err.Render("✗ "+s.invalid.Error()))
	default:
		lines = append(lines, noGlyph+st.muted.Render(s.st.String()+": "+understood(s.st, s.parsedAt)))
	}
	return lines
}

// formSummary is the form in one line, for a compact armed screen.
func (s *plannerScreen) formSummary() string {
	v := s.st.String()
	if plannerKinds[s.kind] == plan.Restore {
		v = s.st.Kind.Flag() + " " + s.backupText()
	}
	return noGlyph + v + s.c.styles.muted.Render(" · ") + s.currentScope().label
}

// guardLines are the guard panel: state, members, read-only, what changed
// since the last plan, and every blocker with its message. Compact: the
// verdict shares the first line.
func (s *plannerScreen) guardLines() []string {
	st := s.c.styles
	sep := st.muted.Render(" · ")
	state := "?"
	switch {
	case s.plan != nil:
		state = text.OrDash(s.plan.State)
	case s.g != nil:
		state = text.OrDash(s.g.State)
	}
	parts := []string{st.section.Render("GUARDS") + "  state " + state, s.membersText()}
	if s.c.readOnly {
		parts = append(parts, st.readOnly.Render("READ-ONLY"))
	} else {
		parts = append(parts, "writes allowed")
	}
	var verdict []string
	switch {
	case s.planErr != nil:
		verdict = wrapLines(st.err.Render("✗ cannot make the plan: "+s.planErr.Error()+"; the next refresh (r) tries again"), s.width, "  ", 3)
	case s.plan == nil:
	case s.plan.Executable() && len(s.plan.Rows) > 0:
		verdict = []string{st.ok.Render("OK") + "  nothing blocks this plan" + st.muted.Render("; all guards run again right before the commit")}
	case onlyNothingToReset(s.plan.Blockers):
		// No alarm: a plan that changes nothing (the planner opens on --to-current) is no danger.
		verdict = wrapLines(st.muted.Render("NOTHING TO CHANGE  "+s.plan.Blockers[0].Message), s.width, "  ", 2)
	default:
		verdict = s.blockerLines(s.plan.Blockers, max(2, s.height/4))
	}
	if p := s.plan; p != nil && p.AllowCommitter && p.Committer != nil {
		verdict = append(verdict, wrapLines(st.notice.Render("COMMITTER GUARD OFF")+" (!)  "+plan.CommitterText(p.Committer)+
			": its next commit may overwrite the write; the watch after it reports that", s.width, "  ", 2)...)
	}
	var notes []string // what the plan does or risks that blocks nothing: it creates the group, a target expires
	if s.plan != nil {
		if f := s.plan.MovesForward(); f != nil {
			notes = append(notes, wrapLines(st.atRisk.Render("MOVES FORWARD")+"  "+f.Message, s.width, "      ", 2)...)
		}
		for _, n := range display.NoteLines(s.plan.Notes) {
			notes = append(notes, wrapLines(st.notice.Render("NOTE")+"  "+n.Text, s.width, "      ", 2)...)
		}
	}
	var changed []string
	if len(s.changes) > 0 {
		text := st.notice.Render("CHANGED") + " at " + s.changeAt.Format("15:04:05") + " since the previous plan: " + strings.Join(s.changes, "; ")
		changed = wrapLines(text, s.width, "        ", 2)
	}
	if s.compact() {
		lines := s.compactGuards(parts, changed)
		if len(notes) > 0 {
			lines = append(lines, truncate(strings.Join(notes, " "), s.width))
		}
		return lines
	}
	return append(append(append([]string{strings.Join(parts, sep)}, changed...), verdict...), notes...)
}

// compactGuards is the guard panel in one line (two with a blocker or a
// change): the verdict first, then state, members and writes.
func (s *plannerScreen) compactGuards(parts, changed []string) []string {
	st := s.c.styles
	var verdict, second string
	switch {
	case s.planErr != nil:
		verdict = st.err.Render("✗ no plan")
		second = st.err.Render("✗ " + s.planErr.Error())
	case s.plan == nil:
		verdict = st.muted.Render("…")
	case s.plan.Executable() && len(s.plan.Rows) > 0:
		verdict = st.ok.Render("OK")
	case len(s.plan.Blockers) > 0:
		bs := s.plan.Blockers
		verdict = st.expired.Render("BLOCKED")
		second = "  " + st.expired.Render("["+string(bs[0].Kind)+"]") + " " + bs[0].Message
		if len(bs) > 1 {
			second = "  " + text.Plural(len(bs), "blocker") + ": " + strings.TrimSpace(second)
		}
	}
	parts[0] = st.section.Render("GUARDS") + " " + verdict + "  " + strings.TrimPrefix(parts[0], st.section.Render("GUARDS")+"  ")
	lines := []string{strings.Join(parts, st.muted.Render(" · "))}
	if second != "" {
		lines = append(lines, second)
	}
	if len(changed) > 0 {
		lines = append(lines, changed[0])
	}
	return lines
}

// membersText names the group's live members: a reset needs none.
func (s *plannerScreen) membersText() string {
	if s.g == nil {
		return "members unknown"
	}
	members := s.g.Members
	if len(members) == 0 {
		return "no members"
	}
	var names []string
	for i, m := range members {
		if i == maxMembersShown {
			names = append(names, fmt.Sprintf("and %d more", len(members)-i))
			break
		}
		names = append(names, m.Name()+" on "+text.OrDash(strings.TrimPrefix(m.Host, "/")))
	}
	return s.c.styles.expired.Render(text.Plural(len(members), "live member") + ": " + strings.Join(names, ", "))
}

// blockerLines lists blockers, wrapped, within about budget lines.
func (s *plannerScreen) blockerLines(bs []plan.Blocker, budget int) []string {
	st := s.c.styles
	if len(bs) == 0 {
		return nil
	}
	lines := []string{st.expired.Render("BLOCKED") + "  " + text.Plural(len(bs), "blocker") + ": this plan cannot be executed"}
	if s.compact() && len(bs) == 1 {
		lines[0] += "  " + st.expired.Render("["+string(bs[0].Kind)+"]") + " " + bs[0].Message
	}
	for i, b := range bs {
		w := wrapLines("  "+st.expired.Render("["+string(b.Kind)+"]")+" "+b.Message, s.width, "    ", 3)
		if len(lines)+len(w) > budget+1 && i > 0 {
			lines = append(lines, st.muted.Render("  … and "+text.Plural(len(bs)-i, "more blocker")))
			break
		}
		lines = append(lines, w...)
	}
	return lines
}

// actionLines say what enter does now, and answer the last key; compact, the
// answer replaces the action line while there is one.
func (s *plannerScreen) actionLines() []string {
	st := s.c.styles
	var action string
	switch {
	case s.phase == phaseExecuting && s.cancelling:
		action = st.notice.Render("CANCELLING") + "  nothing written; waiting for the watch to stop"
	case s.phase == phaseExecuting:
		action = st.notice.Render("EXECUTING") + "  " + executingText(s.progress, s.kindNow())
	case s.phase == phaseArmed:
		action = st.notice.Render("ARMED") + "  type " + st.title.Render(s.group) + ": " + s.confirm.View() +
			st.muted.Render("  enter executes, esc disarms")
	case s.holding:
		action = st.expired.Render("DISARMED") + "  " + s.confirm.View() +
			st.muted.Render("  what you type stays here; esc leaves the field")
	case s.c.readOnly:
		action = st.readOnly.Render("READ-ONLY") + "  this plan can be reviewed, never executed"
	case s.armable():
		action = "enter arms this plan; then type " + st.title.Render(s.group) + " to execute it"
	case s.plan != nil && onlyNothingToReset(s.plan.Blockers):
		action = st.muted.Render("nothing to change: ←/→ chooses a strategy, tab moves to its value and scope")
	case s.plan != nil && !s.plan.Executable():
		action = st.muted.Render("cannot be armed while it has blockers; nothing will be written")
	default:
		action = st.muted.Render("enter arms the plan once it is made and nothing blocks it")
	}
	flash := ""
	if s.flash != "" {
		flash = st.notice.Render(s.flash)
	}
	if s.compact() {
		if (s.phase == phaseArmed || s.holding) && flash != "" {
			return []string{flash, action}
		}
		if flash != "" {
			return []string{flash}
		}
		return []string{action}
	}
	return []string{flash, action}
}

// executingText says where an execution of a plan of kind k stands: watching the group's
// commits before the write (or delete), with its countdown; writing; or watching for an
// overwrite after it.
func executingText(p *plan.Progress, k plan.StrategyKind) string {
	act := k.Act()
	switch {
	case p == nil || p.Left <= 0:
		if k.Deletes() {
			return "re-reading the group, writing the backup, deleting, reading back…"
		}
		return "re-reading the group, writing the backup, committing, reading back…"
	case p.Phase == plan.PhaseObserve:
		return "watching — nothing " + act.Done + " yet (esc cancels) · for a consumer committing from outside the group: " +
			text.HumanDuration(p.Left.Round(time.Second)) + " left"
	}
	what := "an overwrite"
	if k.Deletes() {
		what = "a new commit"
	}
	return act.Done + " and read back; watching for " + what + " by a consumer outside the group: " +
		text.HumanDuration(p.Left.Round(time.Second)) + " left"
}

// onlyNothingToReset reports whether bs is only nothing-to-reset blockers: the plan is
// blocked because it would write nothing, not because writing is unsafe.
func onlyNothingToReset(bs []plan.Blocker) bool {
	return len(bs) > 0 && !slices.ContainsFunc(bs, func(b plan.Blocker) bool { return b.Kind != plan.BlockNothingToReset })
}
