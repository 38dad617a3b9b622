package display

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// NoteLine is one line of a plan's notes as the table and the TUI show them: a note, or the
// target-expires notes of one topic's partitions collapsed into one counted line (JSON keeps
// one per partition).
type NoteLine struct {
	Kind plan.NoteKind
	Text string
}

// NoteLines are a plan's notes as lines: each topic's target-expires notes become one line,
// "orders-0..4 (5 partitions): retention may delete the target records themselves, the first
// in 1h57m: …"; the moves-forward note is left out (the banner under the totals says it,
// MovesForwardText); the others stay as they are, in their order.
func NoteLines(notes []plan.Note) []NoteLine {
	var out []NoteLine
	for i := 0; i < len(notes); {
		n := notes[i]
		j := i + 1
		if n.Kind == plan.NoteMovesForward {
			i = j
			continue
		}
		for n.Kind == plan.NoteTargetExpires && n.Topic != nil && j < len(notes) && notes[j].Kind == n.Kind &&
			notes[j].Topic != nil && *notes[j].Topic == *n.Topic {
			j++
		}
		if j-i == 1 {
			out = append(out, NoteLine{n.Kind, n.Message})
		} else {
			out = append(out, NoteLine{n.Kind, expiringTargets(notes[i:j])})
		}
		i = j
	}
	return out
}

// expiringTargets collapses one topic's target-expires notes into one line.
func expiringTargets(ns []plan.Note) string {
	var ps []int32
	soonest := time.Duration(1<<63 - 1)
	for _, n := range ns {
		ps = append(ps, *n.Partition)
		if n.InMs != nil {
			soonest = min(soonest, time.Duration(*n.InMs)*time.Millisecond)
		}
	}
	slices.Sort(ps)
	when := "soon"
	switch {
	case soonest <= 0:
		when = "now"
	case soonest < 1<<62:
		when = "in " + text.HumanDuration(soonest.Truncate(time.Second))
	}
	return fmt.Sprintf("%s-%s (%s): retention may delete the target records themselves, the first %s: unless the group reads them before, "+
		"they are expired again and its consumers jump to auto.offset.reset", *ns[0].Topic, partitionRanges(ps), text.Plural(len(ps), "partition"), when)
}

// partitionRanges writes sorted partitions as runs: "0..4", "0,2,5..7".
func partitionRanges(ps []int32) string {
	var parts []string
	for i := 0; i < len(ps); {
		j := i
		for j+1 < len(ps) && ps[j+1] == ps[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprint(ps[i]))
		case j == i+1:
			parts = append(parts, fmt.Sprint(ps[i]), fmt.Sprint(ps[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d..%d", ps[i], ps[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// MovesForwardText is the banner of a plan that moves partitions forward: "MOVES FORWARD:
// this plan moves 4 of 5 partitions forward (…): their consumers will skip 246 records they
// have not read"; "" for one that does not.
func MovesForwardText(p plan.Plan) string {
	if n := p.MovesForward(); n != nil {
		return "MOVES FORWARD: " + n.Message
	}
	return ""
}
