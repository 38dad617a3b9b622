package plan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMovesForwardNote: --by-duration that lands past some commits moves those partitions
// forward: one note for the plan naming them and the records skipped, in docs/json.md's
// form; a rewind of every partition has none.
func TestMovesForwardNote(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 1}}}}
	p := Make(orders, mustStrategy(t, ToDatetime, "2026-11-28T00:00:00.000"), fixture())
	n := p.MovesForward()
	// orders-0: committed 50 → 30 (back); orders-1: committed 10, low 40 → 100 (forward, skips 60)
	if n == nil || len(n.Partitions) != 1 || n.Partitions[0].Topic != "orders" || n.Partitions[0].Partition != 1 || *n.Skipped != 60 {
		t.Fatalf("note %+v", n)
	}
	b, _ := json.Marshal(p.Notes[0])
	if want := `{"kind":"moves-forward","message":"this plan moves 1 of 2 partitions forward (orders-1): their consumers will skip 60 records they have not read","topic":null,"partition":null,"partitions":[{"topic":"orders","partition":1}],"skipped":60}`; string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
	if back := Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, mustStrategy(t, ShiftBy, "-5"), fixture()); back.MovesForward() != nil {
		t.Errorf("a rewind notes %+v", back.Notes)
	}
	if b, _ := json.Marshal(Note{Kind: NoteNewGroup, Message: "m"}); strings.Contains(string(b), "partitions") || strings.Contains(string(b), "skipped") {
		t.Errorf("another note carries moves-forward's fields: %s", b)
	}
}

// TestNothingToChange: --to-current of committed partitions, and a shift clamped back onto
// the commit, change nothing and are blocked nothing-to-reset; a first commit, or a delete,
// is a change.
func TestNothingToChange(t *testing.T) {
	committed := Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 1}}}}
	in := fixture()
	in.Committed[tp("orders", 1)] = 40 // at low: a shift back is clamped onto it
	for _, c := range []struct {
		name  string
		scope Scope
		st    Strategy
		want  bool
	}{
		{"to-current", committed, mustStrategy(t, ToCurrent, ""), true},
		{"shift clamped away", Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{1}}}}, mustStrategy(t, ShiftBy, "-5"), true},
		{"to-current with a first commit", Scope{Topics: []TopicScope{{Topic: "orders"}}}, mustStrategy(t, ToCurrent, ""), false},
		{"delete-offsets", committed, DeleteOffsetsStrategy(), false},
	} {
		p := Make(c.scope, c.st, in)
		blocked := false
		for _, b := range p.Blockers {
			blocked = blocked || (b.Kind == BlockNothingToReset && strings.HasPrefix(b.Message, "nothing to change"))
		}
		if blocked != c.want || (c.want && p.Executable()) {
			t.Errorf("%s: nothing-to-change %v, want %v (blockers %+v)", c.name, blocked, c.want, p.Blockers)
		}
	}
}
