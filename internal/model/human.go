package model

import (
	"fmt"
	"strconv"
	"time"
)

// HumanDuration renders a duration in at most two units ("3h12m", "2d4h", "45s",
// "-1h5m"), the form tables and explanations use.
func HumanDuration(d time.Duration) string {
	if d < 0 {
		return "-" + HumanDuration(-d)
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return twoUnits(int(d/time.Minute), "m", int(d%time.Minute/time.Second), "s")
	case d < 24*time.Hour:
		return twoUnits(int(d/time.Hour), "h", int(d%time.Hour/time.Minute), "m")
	default:
		return twoUnits(int(d/(24*time.Hour)), "d", int(d%(24*time.Hour)/time.Hour), "h")
	}
}

func twoUnits(a int, au string, b int, bu string) string {
	if b == 0 {
		return strconv.Itoa(a) + au
	}
	return strconv.Itoa(a) + au + strconv.Itoa(b) + bu
}

// HumanMs renders optional milliseconds, "-" when absent.
func HumanMs(ms *int64) string {
	if ms == nil {
		return "-"
	}
	return HumanDuration(time.Duration(*ms) * time.Millisecond)
}

// OrDash renders an empty text as "-", the tables' mark for "none".
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

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

// Num renders an optional number, "-" when absent.
func Num(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// TotalLagText renders a group's total lag: the number when it is whole, "≥ N"
// when only a lower bound is known, "unknown" when nothing is.
func TotalLagText(g *Group) string {
	switch {
	case g.TotalLag != nil:
		return strconv.FormatInt(*g.TotalLag, 10)
	case g.TotalLagAtLeast != nil && *g.TotalLagAtLeast > 0:
		return "≥ " + strconv.FormatInt(*g.TotalLagAtLeast, 10)
	}
	return "unknown"
}
