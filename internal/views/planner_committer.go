package views

import (
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
