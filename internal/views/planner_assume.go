package views

// The auto.offset.reset a plan's counts assume, switched with a (docs/tui.md).

import (
	"slices"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

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

// assumptionLines is how many lines the assumption's line may wrap to: two, but one (cut)
// on a compact screen, where every line is a row of the plan.
func (s *plannerScreen) assumptionLines() int {
	if s.compact() {
		return 1
	}
	return 2
}
