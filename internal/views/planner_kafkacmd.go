package views

import (
	"strings"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// equivalentLines are the Kafka command that does what the plan does (plan.KafkaEquivalent),
// a reset's dry run before it, in the words `offsettui reset` and the delete commands print
// them, under the plan's rows. Each command is broken between words with " \" continuations
// (shellLines), so a selection pasted into a shell or a ticket is the command itself; the
// --from-file file's lines and where Kafka's tool differs are wrapped, never cut: nothing in
// them depends on colour.
func (s *plannerScreen) equivalentLines(p *plan.Plan) []string {
	e := p.KafkaEquivalent
	if e == nil {
		return nil
	}
	const indent = "  "
	lines := append([]string{""}, wrapLines(s.c.styles.section.Render(display.EquivalentHeading(e)), s.width, indent, 3)...)
	for _, c := range display.EquivalentCommands(e) {
		for _, l := range shellLines(c, s.width-len(indent)) {
			lines = append(lines, indent+l)
		}
	}
	if e.CSV != "" {
		lines = append(lines, indent+display.EquivalentFileHeading)
		for _, l := range strings.Split(strings.TrimSuffix(e.CSV, "\n"), "\n") {
			lines = append(lines, hardLines(indent+indent+l, s.width)...)
		}
	}
	for _, d := range e.Differs {
		w := wrapLines(indent+display.DiffersLabel+d, s.width, indent+indent, len(d))
		lines = append(lines, w...)
	}
	return lines
}
