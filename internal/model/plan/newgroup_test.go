package plan

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// A plan for a group no broker lists is blocked, unless it is meant to create
// the group: then it is not blocked, and a note says it creates it. The guard
// is the same function a planner of another kind (reset --from-group) calls.
func TestNewGroupGuard(t *testing.T) {
	gone := func() Input {
		in := fixture()
		in.State, in.GroupExists, in.Committed = "Dead", false, map[model.TP]int64{}
		return in
	}
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	earliest := Strategy{Kind: ToEarliest}
	for _, c := range []struct {
		name    string
		intent  NewGroup
		blocked bool
		note    string
	}{
		{"a reset", NewGroupRefused, true, ""},
		{"--allow-new-group", NewGroupAllowed, false, "group g does not exist: --execute (allowed by --allow-new-group) creates it"},
		{"the restore of its own backup", NewGroupRestore, false, "group g does not exist: restoring its own backup (the undo of deleting it) creates it"},
		{"a copy of another group", NewGroupCopy, false, "group g does not exist: copying another group's positions creates it"},
	} {
		in := gone()
		in.NewGroup = c.intent
		p := Make(orders, earliest, in)
		blocked := len(p.Blockers) == 1 && p.Blockers[0].Kind == BlockGroupNotFound
		if blocked != c.blocked || (!c.blocked && !p.Executable()) {
			t.Errorf("%s: blockers %+v, want blocked %v", c.name, p.Blockers, c.blocked)
		}
		if got := notesOf(p); got != c.note {
			t.Errorf("%s: notes %q, want %q", c.name, got, c.note)
		}
	}
	// An existing group: no blocker and no note whatever the intent.
	if b, n := NewGroupGuard("g", true, NewGroupRefused); b != nil || n != nil {
		t.Errorf("an existing group: %+v %+v", b, n)
	}
}

// A group that existed when planned and is gone right before the commit (its
// commits expired) is drift: the write would create it again. A plan made to
// create it is not.
func TestGoneGroupIsDrift(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}
	p := Make(orders, Strategy{Kind: ToEarliest}, fixture())
	now := fixture()
	now.State, now.GroupExists, now.Committed = "Dead", false, map[model.TP]int64{}
	var drift []string
	for _, b := range p.Drift(now) {
		drift = append(drift, b.Message)
	}
	if !strings.Contains(strings.Join(drift, "\n"), "group g no longer exists") {
		t.Errorf("drift %q, want the group gone", drift)
	}
	in := fixture()
	in.State, in.GroupExists, in.Committed, in.NewGroup = "Dead", false, map[model.TP]int64{}, NewGroupAllowed
	p = Make(orders, Strategy{Kind: ToEarliest}, in)
	if bs := p.Drift(now); len(bs) != 0 {
		t.Errorf("a plan made to create the group: drift %+v", bs)
	}
}

func notesOf(p Plan) string {
	var out []string
	for _, n := range p.Notes {
		out = append(out, n.Message)
	}
	return strings.Join(out, "; ")
}
