package views

import (
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/offsettui/offsettui/internal/text"
)

// Cursor glyphs: the selected row never depends on color to be seen.
const (
	cursorGlyph = "▸ "
	noGlyph     = "  "
	glyphWidth  = 2
)

// column is one table column. Widths are in terminal cells. Each table lists
// its columns once, left to right, in a spec (groupColumns, partitionColumns,
// planColumns): adding a column is one entry there plus its cell.
type column struct {
	id    int
	title string
	width int // content width; the minimum for a flex column
	right bool
	// flex columns share the width left over, each up to maxW, and are the
	// ones squeezed when nothing is left to drop.
	flex bool
	maxW int
	// drop is the written priority that decides what goes when the table is
	// too wide: the highest number is dropped first; 0 is never dropped.
	drop int
	// middle shortens a long value in the middle ("payments-…-consumer-v2-a"),
	// so names that differ only at their ends stay apart.
	middle bool
	// hidden, on the marker layoutColumns adds after the last column shown, is
	// how many columns the width dropped: the header shows "…" there.
	hidden int
	// want, on a flex column, is the width that shows its values whole; columns
	// whose drop is at least yieldFrom are dropped rather than shorten them.
	want, yieldFrom int
}

// markerWidth is the "…" marker of dropped columns, with its space.
const markerWidth = 2

// layoutColumns drops columns by priority until the table fits total cells
// (cursor glyph and one space between columns included), and then those a flex
// column's whole values outrank (want, yieldFrom); it hands the rest
// of the width to the flex columns in order. Only when nothing is left to
// drop are the flex columns squeezed, the widest first, never below 3 cells;
// a column that is neither flex nor droppable (STATUS) keeps its width. When
// columns were dropped, a marker column (hidden) ends the table: nothing a
// narrow terminal drops goes without a sign.
func layoutColumns(cols []column, total int) []column {
	shown := append([]column(nil), cols...)
	need := func() int {
		n := glyphWidth
		for i, c := range shown {
			if i > 0 {
				n++
			}
			n += c.width
		}
		if len(shown) < len(cols) {
			n += markerWidth
		}
		return n
	}
	// dropFrom drops the column of the highest drop priority of at least least; false when
	// there is none.
	dropFrom := func(least int) bool {
		worst := -1
		for i, c := range shown {
			if c.drop >= least && (worst < 0 || c.drop > shown[worst].drop) {
				worst = i
			}
		}
		if worst >= 0 {
			shown = slices.Delete(shown, worst, worst+1)
		}
		return worst >= 0
	}
	for need() > total && dropFrom(1) {
	}
	for _, f := range cols { // the flex columns' whole values outrank the columns that yield to them
		for f.want > 0 && f.yieldFrom > 0 && need()-f.width+f.want > total && dropFrom(f.yieldFrom) {
		}
	}
	extra := total - need()
	for extra < 0 { // nothing left to drop: squeeze the widest flex column
		widest := -1
		for i, c := range shown {
			if c.flex && c.width > 3 && (widest < 0 || c.width > shown[widest].width) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		shown[widest].width--
		extra++
	}
	for i := range shown {
		c := &shown[i]
		if !c.flex || extra <= 0 {
			continue
		}
		grow := min(extra, max(0, c.maxW-c.width))
		c.width += grow
		extra -= grow
	}
	if n := len(cols) - len(shown); n > 0 {
		shown = append(shown, column{id: -1, width: markerWidth - 1, hidden: n})
	}
	return shown
}

// hiddenNote says how many columns the width dropped ("3 columns hidden"), or "".
func hiddenNote(cols []column) string {
	if n := len(cols); n > 0 && cols[n-1].hidden > 0 {
		return text.Plural(cols[n-1].hidden, "column") + " hidden"
	}
	return ""
}

// cell is one table cell: plain text with an optional style, or a fit function
// for cells that build their own styled text within a width.
type cell struct {
	text   string
	style  *lipgloss.Style
	fitted func(width int) string
}

// renderRow draws one row: glyph, then the cells of the shown columns, cut to
// width when even the narrowest layout does not fit.
func renderRow(cols []column, width int, glyph string, cells []cell) string {
	var b strings.Builder
	b.WriteString(glyph)
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		if c.hidden > 0 {
			b.WriteString(pad("", c.width, false))
			continue
		}
		cl := cells[c.id]
		if cl.fitted != nil {
			b.WriteString(pad(cl.fitted(c.width), c.width, c.right))
			continue
		}
		text := cl.text
		if c.middle {
			text = shortenMiddle(text, c.width)
		}
		txt := pad(text, c.width, c.right)
		if cl.style != nil {
			txt = cl.style.Render(txt)
		}
		b.WriteString(txt)
	}
	return truncate(b.String(), width)
}

// renderHeader draws the column titles; the sort column gets its arrow.
func renderHeader(cols []column, width int, st lipgloss.Style, sortID int, arrow string) string {
	var b strings.Builder
	b.WriteString(noGlyph)
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		t := c.title
		if c.id == sortID {
			t += arrow
		}
		if c.hidden > 0 {
			t = ellipsis
		}
		b.WriteString(pad(t, c.width, c.right))
	}
	return st.Render(truncate(b.String(), width))
}

// textWidth is the widest of a column title (plus room for a sort arrow) and
// its values, capped at limit when limit > 0.
func textWidth(title string, widest, limit int) int {
	w := max(lipgloss.Width(title)+1, widest)
	if limit > 0 {
		w = min(w, limit)
	}
	return w
}
