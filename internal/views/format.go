package views

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// ellipsis marks text cut to fit.
const ellipsis = "…"

// fmtInt writes n with thousands separators: 1,234,567.
func fmtInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// fmtOptInt writes an optional number, "-" when absent.
func fmtOptInt(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmtInt(*p)
}

// fmtDur writes a duration the way people say it, with its two largest units:
// "45s", "12m5s", "3h12m", "2d4h".
func fmtDur(d time.Duration) string {
	if d < 0 {
		return "-" + fmtDur(-d)
	}
	s := int64(d / time.Second)
	days, hours, mins, secs := s/86400, s/3600%24, s/60%60, s%60
	two := func(a int64, ua string, b int64, ub string) string {
		if b == 0 {
			return strconv.FormatInt(a, 10) + ua
		}
		return strconv.FormatInt(a, 10) + ua + strconv.FormatInt(b, 10) + ub
	}
	switch {
	case days > 0:
		return two(days, "d", hours, "h")
	case hours > 0:
		return two(hours, "h", mins, "m")
	case mins > 0:
		return two(mins, "m", secs, "s")
	default:
		return strconv.FormatInt(secs, 10) + "s"
	}
}

// fmtMs writes optional milliseconds as a duration, "-" when absent.
func fmtMs(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmtDur(time.Duration(*p) * time.Millisecond)
}

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
