package display

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// TestNoteLinesCollapseATopicsExpiringTargets: a topic's run of target-expires notes is one
// counted line with the soonest time; a lone one keeps its message; another topic, another
// kind and the moves-forward note (its own banner) are not folded in.
func TestNoteLinesCollapseATopicsExpiringTargets(t *testing.T) {
	expires := func(topic string, p int32, inMs int64) plan.Note {
		return plan.Note{Kind: plan.NoteTargetExpires, Message: topic + " alone", Topic: model.Ptr(topic), Partition: model.Ptr(p), InMs: model.Ptr(inMs)}
	}
	notes := []plan.Note{
		expires("orders", 0, 7_200_000), expires("orders", 1, 3_600_000), expires("orders", 2, 5_000_000), expires("orders", 4, 9_000_000),
		{Kind: plan.NoteMovesForward, Message: "forward"},
		expires("audit", 3, 60_000),
		{Kind: plan.NoteNewGroup, Message: "creates the group"},
	}
	got := NoteLines(notes)
	if len(got) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(got), got)
	}
	if !strings.HasPrefix(got[0].Text, "orders-0..2,4 (4 partitions): ") || !strings.Contains(got[0].Text, "the first in 1h") {
		t.Errorf("collapsed line %q", got[0].Text)
	}
	if got[1].Text != "audit alone" || got[2].Text != "creates the group" {
		t.Errorf("lines %+v", got)
	}
}

func TestPartitionRanges(t *testing.T) {
	for in, want := range map[string][]int32{"0..4": {0, 1, 2, 3, 4}, "0,2,5..7": {0, 2, 5, 6, 7}, "3,4": {3, 4}, "9": {9}, "": nil} {
		if got := partitionRanges(want); got != in {
			t.Errorf("partitionRanges(%v) = %q, want %q", want, got, in)
		}
	}
}
