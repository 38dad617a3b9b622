package model

import "cmp"

// HasProblem reports whether a group needs attention: an error, a partition that is not
// ok, commits the broker may delete within the risk window, an evaluation of warn or
// worse, or a predicted loss. The TUI's problem filter and the report's "problems" part
// both ask it, so they cannot disagree.
func (g *Group) HasProblem() bool {
	if g.Error != nil || g.WorstStatus != StatusOK || g.CommitsExpiring() {
		return true
	}
	return g.Time != nil && (g.Time.Evaluation.Problem() || g.Time.Loss != nil)
}

// PredictedLoss is the group's predicted loss (docs/timeaxis.md), or nil.
func (g *Group) PredictedLoss() *GroupLoss {
	if g.Time == nil {
		return nil
	}
	return g.Time.Loss
}

// CompareLoss orders groups that will lose data first, soonest first.
func CompareLoss(a, b *Group) int {
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
