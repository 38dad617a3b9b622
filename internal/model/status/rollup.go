package status

import (
	"slices"

	"github.com/offsettui/offsettui/internal/model"
)

// Rollup computes a group's counts, worst status and total lag. totalLag sums the
// positive lags of partitions with a commit, so a partition ahead cannot hide a
// backlog elsewhere; it is never a partial sum shown as whole (see PartialLag),
// and null when no partition it consumes has a commit. Partitions nobody consumes (NotConsumed)
// are left out of all three.
func Rollup(g *model.Group) {
	g.Counts, g.WorstStatus = model.Counts{}, model.StatusOK
	var sum int64
	partial := g.Error != nil
	for _, p := range g.Partitions {
		if p.NotConsumed() {
			continue
		}
		g.Counts[p.Status]++
		g.WorstStatus = max(g.WorstStatus, p.Status)
		if p.Lag != nil && *p.Lag > 0 {
			sum += *p.Lag
		}
		// A share partition with a start offset but no lag from the broker (Kafka 4.1,
		// or a lag of -1) has a backlog nobody can name: the total is a lower bound.
		if p.Lag == nil && (p.Status == model.StatusUnknown || p.StartOffset() != nil) {
			partial = true
		}
	}
	if g.Error != nil {
		g.WorstStatus = model.StatusUnknown
	}
	g.TotalLag, g.TotalLagAtLeast = model.Ptr(sum), nil
	switch {
	case partial:
		PartialLag(g)
	case len(g.Partitions) > 0 && !slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Lag != nil && !p.NotConsumed() }):
		// No partition it consumes has a commit: there is no lag to sum, and 0
		// would say the group is caught up.
		g.TotalLag = nil
	}
}

// PartialLag marks the group's total lag as a lower bound: what could be read is
// kept in TotalLagAtLeast and TotalLag becomes null. A group of which nothing
// could be read (its offsets, or every partition) has neither.
func PartialLag(g *model.Group) {
	read := slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool {
		return p.Lag != nil || p.Status != model.StatusUnknown
	})
	if g.TotalLag != nil && g.Error == nil && read {
		g.TotalLagAtLeast = g.TotalLag
	}
	g.TotalLag = nil
}
