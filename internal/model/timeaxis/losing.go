package timeaxis

import (
	"slices"

	"github.com/offsettui/offsettui/internal/model"
)

// Losing now (docs/timeaxis.md#losing-now): each partition's lost count (low − committed)
// over its snapshots, whether it grew lately, and how fast it grows.

// losingWindow is how far back a partition's lost count is compared: it grew when it is
// above what it was at some sample this recent. Kafka moves a log start in steps, once per
// log.retention.check.interval.ms (5 minutes by default); comparing with the previous sample
// alone would say "losing" and "not losing" by turns between them.
const losingWindow = 5 * 60 * 1000 // ms

// lostSample is what the history keeps of p's lost count: Unread when it could not be read
// (the group or the partition unreadable), else its lost, 0 for none. Whether the group
// consumes the partition is asked when the trend is, of the newest snapshot: a partition
// that a rebalance hides for one snapshot keeps its count.
func lostSample(p *model.GroupPartition, g *model.Group) int64 {
	switch {
	case g.Error != nil || p.Status == model.StatusUnknown:
		return Unread
	case p.Lost() != nil:
		return *p.Lost()
	}
	return 0
}

// writeLost writes v into slot of a lost series (dropping the oldest first when drop is
// set) as writeSample does; a nil series stands for zeros and is made only for a value that
// is not 0, its earlier samples set to before (0 for a series kept until now, Unread for a
// partition new to the history).
func writeLost(lost []int64, v, before int64, samples, slot int, drop bool) []int64 {
	if lost == nil {
		if v == 0 {
			return nil
		}
		lost = make([]int64, samples-1, samples)
		for k := range lost {
			lost[k] = before
		}
		drop = false
	}
	if drop {
		copy(lost, lost[1:])
	}
	lost = lost[:min(slot, samples-1)]
	return append(lost, v)
}

// partLostTrend says whether a partition's lost count grew within losingWindow, and how
// fast it grows: from the sample before it began to rise, over the samples since it last
// fell, records per second (0 when it did not rise); ok is false when the newest count could
// not be read.
func partLostTrend(at, lost []int64) (grew bool, rate float64, ok bool) {
	n := len(lost)
	if n == 0 || n != len(at) {
		return false, 0, true // no lost in any sample kept
	}
	last := lost[n-1]
	if last < 0 {
		return false, 0, false
	}
	for k := n - 2; k >= 0 && at[n-1]-at[k] <= losingWindow; k-- {
		if lost[k] >= 0 && lost[k] < last {
			grew = true
			break
		}
	}
	from := n - 1
	for from > 0 && lost[from-1] >= 0 && lost[from-1] <= lost[from] {
		from--
	}
	for from < n-1 && lost[from] == lost[from+1] {
		from++ // the flat samples before the rise began do not slow it
	}
	if secs := float64(at[n-1]-at[from]) / 1000; secs > 0 {
		rate = float64(last-lost[from]) / secs
	}
	return grew, rate, true
}

// annotateLosing sets the group's LosingNow and LostRatePerSec from the lost counts of the
// partitions it consumes now: losing now while a live consumer is behind the log start or
// a count grew lately; the rate is their sum, unknown when one of them could not be read.
func annotateLosing(g *model.Group, gh *groupHistory) {
	grew, sum, known := false, 0.0, g.Error == nil
	for pi := range g.Partitions {
		p := &g.Partitions[pi]
		if p.NotConsumed() {
			continue
		}
		i, ok := gh.partIndex(pi, p.TP())
		if !ok {
			continue
		}
		pg, rate, pok := partLostTrend(gh.at, gh.parts[i].lost)
		grew, sum, known = grew || pg, sum+rate, known && pok
	}
	g.LostRatePerSec = model.Opt[float64]{}
	if known {
		g.LostRatePerSec = model.Some(roundRate(sum))
	}
	g.LosingNow = g.LiveBehindLogStart() || grew
}

// partIndex finds the history of g's partition pi (tp): where Add keeps it, in the
// snapshot's order, else by its name.
func (gh *groupHistory) partIndex(pi int, tp model.TP) (int, bool) {
	if pi < len(gh.parts) && gh.parts[pi].tp == tp {
		return pi, true
	}
	return slices.BinarySearchFunc(gh.parts, tp, func(ph partHistory, t model.TP) int { return model.CompareTP(ph.tp, t) })
}
