package report

import (
	"slices"
	"unicode/utf8"

	"github.com/offsettui/offsettui/internal/text"
)

// Fitting describe's table to a terminal's width (describe --watch, which redraws in
// place: a row the terminal wraps pushes the table off the screen). Columns go by a
// written priority, as the TUI's tables do (docs/cli.md#describe); the values are never
// changed, only left out or shortened.

// fitSteps is what fit does, in order, until the rows fit: hide a column, or shorten one
// to a number of runes. GROUP goes first (each block's heading names the group); TOPIC,
// PARTITION, CURRENT-OFFSET (START-OFFSET), LAG, STATUS and LOSS-IN (the deadline) stay. A consumer id is its
// client id and a random suffix (clientId-UUID): it keeps its start; a topic name keeps
// both ends.
var fitSteps = []struct {
	title string
	limit int // 0: hide the column; else shorten it to limit runes
	cut   cut
}{
	{"GROUP", 0, 0}, {"CLIENT-ID", 0, 0}, {"HOST", 0, 0}, {"CONSUMER-ID", 28, cutEnd}, {"PRODUCE", 0, 0}, {"LAG/S", 0, 0},
	{"CONSUME", 0, 0}, {"WAS", 0, 0}, {"LAG-Δ", 0, 0}, {"COMMITTED-Δ", 0, 0}, {"COMMIT-TTL", 0, 0}, {"CONSUMER-ID", 0, 0},
	{"ETA", 0, 0}, {"EVALUATION", 0, 0}, {"TIME-LAG", 0, 0}, {"EXPIRES-IN", 0, 0}, {"LOG-END-OFFSET", 0, 0}, {"LOW", 0, 0},
	{"TOPIC", 12, cutMiddle},
}

// cut is how a shortened column loses its middle or its end.
type cut int

const (
	cutMiddle cut = iota + 1
	cutEnd
)

// fit lays the block out within width runes (0: as wide as it is), its columns titled head,
// and returns the titles it hid.
func (a *aligned) fit(head []string, width int) (hidden []string) {
	if width <= 0 {
		return nil
	}
	a.hide, a.limit, a.cut = make([]bool, a.cols), make([]int, a.cols), make([]cut, a.cols)
	for _, st := range fitSteps {
		if a.fitWidth() <= width {
			break
		}
		col := slices.Index(head, st.title)
		if col < 0 || a.hide[col] {
			continue
		}
		if st.limit == 0 {
			a.hide[col] = true
			hidden = append(hidden, st.title)
		} else if a.width[col] > st.limit {
			a.limit[col], a.cut[col] = st.limit, st.cut
		}
	}
	return hidden
}

// fitWidth is the width of the widest row as fit has laid the block out, with the "…" that
// marks hidden columns.
func (a *aligned) fitWidth() int {
	n, shown, hid := 0, 0, false
	for col := range a.cols {
		if a.hide[col] {
			hid = true
			continue
		}
		if shown > 0 {
			n += padding
		}
		shown++
		n += a.colWidth(col)
	}
	if hid {
		n += padding + 1
	}
	return n
}

func (a *aligned) colWidth(col int) int {
	if l := a.limit[col]; l > 0 {
		return min(a.width[col], l)
	}
	return a.width[col]
}

// writeFitted is writeTo after fit.
func (a *aligned) writeFitted(w sink) error {
	last := -1
	hid := false
	for col := range a.cols {
		if !a.hide[col] {
			last = col
		} else {
			hid = true
		}
	}
	out, from := a.out[:0], 0
	for i, end := range a.ends {
		cell := a.text[from:end]
		from = end
		col := i % a.cols
		if a.hide[col] {
			continue
		}
		runes := a.runes[i]
		if l := a.limit[col]; l > 0 && runes > l {
			s := shorten(string(cell), l, a.cut[col])
			out, runes = append(out, s...), utf8.RuneCountInString(s)
		} else {
			out = append(out, cell...)
		}
		if col < last {
			out = appendSpaces(out, a.colWidth(col)+padding-runes)
			continue
		}
		if hid && i < a.cols { // the titles' row
			out = appendSpaces(out, a.colWidth(col)+padding-runes)
			out = append(out, "…"...)
		}
		out = append(out, '\n')
	}
	a.out = out
	_, err := w.Write(out)
	return err
}

// shorten cuts s to l runes, ending in … or with … in its middle.
func shorten(s string, l int, c cut) string {
	if c == cutMiddle {
		return text.ShortenMiddle(s, l, utf8.RuneCountInString)
	}
	r := []rune(s)
	return string(r[:l-1]) + "…"
}
