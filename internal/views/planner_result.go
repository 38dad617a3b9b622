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

func (s *plannerScreen) resultLines() (top, body, bottom []string) {
	st := s.c.styles
	res := s.result
	p := res.Plan
	badge := st.expired
	switch res.Outcome {
	case plan.OutcomeApplied:
		badge = st.ok
	case plan.OutcomePartlyApplied:
		badge = st.atRisk
	}
	what := display.OutcomeMeaning(res.Outcome, p.Strategy.Kind)
	title, detail, _ := strings.Cut(resultTitle(p), " · ")
	if detail != "" {
		detail = " · " + detail
	}
	top = []string{st.title.Render(title) + st.muted.Render(detail+" · ") + badge.Render(strings.ToUpper(string(res.Outcome)))}

	field := func(name, value string) string { return noGlyph + st.section.Render(pad(name, 10, false)) + value }
	body = append(body, "")
	body = append(body, wrapLines(field("outcome", badge.Render(strings.ToUpper(string(res.Outcome)))+": "+what), s.width, "            ", 3)...)
	verdict, why := display.VerifiedText(p)
	badgeFor := map[bool]lipgloss.Style{true: st.ok, false: st.expired}
	verified := st.muted.Render(verdict) + ": " + why
	if v := p.Verified; v != nil {
		verified = badgeFor[*v].Render(verdict) + ": " + why
	}
	body = append(body, wrapLines(field("verified", verified), s.width, "            ", 3)...)
	if p.Backup != nil {
		// On the label's line when it fits; else alone, whole, from column 0.
		if line := field("backup", *p.Backup); lipgloss.Width(line) <= s.width {
			body = append(body, line)
		} else {
			body = append(body, field("backup", ""))
			body = append(body, hardLines(*p.Backup, s.width)...)
		}
	} else {
		body = append(body, field("backup", st.muted.Render("none written")))
	}
	if p.Undo != nil {
		body = append(body, field("undo", st.muted.Render("put the previous offsets back with this command:")))
		body = append(body, shellLines(*p.Undo, s.width)...)
		if s.c.demo { // its bootstrap is the demo's random ports
			body = append(body, wrapLines(field("", st.notice.Render(demoUndoNote)), s.width, "            ", 2)...)
		}
	}
	if len(p.Rejected) > 0 {
		body = append(body, "", field("rejected", st.expired.Render(text.Plural(len(p.Rejected), "partition")+", not "+p.Strategy.Kind.Act().Done+":")))
		for _, e := range p.Rejected {
			body = append(body, wrapLines("  "+e.Error(), s.width, "    ", 3)...)
		}
	}
	if res.Outcome == plan.OutcomeRefused && len(p.Blockers) > 0 {
		body = append(body, "")
		body = append(body, s.blockerLines(p.Blockers, 2*len(p.Blockers)+4)...)
	}
	if len(res.Notes) > 0 {
		body = append(body, "", field("notes", ""))
		for _, n := range res.Notes {
			body = append(body, wrapLines("  "+n, s.width, "    ", 4)...)
		}
	}
	if len(p.Rows) > 0 {
		label := "the plan as executed"
		if !p.Executed {
			label = "the plan, not executed"
		}
		header, rows, hidden := s.planTable(&p)
		if hidden != "" {
			hidden = st.muted.Render(" · ") + st.notice.Render(hidden)
		}
		body = append(body, "", st.title.Render(label+": "+display.TotalsText(p.Totals))+hidden)
		if a := display.AssumptionText(p); a != "" {
			for _, l := range wrapLines(a, s.width, "  ", s.assumptionLines()) {
				body = append(body, st.muted.Render(l))
			}
		}
		body = append(body, header)
		body = append(body, rows...)
	}
	bottom = []string{st.muted.Render("esc goes back to the group, which refreshes to show the offsets now committed; quitting prints the undo command")}
	if !s.compact() {
		bottom = append([]string{""}, bottom...)
	}
	return top, body, bottom
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
