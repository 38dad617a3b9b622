package model

import (
	"slices"
	"strings"
)

// CompareTP orders by topic, then partition.
func CompareTP(a, b TP) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return int(a.Partition) - int(b.Partition)
}

// LagSortKey is the total lag for ordering groups: the lower bound when the total
// is partial, -1 when nothing is known, so a partial total never outranks or
// hides behind a whole one by accident of its missing part.
func (g *Group) LagSortKey() (int64, bool) {
	switch {
	case g.TotalLag != nil:
		return *g.TotalLag, true
	case g.TotalLagAtLeast != nil:
		return *g.TotalLagAtLeast, false
	}
	return -1, false
}

// SortGroupsWorstFirst orders groups by worst status, then total lag, then name.
func SortGroupsWorstFirst(gs []Group) {
	slices.SortStableFunc(gs, func(a, b Group) int {
		if a.WorstStatus != b.WorstStatus {
			return int(b.WorstStatus) - int(a.WorstStatus)
		}
		// Groups whose total is not whole come first within a status: what is
		// not known may be the worst.
		la, wa := a.LagSortKey()
		lb, wb := b.LagSortKey()
		if wa != wb {
			if !wa {
				return -1
			}
			return 1
		}
		if la != lb {
			if la > lb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Group, b.Group)
	})
}
