package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// The source of a copy (reset --from-group SOURCE) is chosen from the cluster's groups
// whose positions the group may copy (plan.CopiesFrom: the same type; classic and
// consumer groups from each other), listed by name and filtered as the operator types;
// ↑/↓ move the highlight, and the plan follows the highlighted group. A name no listed
// group matches is planned as typed: the Resetter reads the source and its plan says
// whether it exists and is of the right type.

// maxSourcesShown caps the matches listed under the source field (compact: fewer).
const (
	maxSourcesShown        = 5
	maxSourcesShownCompact = 2
)

// sourceChooser is the source field's state. It is rebuilt from each snapshot (refresh)
// and each keystroke (setFilter), in Update.
type sourceChooser struct {
	all     []string // the candidates, sorted
	filter  string   // as typed
	matches []string // the candidates the filter matches
	cursor  int      // into matches
	moved   bool     // ↑/↓ chose one while the filter was empty
}

// refresh lists the candidates of snap for group (g its row, nil when not read) and keeps
// the highlighted one where it still matches.
func (c *sourceChooser) refresh(snap *model.Snapshot, g *model.Group, group string) {
	keep := c.chosen()
	c.all = nil
	if snap != nil {
		typ := ""
		if g != nil {
			typ = g.Type
		}
		for i := range snap.Groups {
			if o := &snap.Groups[i]; o.Group != group && plan.CopiesFrom(typ, o.Type) {
				c.all = append(c.all, o.Group)
			}
		}
	}
	slices.Sort(c.all)
	c.match()
	if i := slices.Index(c.matches, keep); i >= 0 {
		c.cursor = i
	}
}

// setFilter filters the candidates by what is typed (any case, a part of the name); the
// highlight goes to the group of exactly that name, else the first match.
func (c *sourceChooser) setFilter(f string) {
	c.filter = f
	c.match()
	c.cursor = max(0, slices.Index(c.matches, strings.TrimSpace(f)))
}

func (c *sourceChooser) match() {
	want := strings.ToLower(strings.TrimSpace(c.filter))
	c.matches = nil
	for _, name := range c.all {
		if strings.Contains(strings.ToLower(name), want) {
			c.matches = append(c.matches, name)
		}
	}
	c.cursor = max(0, min(c.cursor, len(c.matches)-1))
}

// active reports whether a group is highlighted: something was typed, or ↑/↓ chose one.
func (c *sourceChooser) active() bool { return strings.TrimSpace(c.filter) != "" || c.moved }

// move moves the highlight by step; the first move on an empty filter highlights the first.
func (c *sourceChooser) move(step int) {
	if !c.active() {
		c.moved = true
		return
	}
	c.cursor = max(0, min(c.cursor+step, len(c.matches)-1))
}

// chosen is the source the plan copies from: the highlighted match, else the name as
// typed, else none ("").
func (c *sourceChooser) chosen() string {
	switch {
	case !c.active():
		return ""
	case len(c.matches) > 0:
		return c.matches[c.cursor]
	}
	return strings.TrimSpace(c.filter)
}

// countText says what the list holds and, while the field has the keyboard (focused),
// how to choose from it.
func (c *sourceChooser) countText(focused bool) string {
	groups := text.Plural(len(c.all), "group") + " of this type"
	how := ""
	switch {
	case len(c.all) == 0:
		return "no other group of this type is listed: type its name"
	case strings.TrimSpace(c.filter) == "":
		groups += " listed"
		how = ": type to filter, ↑/↓ choose"
	case len(c.matches) == 0:
		return fmt.Sprintf("none of the %s matches: planned as typed", groups)
	default:
		groups = fmt.Sprintf("%d of %s match", len(c.matches), groups)
		how = "; ↑/↓ choose"
	}
	if !focused {
		return groups
	}
	return groups + how
}

// choosingSource reports whether the source field has the keyboard.
func (s *plannerScreen) choosingSource() bool {
	return s.phase == phaseEdit && !s.holding && s.field == fieldValue && s.kindNow() == plan.FromGroup
}

// sourceLines are the source field: the chosen group (or the filter being typed) with
// what the list holds and, while the field has the keyboard, the matches around the
// highlighted one.
func (s *plannerScreen) sourceLines(label string) []string {
	st := s.c.styles
	c := &s.src
	if !s.choosingSource() {
		v := c.chosen()
		if v == "" {
			v = st.muted.Render(valueExample[plan.FromGroup])
		}
		return []string{label + "  " + v + st.muted.Render("  ("+c.countText(false)+")")}
	}
	lines := []string{label + "  " + s.value.View() + st.muted.Render("  "+c.countText(true))}
	n := maxSourcesShown
	if s.compact() {
		n = maxSourcesShownCompact
	}
	start := max(0, min(c.cursor-n/2, len(c.matches)-n))
	end := min(len(c.matches), start+n)
	indent := strings.Repeat(" ", glyphWidth+9+2) // under the value
	for i := start; i < end; i++ {
		switch {
		case c.active() && i == c.cursor:
			lines = append(lines, indent+st.prompt.Render(cursorGlyph)+st.title.Render(c.matches[i]))
		default:
			lines = append(lines, indent+noGlyph+c.matches[i])
		}
	}
	if more := moreLine(start, end-start, len(c.matches)); more != "" {
		more = strings.NewReplacer("pgdn/pgup", "↓/↑", "pgdn", "↓", "pgup", "↑").Replace(strings.TrimSpace(more))
		lines = append(lines, indent+noGlyph+st.muted.Render(more))
	}
	return lines
}
