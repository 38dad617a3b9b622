package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/text"
)

// ellipsis marks text cut to fit.
const ellipsis = "…"

// truncate cuts s (which may hold escape sequences) to one line of w cells,
// ending in "…". Line breaks become "; ": a multi-line error (errors.Join of
// several brokers' errors) would otherwise add lines to a one-line area and
// push the screen past the terminal's height.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = strings.ReplaceAll(s, "\n", "; ")
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}

// pad truncates or pads s to exactly w cells, aligned right when right is set.
func pad(s string, w int, right bool) string {
	s = truncate(s, w)
	gap := w - ansi.StringWidth(s)
	if gap <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", gap) + s
	}
	return s + strings.Repeat(" ", gap)
}

// fitLines makes s exactly height lines, none wider than width.
func fitLines(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = truncate(l, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// sparkBars are the eight levels of a sparkline.
var sparkBars = []rune("▁▂▃▄▅▆▇█")

// sparkline draws the last width values scaled between their own min and max.
// A flat series is drawn at the bottom when zero and mid-height otherwise.
func sparkline(vals []int64, width int) string {
	if len(vals) > width {
		vals = vals[len(vals)-width:]
	}
	if len(vals) == 0 {
		return ""
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	out := make([]rune, len(vals))
	for i, v := range vals {
		switch {
		case hi == lo && v == 0:
			out[i] = sparkBars[0]
		case hi == lo:
			out[i] = sparkBars[3]
		default:
			out[i] = sparkBars[int((v-lo)*int64(len(sparkBars)-1)/(hi-lo))]
		}
	}
	return string(out)
}

// trendArrow compares the last two values: ↑ lag grows, ↓ it shrinks, → flat.
// One value has no trend.
func trendArrow(vals []int64) string {
	if len(vals) < 2 {
		return " "
	}
	a, b := vals[len(vals)-2], vals[len(vals)-1]
	switch {
	case b > a:
		return "↑"
	case b < a:
		return "↓"
	default:
		return "→"
	}
}

// gaugeWidth is the widest gauge: a bracketed bar with one cell outside each
// bracket for offsets below low or above high.
const gaugeWidth = 14

// gauge pictures where committed sits between low and high in width cells:
//
//	" [====|·····] "  committed inside: read part, cursor, backlog
//	"<[··········] "  committed below low (expired): its records are gone
//	" [==========]>"  committed above high (ahead)
//	" [    ?     ] "  no commit, or offsets unknown
func gauge(low, committed, high *int64, width int) string {
	inner := max(1, width-4)
	if low == nil || high == nil || committed == nil {
		left := (inner - 1) / 2
		return " [" + strings.Repeat(" ", left) + "?" + strings.Repeat(" ", inner-1-left) + "] "
	}
	l, c, h := *low, *committed, *high
	switch {
	case c < l:
		return "<[" + strings.Repeat("·", inner) + "] "
	case c > h:
		return " [" + strings.Repeat("=", inner) + "]>"
	case h <= l:
		return " [" + strings.Repeat("=", inner-1) + "|] "
	}
	pos := int((c - l) * int64(inner-1) / (h - l))
	return " [" + strings.Repeat("=", pos) + "|" + strings.Repeat("·", inner-1-pos) + "] "
}

// shortenMiddle cuts plain text s to w cells by replacing its middle with …
// (text.ShortenMiddle), cells measured as the terminal draws them.
func shortenMiddle(s string, w int) string {
	if w <= 2 && ansi.StringWidth(s) > w {
		return ansi.Truncate(s, max(w, 0), ellipsis)
	}
	return text.ShortenMiddle(s, w, ansi.StringWidth)
}
