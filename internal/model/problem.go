package model

import "cmp"

// HasProblem reports whether a group needs attention (Urgency above none): something
// at risk, lost, missing, ahead or unknown, an error, or a live consumer not keeping
// up. An idle group whose partitions are all ok is no problem, whatever its lag or
// evaluation. The TUI's problem filter and title count, the report's "problems" part
// and describe's order all ask it, so they cannot disagree.
func (g *Group) HasProblem() bool { return g.Urgency() > UrgencyNone }

// PredictedLoss is the group's predicted loss (docs/timeaxis.md), or nil.
func (g *Group) PredictedLoss() *GroupLoss {
	if g.Time == nil {
		return nil
	}
	return g.Time.Loss
}

// CompareLoss orders groups losing records now first, then those that will lose data,
// soonest first.
func CompareLoss(a, b *Group) int {
	if a.LosingNow != b.LosingNow {
		if a.LosingNow {
			return -1
		}
		return 1
	}
	la, lb := a.PredictedLoss(), b.PredictedLoss()
	switch {
	case la == nil && lb == nil:
		return 0
	case la == nil:
		return 1
	case lb == nil:
		return -1
	}
	return cmp.Compare(la.InMs, lb.InMs)
}
