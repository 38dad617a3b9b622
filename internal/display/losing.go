package display

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// LosingText says what a group losing records now is losing, after its label (LOSING NOW
// on screens, "Losing now:" in the report): "57 records deleted unread, +2.1/s; needs ≥
// 3.0/s to stop". The rate needed is the log start's: what is consumed on the partitions it
// loses on plus how fast the lost count grows. "" when the group is not losing now.
func LosingText(g *model.Group) string {
	if !g.LosingNow {
		return ""
	}
	lost, _ := g.LostRecords()
	s := text.Plural(lost, "record") + " deleted unread"
	r := g.LostRatePerSec
	if !r.OK || r.V <= 0 {
		if g.LiveBehindLogStart() {
			s += " (a live consumer is behind the log start)"
		}
		return s
	}
	s += ", +" + text.FormatRate(r.V)
	consume := 0.0
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if !g.LosingNowPartition(p) {
			continue
		}
		if p.Time == nil || !p.Time.ConsumeRate.OK {
			return s
		}
		consume += p.Time.ConsumeRate.V
	}
	return s + fmt.Sprintf("; needs ≥ %s to stop", text.FormatRateUp(consume+r.V))
}
