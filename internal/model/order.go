package model

import (
	"slices"
	"strings"
)

// CompareTP orders by topic, then partition.
func CompareTP(a, b TP) int {
	if a.Topic != b.Topic { // equal names, most often the same string, compare at once
		return strings.Compare(a.Topic, b.Topic)
	}
	return int(a.Partition) - int(b.Partition)
}

// SortedTPs returns m's partitions in CompareTP's order.
func SortedTPs[V any](m map[TP]V) []TP {
	out := make([]TP, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, CompareTP)
	return out
}

// LagSortKey is the total lag for ordering groups: the lower bound when the total
// is partial, -1 when nothing is known, so a partial total never outranks or
// hides behind a whole one by accident of its missing part. A group without a
// commit has no lag: -1, known (after every lag).
func (g *Group) LagSortKey() (int64, bool) {
	switch {
	case g.TotalLag != nil:
		return *g.TotalLag, true
	case g.TotalLagAtLeast != nil:
		return *g.TotalLagAtLeast, false
	}
	return -1, g.NoCommit()
}
