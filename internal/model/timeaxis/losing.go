package timeaxis

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Losing now (docs/timeaxis.md#losing-now): the group's lost count over its snapshots, how
// fast it grows, and the headline that says so.

// lostSample is the group's lost count for the history, Unread when it could not be read.
func lostSample(g *model.Group) int64 {
	if n, ok := g.LostRecords(); ok {
		return n
	}
	return Unread
}

// lostTrend says whether the group's lost count grew between its last two samples, and how
// fast it changes: over the samples since it last fell (at least the last two), records per
// second. The rate is not set when a count in that run could not be read.
func (gh *groupHistory) lostTrend() (grew bool, rate model.Opt[float64]) {
	n := len(gh.lost)
	if n < 2 || len(gh.at) != n {
		return false, rate
	}
	last, prev := gh.lost[n-1], gh.lost[n-2]
	if last < 0 || prev < 0 {
		return false, rate
	}
	from := n - 2
	for from > 0 && gh.lost[from-1] >= 0 && gh.lost[from-1] <= gh.lost[from] && last >= prev {
		from--
	}
	if secs := float64(gh.at[n-1]-gh.at[from]) / 1000; secs > 0 {
		rate = model.Some(roundRate(float64(last-gh.lost[from]) / secs))
	}
	return last > prev, rate
}

// annotateLosing sets the group's LosingNow and LostRatePerSec from its history.
func annotateLosing(g *model.Group, gh *groupHistory) {
	grew, rate := gh.lostTrend()
	g.LostRatePerSec = rate
	g.LosingNow = g.LiveBehindLogStart() || grew
}

// LosingHeadline says a group that is losing records now in one line: "LOSING NOW: 57
// records deleted unread, +2.1/s; needs ≥ 3.0/s to stop". The rate needed is the log
// start's: the consume rate of the partitions it loses on plus the lost count's growth.
// "" when the group is not losing now.
func LosingHeadline(g *model.Group) string {
	if !g.LosingNow {
		return ""
	}
	lost, _ := g.LostRecords()
	s := fmt.Sprintf("LOSING NOW: %s deleted unread", text.Plural(lost, "record"))
	r := g.LostRatePerSec
	if !r.OK || r.V <= 0 {
		if g.LiveBehindLogStart() {
			s += " (a live consumer is behind the log start)"
		}
		return s
	}
	s += ", +" + text.FormatRate(r.V)
	consume, known := 0.0, true
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if !g.LosingNowPartition(p) {
			continue
		}
		if p.Time == nil || !p.Time.ConsumeRate.OK {
			known = false
			break
		}
		consume += p.Time.ConsumeRate.V
	}
	if known {
		s += "; needs ≥ " + formatRateUp(consume+r.V) + " to stop"
	}
	return s
}
