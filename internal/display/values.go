package display

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// RateText renders an optional rate with its unit, "-" when absent.
func RateText(o model.Opt[float64]) string {
	if !o.OK {
		return "-"
	}
	return text.FormatRate(o.V)
}

// TrendText renders a lag rate with its sign ("+10/s", "-30/s", "0/s"), "-"
// when absent.
func TrendText(o model.Opt[float64]) string {
	if !o.OK {
		return "-"
	}
	if o.V > 0 {
		return "+" + text.FormatRate(o.V)
	}
	return text.FormatRate(o.V)
}

// ETAText renders an ETA: "caught up", "18s", "never", "stalled", "stopped",
// "rewound", "rewound, 3m", "-".
func ETAText(st model.ETAState, ms model.Opt[int64]) string {
	switch st {
	case model.ETANone:
		return "-"
	case model.ETACaughtUp:
		return "caught up"
	case model.ETACatchingUp:
		if ms.OK {
			return text.HumanDuration(time.Duration(ms.V) * time.Millisecond)
		}
	case model.ETARewound:
		if ms.OK {
			return "rewound, " + text.HumanDuration(time.Duration(ms.V)*time.Millisecond)
		}
	}
	return st.String()
}

// FormatTotalLag is the one rule for writing a group's total lag, with num
// for the numbers: the number when it is whole, "≥ N" when only a lower bound
// is known, "-" when the group has partitions and no commit on any (it has no
// lag to sum; never 0) or does not exist (Gone), unknown when nothing is known.
func FormatTotalLag(g *model.Group, num func(int64) string, unknown string) string {
	switch {
	case g.Gone():
		return "-"
	case g.TotalLag != nil:
		return num(*g.TotalLag)
	case g.TotalLagAtLeast != nil: // ≥ 0 too: what was read shows no lag, the rest is unknown
		return "≥ " + num(*g.TotalLagAtLeast)
	case g.NoCommit():
		return "-"
	}
	return unknown
}

// ExpiresCell is an expires-in cell: the time left, "now" once the record's
// retention has run out (it goes at the broker's next retention check), "-"
// when not known.
func ExpiresCell(ms *int64) string {
	if ms != nil && *ms <= 0 {
		return "now"
	}
	return text.HumanMs(ms)
}

// ExpiresPhrase says when retention may delete a record: "in 9m54s", or "now
// (its retention ran out 8s ago)"; never a negative duration.
func ExpiresPhrase(ms int64) string {
	if ms > 0 {
		return "in " + text.HumanDuration(time.Duration(ms)*time.Millisecond)
	}
	if ms == 0 {
		return "now"
	}
	return "now (its retention ran out " + text.HumanDuration(time.Duration(-ms)*time.Millisecond) + " ago)"
}
