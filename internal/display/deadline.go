package display

import (
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// LossIn is a partition's LOSS-IN: "now" where its group is losing it now
// (model.Group.LosingNowPartition), the time to loss where rates were measured
// (model.GroupPartition.Deadline), "-" otherwise.
func LossIn(g *model.Group, p *model.GroupPartition) string {
	if g.LosingNowPartition(p) {
		return "now"
	}
	if ms, basis := p.Deadline(); basis == model.DeadlineRates {
		return LossInMs(ms)
	}
	return "-"
}

// LossInMs renders a time to loss: "now" when it has come.
func LossInMs(ms int64) string {
	if ms <= 0 {
		return "now"
	}
	return text.HumanMs(&ms)
}
