package model

import "time"

// RateText renders an optional rate with its unit, "-" when absent.
func RateText(o Opt[float64]) string {
	if !o.OK {
		return "-"
	}
	return FormatRate(o.V)
}

// TrendText renders a lag rate with its sign ("+10/s", "-30/s", "0/s"), "-"
// when absent.
func TrendText(o Opt[float64]) string {
	if !o.OK {
		return "-"
	}
	if o.V > 0 {
		return "+" + FormatRate(o.V)
	}
	return FormatRate(o.V)
}

// ETAText renders an ETA: "caught up", "18s", "never", "stalled", "stopped",
// "rewound", "rewound, 3m", "-".
func ETAText(st ETAState, ms Opt[int64]) string {
	switch st {
	case ETANone:
		return "-"
	case ETACaughtUp:
		return "caught up"
	case ETACatchingUp:
		if ms.OK {
			return HumanDuration(time.Duration(ms.V) * time.Millisecond)
		}
	case ETARewound:
		if ms.OK {
			return "rewound, " + HumanDuration(time.Duration(ms.V)*time.Millisecond)
		}
	}
	return st.String()
}

// FormatTotalLag is the one rule for writing a group's total lag, with num
// for the numbers: the number when it is whole, "≥ N" when only a lower bound
// is known, unknown when nothing is.
func FormatTotalLag(g *Group, num func(int64) string, unknown string) string {
	switch {
	case g.TotalLag != nil:
		return num(*g.TotalLag)
	case g.TotalLagAtLeast != nil: // ≥ 0 too: what was read shows no lag, the rest is unknown
		return "≥ " + num(*g.TotalLagAtLeast)
	}
	return unknown
}
