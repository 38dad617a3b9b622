package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// A rewind to a record retention deletes soon is noted: to-earliest lands on
// the oldest record, the next to go. A target whose record lives past the
// window, one at high (no record), and one whose timestamp is not known are
// not.
func TestTargetExpiryNotes(t *testing.T) {
	now := planNow
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	in := fixture()
	in.TargetTimestamps = map[model.TPO]time.Time{
		{TP: model.TP{Topic: "orders", Partition: 0}, Offset: 0}:  now.Add(-71 * time.Hour), // deleted in 1h
		{TP: model.TP{Topic: "orders", Partition: 1}, Offset: 40}: now.Add(-73 * time.Hour), // overdue
		{TP: model.TP{Topic: "orders", Partition: 2}, Offset: 0}:  now.Add(-10 * time.Hour), // in 2d14h
	}
	p := Make(orders, Strategy{Kind: ToEarliest}, in)
	notes := TargetExpiryNotes(p, map[string]int64{"orders": (72 * time.Hour).Milliseconds()}, now, 24*time.Hour)
	var got []string
	for _, n := range notes {
		got = append(got, n.Message)
	}
	want := []string{
		"orders-0: retention may delete the target record 0 itself in 1h",
		"orders-1: retention may delete the target record 40 itself now (its retention ran out 1h ago)",
	}
	if len(got) != len(want) {
		t.Fatalf("notes %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || notes[i].Kind != NoteTargetExpires {
			t.Errorf("note %d: %q, want it to start %q", i, got[i], want[i])
		}
	}
	if n := TargetExpiryNotes(p, map[string]int64{}, now, 24*time.Hour); len(n) != 0 {
		t.Errorf("a topic that does not delete by time: %+v", n)
	}
}
