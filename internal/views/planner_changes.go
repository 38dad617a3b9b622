package views

import (
	"fmt"
	"slices"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// planChanges says what differs between two plans of the same inputs: the
// drift an operator must see before confirming, and what disarms an armed
// plan. Watermark growth alone is not listed: a target that follows
// the watermarks (to-earliest, to-latest, no commit under to-current) is
// re-read right before the commit anyway (plan.Plan.Refresh), and the effects
// it changes show in the table and the totals. Otherwise an operator could
// never confirm such a plan on a topic being written to. A high watermark that
// went back is listed: the topic was truncated or recreated.
func planChanges(was, now *plan.Plan) []string {
	if was == nil || now == nil {
		return nil
	}
	var out []string
	if was.State != now.State {
		out = append(out, fmt.Sprintf("state %s → %s", text.OrDash(was.State), text.OrDash(now.State)))
	}
	old := map[model.TP]plan.Row{}
	for _, r := range was.Rows {
		old[r.TP()] = r
	}
	for _, r := range now.Rows {
		o, ok := old[r.TP()]
		switch {
		case !ok:
			out = append(out, r.TP().String()+" is new in the plan")
		case text.Num(o.Committed) != text.Num(r.Committed):
			out = append(out, fmt.Sprintf("%s committed %s → %s", r.TP(), text.Num(o.Committed), text.Num(r.Committed)))
		case o.High != nil && r.High != nil && *r.High < *o.High:
			out = append(out, fmt.Sprintf("%s high watermark went back %s → %s (truncated or recreated?)",
				r.TP(), text.Num(o.High), text.Num(r.High)))
		case text.Num(o.Target) != text.Num(r.Target) && !(was.TargetFollowsWatermarks(o) && now.TargetFollowsWatermarks(r)):
			out = append(out, fmt.Sprintf("%s target %s → %s", r.TP(), text.Num(o.Target), text.Num(r.Target)))
		}
		delete(old, r.TP())
	}
	var left []string
	for tp := range old {
		left = append(left, tp.String()+" left the plan")
	}
	slices.Sort(left)
	out = append(out, left...)
	switch {
	case len(was.Blockers) != len(now.Blockers):
		out = append(out, fmt.Sprintf("blockers %d → %d", len(was.Blockers), len(now.Blockers)))
	case !slices.Equal(blockerTexts(was.Blockers), blockerTexts(now.Blockers)):
		out = append(out, "blockers changed") // e.g. other live members
	}
	return out
}

// blockerTexts returns the blockers' kinds and messages, sorted.
func blockerTexts(bs []plan.Blocker) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, string(b.Kind)+": "+b.Message)
	}
	slices.Sort(out)
	return out
}
