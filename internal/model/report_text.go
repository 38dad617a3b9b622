package model

import (
	"fmt"
	"strconv"

	"strings"
)

// StatusText renders a status badge with the amount that makes it actionable:
// "EXPIRED (lost 18)", "AHEAD (+50)".
func StatusText(st Status, lost, beyond *int64) string {
	s := st.Badge()
	switch {
	case lost != nil:
		s += fmt.Sprintf(" (lost %d)", *lost)
	case beyond != nil:
		s += fmt.Sprintf(" (+%d)", *beyond)
	}
	return s
}

// SignedNum renders an optional change with its sign ("+30", "-5", "0"),
// "-" when absent.
func SignedNum(o Opt[int64]) string {
	switch {
	case !o.OK:
		return "-"
	case o.V > 0:
		return "+" + strconv.FormatInt(o.V, 10)
	}
	return strconv.FormatInt(o.V, 10)
}

// TotalLagText renders a group's total lag: the number when it is whole, "≥ N"
// when only a lower bound is known, "unknown" when nothing is.
func TotalLagText(g *Group) string {
	return FormatTotalLag(g, func(n int64) string { return strconv.FormatInt(n, 10) }, "unknown")
}

// Text renders the counts worst first, "EXPIRED 1  MISSING 2" (OK only when
// nothing is wrong); "" when there are none.
func (c Counts) Text() string {
	var parts []string
	for _, sc := range c.Ordered() {
		parts = append(parts, sc.Status.Badge()+" "+Thousands(sc.N))
	}
	return strings.Join(parts, "  ")
}
