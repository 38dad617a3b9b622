package display

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
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

// RestoreText says what a streams member reported of its tasks' changelogs
// (docs/kafka.md#streams-groups): "restore lag 8,800 (0_0 active at 1,200 of 10,000)";
// "" when it reported nothing (its tasks run, or the broker does not send them).
func RestoreText(m *model.Member) string {
	if len(m.TaskOffsets) == 0 {
		return ""
	}
	var tasks []string
	active := false
	for _, t := range m.TaskOffsets {
		active = active || t.Role == model.RoleActive
		at := fmt.Sprintf("%s_%d %s", t.Subtopology, t.Partition, t.Role)
		switch o, e := t.ChangelogOffset, t.ChangelogEndOffset; {
		case o == nil:
			at += ", offset not reported, end " + text.Thousands(*e)
		case e == nil:
			at += " at " + text.Thousands(*o) + ", end not reported"
		default:
			at += " at " + text.Thousands(*o) + " of " + text.Thousands(*e)
		}
		switch {
		case t.RestoreLag == nil && t.ChangelogOffset != nil && t.ChangelogEndOffset != nil:
			at += ", lag unknown"
		case t.RestoreLag != nil && t.Role != model.RoleActive:
			at += ", " + text.Thousands(*t.RestoreLag) + " behind"
		}
		tasks = append(tasks, at)
	}
	lead := "changelogs"
	switch {
	case m.RestoreLag != nil:
		lead = "restore lag " + text.Thousands(*m.RestoreLag)
	case active:
		lead = "restore lag unknown"
	}
	return lead + " (" + strings.Join(tasks, "; ") + ")"
}

// GroupRestoreText sums a streams group's restore up: "8,800 changelog records left to
// restore in 3 active tasks"; "" when no member reported an active task restoring.
func GroupRestoreText(g *model.Group) string {
	var tasks int
	var left int64
	known := true
	for i := range g.Members {
		m := &g.Members[i]
		n := 0
		for _, t := range m.TaskOffsets {
			if t.Role == model.RoleActive {
				n++
			}
		}
		if n == 0 {
			continue
		}
		tasks += n
		if m.RestoreLag == nil {
			known = false
		} else {
			left += *m.RestoreLag
		}
	}
	if tasks == 0 {
		return ""
	}
	in := text.Plural(tasks, "active task")
	if !known {
		return "changelog records left to restore in " + in + ": unknown (an offset not reported yet)"
	}
	return text.Plural(left, "changelog record") + " left to restore in " + in
}
