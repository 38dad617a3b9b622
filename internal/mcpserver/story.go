package mcpserver

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/text"
)

// Story is a group in one line, what matters first: what it loses or may lose, what cannot
// be told, then its state and lag. "EXPIRED 1 (18 records deleted unread) · Empty, 0 members
// · lag 28". list_groups gives one per group.
func Story(g *model.Group, takenAt time.Time) string {
	var parts []string
	if g.Error != nil {
		parts = append(parts, "cannot be read whole: "+g.Error.Error())
	}
	var counts []string
	for _, st := range []model.Status{model.StatusExpired, model.StatusAtRisk, model.StatusUnknown, model.StatusAhead, model.StatusMissing} {
		if n := g.Counts[st]; n > 0 {
			c := fmt.Sprintf("%s %d", st.Badge(), n)
			if st == model.StatusExpired {
				c += " (" + text.Plural(lost(g), "record") + " deleted unread)"
			}
			counts = append(counts, c)
		}
	}
	if len(counts) > 0 {
		parts = append(parts, strings.Join(counts, ", "))
	} else if g.Error == nil && len(g.Partitions) > 0 {
		parts = append(parts, "OK")
	}
	if t := g.Time; t != nil && t.Loss != nil {
		parts = append(parts, "LOSS "+timeaxis.LossHeadline(*t.Loss))
	}
	if g.CommitsExpiring() {
		parts = append(parts, "COMMITS EXPIRING "+display.CommitExpiryText(g, takenAt))
	}
	if t := g.Time; t != nil && t.Evaluation.Problem() {
		parts = append(parts, strings.ToUpper(t.Evaluation.String()))
	}
	parts = append(parts, display.StateText(g)+", "+display.MembersText(g))
	switch {
	case g.TotalLag != nil:
		parts = append(parts, "lag "+text.Thousands(*g.TotalLag))
	case g.TotalLagAtLeast != nil:
		parts = append(parts, "lag at least "+text.Thousands(*g.TotalLagAtLeast))
	}
	return strings.Join(parts, " · ")
}

// lost sums the records the group's expired partitions lost.
func lost(g *model.Group) int64 {
	var n int64
	for i := range g.Partitions {
		if p := &g.Partitions[i]; p.Status == model.StatusExpired && !p.NotConsumed() {
			n += model.Deref(p.Lost())
		}
	}
	return n
}
