package views

import (
	"slices"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// withCommitter adds to p what the time axis saw of a client committing for the group
// from outside it (the Resetter saw the commit history), and the operator's override (!).
func (s *plannerScreen) withCommitter(p plan.Plan) plan.Plan {
	var seen *model.Committer
	if s.g != nil {
		seen = s.g.Committer
	}
	return p.WithCommitter(seen, s.allowCommitter)
}

// toggleCommitterGuard turns the operator's override of the committer guard on or off, for
// a plan that saw a client committing for the group from outside it.
func (s *plannerScreen) toggleCommitterGuard() {
	if s.plan == nil || s.plan.Committer == nil {
		s.flash = "no client outside the group was seen committing for it: nothing to override"
		return
	}
	s.allowCommitter = !s.allowCommitter
	p := s.withCommitter(*s.plan)
	s.plan = &p
	if s.allowCommitter {
		s.flash = "committer guard OFF for this plan: its next commit may overwrite the write (the watch after it says so); ! turns it back on"
	} else {
		s.flash = "committer guard on again"
	}
}

// assumeResets is the order a switches the assumption in.
var assumeResets = []string{model.ResetLatest, model.ResetEarliest, model.ResetNone}

// withAssumption counts p under the auto.offset.reset the operator chose (a), or leaves it
// as made (the command's --assume-reset) until one is chosen.
func (s *plannerScreen) withAssumption(p plan.Plan) plan.Plan {
	if s.assume == "" || s.assume == p.AssumeReset {
		return p
	}
	return p.WithAssumeReset(s.assume)
}

// switchAssumption counts the plan under the next auto.offset.reset; what it writes does
// not change.
func (s *plannerScreen) switchAssumption() {
	if s.plan == nil {
		return
	}
	i := slices.Index(assumeResets, s.plan.AssumeReset)
	s.assume = assumeResets[(i+1)%len(assumeResets)]
	p := s.withAssumption(*s.plan)
	s.plan = &p
	s.flash = "counting under auto.offset.reset=" + s.assume + ": where a consumer without a commit starts (a switches)"
}
