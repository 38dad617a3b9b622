package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// The planner's last step: what the execution did. The undo command is shown
// whole (never cut with …), wrapped as shell continuation lines so that a
// selection pasted into a shell runs it as one command.

// demoUndoNote goes with the undo command under --demo: the command names the
// embedded cluster's ports, which close when offsettui exits.
const demoUndoNote = "the demo cluster stops when offsettui exits: this command works only while it runs"

// resultLines lay out the result: the outcome in the title, then what was written, the
// backup and the undo command, what was refused, and the plan as executed.
func (s *plannerScreen) resultLines() (top, body, bottom []string) {
	st := s.c.styles
	res := s.result
	p := res.Plan
	badge := st.outcome(res.Outcome).Render(strings.ToUpper(string(res.Outcome)))
	what := display.OutcomeMeaning(res.Outcome, p.Strategy.Kind)
	title, detail, _ := strings.Cut(resultTitle(p), " · ")
	if detail != "" {
		detail = " · " + detail
	}
	top = []string{st.title.Render(title) + st.muted.Render(detail+" · ") + badge}

	body = append(body, "")
	body = append(body, wrapLines(s.resultField("outcome", badge+": "+what), s.width, "            ", 3)...)
	body = append(body, wrapLines(s.resultField("verified", s.verifiedText(&p)), s.width, "            ", 3)...)
	body = append(body, s.backupLines(&p)...)
	body = append(body, s.undoLines(&p)...)
	body = append(body, s.rejectedLines(&p)...)
	if res.Outcome == plan.OutcomeRefused && len(p.Blockers) > 0 {
		body = append(body, "")
		body = append(body, s.blockerLines(p.Blockers, 2*len(p.Blockers)+4)...)
	}
	if len(res.Notes) > 0 {
		body = append(body, "", s.resultField("notes", ""))
		for _, n := range res.Notes {
			body = append(body, wrapLines("  "+n, s.width, "    ", 4)...)
		}
	}
	body = append(body, s.executedPlanLines(&p)...)
	bottom = []string{st.muted.Render("esc goes back to the group, which refreshes to show the offsets now committed; quitting prints the undo command")}
	if !s.compact() {
		bottom = append([]string{""}, bottom...)
	}
	return top, body, bottom
}

// resultField is one labelled line of the result: the name in a column of its own.
func (s *plannerScreen) resultField(name, value string) string {
	return noGlyph + s.c.styles.section.Render(pad(name, 10, false)) + value
}

// verifiedText says whether the offsets read back after the writes were the ones
// planned: the verdict coloured by it, muted when nothing was read back, and why.
func (s *plannerScreen) verifiedText(p *plan.Plan) string {
	st := s.c.styles
	verdict, why := display.VerifiedText(*p)
	if v := p.Verified; v != nil {
		badgeFor := map[bool]lipgloss.Style{true: st.ok, false: st.expired}
		return badgeFor[*v].Render(verdict) + ": " + why
	}
	return st.muted.Render(verdict) + ": " + why
}

// backupLines name the backup written, whole: on the label's line when it fits,
// else alone from column 0, so the path can be copied.
func (s *plannerScreen) backupLines(p *plan.Plan) []string {
	if p.Backup == nil {
		return []string{s.resultField("backup", s.c.styles.muted.Render("none written"))}
	}
	if line := s.resultField("backup", *p.Backup); lipgloss.Width(line) <= s.width {
		return []string{line}
	}
	return append([]string{s.resultField("backup", "")}, hardLines(*p.Backup, s.width)...)
}

// undoLines are the command that puts the previous offsets back, if any.
func (s *plannerScreen) undoLines(p *plan.Plan) []string {
	if p.Undo == nil {
		return nil
	}
	st := s.c.styles
	lines := []string{s.resultField("undo", st.muted.Render("put the previous offsets back with this command:"))}
	lines = append(lines, shellLines(*p.Undo, s.width)...)
	if s.c.demo { // its bootstrap is the demo's random ports
		lines = append(lines, wrapLines(s.resultField("", st.notice.Render(demoUndoNote)), s.width, "            ", 2)...)
	}
	return lines
}

// rejectedLines list the partitions the brokers refused, with their errors.
func (s *plannerScreen) rejectedLines(p *plan.Plan) []string {
	if len(p.Rejected) == 0 {
		return nil
	}
	lines := []string{"", s.resultField("rejected", s.c.styles.expired.Render(text.Plural(len(p.Rejected), "partition")+", not "+p.Strategy.Kind.Act().Done+":"))}
	for _, e := range p.Rejected {
		lines = append(lines, wrapLines("  "+e.Error(), s.width, "    ", 3)...)
	}
	return lines
}

// executedPlanLines are the plan's table under a title saying whether it was executed.
func (s *plannerScreen) executedPlanLines(p *plan.Plan) []string {
	if len(p.Rows) == 0 {
		return nil
	}
	st := s.c.styles
	label := "the plan as executed"
	if !p.Executed {
		label = "the plan, not executed"
	}
	header, rows, hidden := s.planTable(p)
	if hidden != "" {
		hidden = st.muted.Render(" · ") + st.notice.Render(hidden)
	}
	lines := []string{"", st.title.Render(label+": "+display.TotalsText(p.Totals)) + hidden}
	if a := display.AssumptionText(*p); a != "" {
		for _, l := range wrapLines(a, s.width, "  ", s.assumptionLines()) {
			lines = append(lines, st.muted.Render(l))
		}
	}
	lines = append(lines, header)
	return append(lines, rows...)
}

// hardLines cuts text into lines of width cells, without … : a path must stay
// whole to be copied.
func hardLines(text string, width int) []string {
	return strings.Split(ansi.Hardwrap(text, max(1, width), false), "\n")
}

// shellLines lays a shell command out in lines of at most width cells, breaking
// between words with " \" continuations (continued lines indented by two). A
// word longer than a line is cut hard, the one case a paste needs mending.
func shellLines(cmd string, width int) []string {
	words := shellWords(cmd)
	var lines []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "" || strings.TrimSpace(cur) == "":
			cur += w
		case lipgloss.Width(cur)+1+lipgloss.Width(w)+2 <= width:
			cur += " " + w
		default:
			lines = append(lines, cur+" \\")
			cur = "  " + w
		}
	}
	lines = append(lines, cur)
	var out []string
	for _, l := range lines {
		out = append(out, hardLines(l, width)...)
	}
	return out
}

// shellWords splits a command at the spaces outside single quotes and
// backslash escapes, so a quoted path with spaces stays one word.
func shellWords(cmd string) []string {
	var words []string
	var b strings.Builder
	quoted, escaped := false, false
	for _, r := range cmd {
		switch {
		case escaped:
			escaped = false
		case quoted:
			quoted = r != '\''
		case r == '\\':
			escaped = true
		case r == '\'':
			quoted = true
		case r == ' ':
			if b.Len() > 0 {
				words = append(words, b.String())
				b.Reset()
			}
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	return words
}
