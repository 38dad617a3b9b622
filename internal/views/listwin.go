package views

import (
	"github.com/offsettui/offsettui/internal/text"
)

// Every scrolled list (groups, partitions, plan rows, help) shows where it is:
// when its rows do not fit, its last line says how many are off screen
// ("… 3 more below · 2 above"), so nothing is hidden without a hint.

// listRows is how many rows a list of n rows shows in h lines: all of them,
// or h − 1 and the "… more" line.
func listRows(n, h int) int {
	if n > h {
		return max(1, h-1)
	}
	return max(1, h)
}

// moreLine says what a window showing rows [offset, offset+shown) of n hides,
// and which key brings it; "" when nothing is hidden.
func moreLine(offset, shown, n int) string {
	below := max(0, n-offset-shown)
	above := max(0, offset)
	switch {
	case below > 0 && above > 0:
		return "  … " + text.Thousands(below) + " more below · " + text.Thousands(above) + " above (pgdn/pgup)"
	case below > 0:
		return "  … " + text.Thousands(below) + " more below (pgdn)"
	case above > 0:
		return "  … " + text.Thousands(above) + " more above (pgup)"
	}
	return ""
}

// scrollTo returns the first row to show so that cursor stays inside a window
// of height rows, moving the window as little as possible.
func scrollTo(cursor, offset, height, n int) int {
	height = max(1, height)
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+height {
		offset = cursor - height + 1
	}
	return max(0, min(offset, n-height))
}
