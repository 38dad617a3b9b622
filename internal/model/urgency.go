package model

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Urgency is how soon a group needs the on-call engineer: the one order the TUI's
// default sort, its problem filter and title count, the Markdown report and describe
// all use (docs/tui.md, "The urgency order"). Higher is more urgent.
type Urgency int

// Urgencies, least urgent first.
const (
	// UrgencyNone: nothing to act on. An idle group (no members) whose partitions are
	// all ok is here whatever its lag: nobody is consuming, and nothing is being lost.
	UrgencyNone Urgency = iota
	// UrgencyOther: something cannot be told (an error, an unknown position) or is
	// wrong without costing data now (ahead, missing), or a consumer of a compacted topic
	// may have missed deletes (compaction.go).
	UrgencyOther
	// UrgencyBehind: a live consumer (the group has members) is stalled, rewound or
	// not keeping up (evaluation warn or worse).
	UrgencyBehind
	// UrgencyLost: records were deleted before the group read them (expired): the
	// decision is where its consumers restart.
	UrgencyLost
	// UrgencySave: retention may delete records the group has not read within the
	// risk window, and acting now can still save them: an at-risk partition (a
	// predicted loss within the window has one; a loss predicted further out is
	// no emergency, and ranks as the rest of the group does); or the broker may
	// delete the group's commits within the window (internal/model/expiry), after which
	// its consumers restart by auto.offset.reset.
	UrgencySave
	// UrgencyLosing: records the group has not read are being deleted now (losing.go):
	// a live consumer behind the log start, or a lost count that grew between the last
	// two snapshots.
	UrgencyLosing
)

// Urgency returns the group's urgency.
func (g *Group) Urgency() Urgency {
	switch {
	case g.Gone():
		return UrgencyNone // it does not exist: nothing to act on
	case g.LosingNow:
		return UrgencyLosing
	case g.Counts[StatusAtRisk] > 0 || g.CommitsExpiring():
		return UrgencySave
	case g.Counts[StatusExpired] > 0:
		return UrgencyLost
	case len(g.Members) > 0 && g.Time != nil && g.Time.Evaluation.Problem() && g.Time.Evaluation != EvalUnknown:
		return UrgencyBehind
	case g.Error != nil || g.WorstStatus != StatusOK || (g.Time != nil && g.Time.Evaluation == EvalUnknown) || g.MayMissDeletes() > 0:
		return UrgencyOther
	}
	return UrgencyNone
}

// urgencyKey is what ordering a group by urgency needs, computed once per group.
type urgencyKey struct {
	tier Urgency
	// soonest is when the first record or commit may be lost (ms): the predicted loss,
	// the earliest expiry of an at-risk commit, or the first commit the broker may
	// delete; MaxInt64 when not known.
	soonest int64
	lost    int64 // records already lost (expired)
	// lostRate is how fast the lost count grows (records per second), 0 when not known.
	lostRate float64
	eval     Evaluation
	status   Status
	lag      int64
	whole    bool
}

func keyOf(g *Group) urgencyKey {
	k := urgencyKey{tier: g.Urgency(), soonest: math.MaxInt64, status: g.WorstStatus}
	k.lag, k.whole = g.LagSortKey()
	if g.Time != nil {
		k.eval = g.Time.Evaluation
	}
	if g.LostRatePerSec.OK {
		k.lostRate = g.LostRatePerSec.V
	}
	k.lost, _ = g.LostRecords()
	if l := g.PredictedLoss(); l != nil {
		k.soonest = l.InMs
	}
	if e := g.CommitsExpiry; e != nil && e.ExpiringInMs != nil {
		k.soonest = min(k.soonest, *e.ExpiringInMs)
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.NotConsumed() { // shown, not the group's: no member subscribes to its topic
			continue
		}
		if p.Status == StatusAtRisk && p.ExpiresInMs != nil {
			k.soonest = min(k.soonest, *p.ExpiresInMs)
		}
	}
	return k
}

// compareKeys orders the more urgent first: by tier; within losing now, the fastest
// growing loss first, then the most lost; within saving, soonest first; within lost, most
// lost first; within behind, the worst evaluation first; then the worst status, then a
// total that is not whole (what is not known may be the worst), then the largest lag.
func compareKeys(a, b *urgencyKey) int {
	if c := cmp.Compare(b.tier, a.tier); c != 0 {
		return c
	}
	switch a.tier {
	case UrgencyLosing:
		if c := cmp.Compare(b.lostRate, a.lostRate); c != 0 {
			return c
		}
		if c := cmp.Compare(b.lost, a.lost); c != 0 {
			return c
		}
	case UrgencySave:
		if c := cmp.Compare(a.soonest, b.soonest); c != 0 {
			return c
		}
	case UrgencyLost:
		if c := cmp.Compare(b.lost, a.lost); c != 0 {
			return c
		}
	case UrgencyBehind:
		if c := cmp.Compare(b.eval, a.eval); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(b.status, a.status); c != 0 {
		return c
	}
	if a.whole != b.whole {
		if !a.whole {
			return -1
		}
		return 1
	}
	return cmp.Compare(b.lag, a.lag)
}

// SortGroupsByUrgency orders groups most urgent first, then by name. The
// order is applied in place, cycle by cycle: no second copy of the groups.
func SortGroupsByUrgency(gs []Group) {
	order := UrgencyOrder(gs) // position i gets the group at order[i]
	placed := make([]bool, len(gs))
	for i := range gs {
		if placed[i] || order[i] == i {
			continue
		}
		first := gs[i]
		for j := i; ; {
			k := order[j]
			placed[j] = true
			if k == i {
				gs[j] = first
				break
			}
			gs[j], j = gs[k], k
		}
	}
}

// UrgencyOrder returns the indexes of gs, most urgent first, then by name. Each
// group's key is computed once, so 10,000 groups sort as fast as by one number.
func UrgencyOrder(gs []Group) []int {
	keys := make([]urgencyKey, len(gs))
	order := make([]int, len(gs))
	for i := range gs {
		keys[i], order[i] = keyOf(&gs[i]), i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := compareKeys(&keys[a], &keys[b]); c != 0 {
			return c
		}
		return strings.Compare(gs[a].Group, gs[b].Group)
	})
	return order
}

// NoCommit reports whether the group has partitions and a commit on none of
// those it consumes, all read: it has no lag (a null total, never 0 and never
// unknown), as status.Rollup counts it.
func (g *Group) NoCommit() bool {
	if g.Error != nil || len(g.Partitions) == 0 {
		return false
	}
	for i := range g.Partitions {
		if p := &g.Partitions[i]; !p.NotConsumed() && (p.Position() != nil || p.Status == StatusUnknown) {
			return false
		}
	}
	return true
}
