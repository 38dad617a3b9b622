package report

import (
	"unicode/utf8"

	"github.com/offsettui/offsettui/internal/text"
)

// aligned lays out one block of rows the way text/tabwriter does with padding
// 2 and no flags: each column as wide as its widest cell plus two spaces, the
// last cell of a row as it is. Every row has the same number of cells. Cells
// are appended into one buffer, so a row costs no allocation, and the block
// is written as soon as it is complete.
type aligned struct {
	text  []byte
	ends  []int // where each cell ends in text
	runes []int // each cell's width in runes, as tabwriter counts it
	width []int // per column
	cols  int
	out   []byte // the block as written, reused
	// hide, limit and cut are fit's layout, per column: a column hidden, or shortened to at
	// most limit runes (0: whole) as cut says. They are empty unless fit ran.
	hide  []bool
	limit []int
	cut   []cut
}

// start begins a block of rows of cols cells.
func (a *aligned) start(cols int) {
	a.text, a.ends, a.runes = a.text[:0], a.ends[:0], a.runes[:0]
	a.cols = cols
	a.width = append(a.width[:0], make([]int, cols)...)
	a.hide, a.limit, a.cut = a.hide[:0], a.limit[:0], a.cut[:0]
}

// add appends a cell.
func (a *aligned) add(s string) {
	a.text = append(a.text, s...)
	a.endCell()
}

// addAll appends cells.
func (a *aligned) addAll(cells []string) {
	for _, c := range cells {
		a.add(c)
	}
}

// num appends an optional number as text.Num writes it.
func (a *aligned) num(v *int64) {
	a.text = text.AppendNum(a.text, v)
	a.endCell()
}

// endCell ends the cell whose text was appended to a.text since the last one.
func (a *aligned) endCell() {
	from := 0
	if n := len(a.ends); n > 0 {
		from = a.ends[n-1]
	}
	w := utf8.RuneCount(a.text[from:])
	col := len(a.ends) % a.cols
	a.width[col] = max(a.width[col], w)
	a.ends = append(a.ends, len(a.text))
	a.runes = append(a.runes, w)
}

// padding is the space between two columns.
const padding = 2

var spaces = []byte("                                                                ")

// writeTo writes the block's rows, each ending in a newline, in one write. After fit, the
// hidden columns are left out, the limited ones shortened, and the first row (the titles)
// ends in "…" when a column was hidden.
func (a *aligned) writeTo(w sink) error {
	if len(a.hide) > 0 {
		return a.writeFitted(w)
	}
	out, from := a.out[:0], 0
	for i, end := range a.ends {
		out = append(out, a.text[from:end]...)
		from = end
		if col := i % a.cols; col < a.cols-1 {
			out = appendSpaces(out, a.width[col]+padding-a.runes[i])
		} else {
			out = append(out, '\n')
		}
	}
	a.out = out
	_, err := w.Write(out)
	return err
}

func appendSpaces(out []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		out = append(out, spaces[:k]...)
		n -= k
	}
	return out
}
