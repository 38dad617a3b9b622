package display

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// Noun names a group of the type in headings: "Share group".
func Noun(typ string) string {
	switch typ {
	case model.TypeClassic, model.TypeConsumer:
		return "Consumer group"
	case model.TypeShare:
		return "Share group"
	case model.TypeStreams:
		return "Streams group"
	}
	return "Group"
}

// PositionColumn is the header of a group's position column, as Kafka's tools name it:
// START-OFFSET for share groups (kafka-share-groups), CURRENT-OFFSET for the others.
func PositionColumn(typ string) string {
	if typ == model.TypeShare {
		return "START-OFFSET"
	}
	return "CURRENT-OFFSET"
}

// MembersText renders the member count, or says the members are unknown when the group
// could not be described (Members is nil then): never "0 members" for a group that may
// have some.
func MembersText(g *model.Group) string {
	switch n := len(g.Members); {
	case g.Members == nil:
		return "members unknown"
	case n == 1:
		return "1 member"
	default:
		return fmt.Sprintf("%d members", n)
	}
}

// StateText renders the state, marking one the type does not have (a newer broker's) so
// that it is never read as a state offsettui understands.
func StateText(g *model.Group) string {
	switch {
	case g.State == "":
		return "state unknown"
	case g.Type == model.TypeUnknown, model.KnownState(g.Type, g.State):
		return g.State
	}
	return g.State + " (a state offsettui does not know)"
}

// TasksText renders a streams member's tasks as Kafka's tool does: "ACTIVE: 0:[0,1];".
func TasksText(t *model.Tasks) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	for _, k := range []struct {
		name string
		ids  []model.TaskIDs
	}{{"ACTIVE", t.Active}, {"STANDBY", t.Standby}, {"WARMUP", t.Warmup}} {
		if len(k.ids) == 0 {
			continue
		}
		b.WriteString(k.name + ":")
		for _, id := range k.ids {
			ps := make([]string, len(id.Partitions))
			for i, p := range id.Partitions {
				ps[i] = fmt.Sprint(p)
			}
			fmt.Fprintf(&b, " %s:[%s];", id.Subtopology, strings.Join(ps, ","))
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}
