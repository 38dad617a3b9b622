package plan

import (
	"reflect"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestDeleteOffsetsPlan: rows only where the group has a commit, no target, the effect of
// starting at auto.offset.reset instead (latest: skips; earliest: re-reads; none: no
// start), the commits deleted and backed up, a live group not refused but told which
// topics its members are assigned, and a scope without commits blocked.
func TestDeleteOffsetsPlan(t *testing.T) {
	scope := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	for _, c := range []struct {
		assume string
		want   []rowWant
		start  []*int64
	}{
		{model.ResetLatest, []rowWant{{"orders-0", -1, ReasonDelete, 0, 50, 0}, {"orders-1", -1, ReasonDelete, 0, 60, 30}}, []*int64{model.Ptr(int64(100)), model.Ptr(int64(100))}},
		{model.ResetEarliest, []rowWant{{"orders-0", -1, ReasonDelete, 50, 0, 0}, {"orders-1", -1, ReasonDelete, 0, 0, 30}}, []*int64{model.Ptr(int64(0)), model.Ptr(int64(40))}},
		{model.ResetNone, []rowWant{{"orders-0", -1, ReasonDelete, 0, 0, 0}, {"orders-1", -1, ReasonDelete, 0, 0, 30}}, []*int64{nil, nil}},
	} {
		in := fixture()
		in.AssumeReset = c.assume
		p := Make(scope, DeleteOffsetsStrategy(), in)
		if !p.Executable() || len(p.Rows) != 2 {
			t.Fatalf("%s: blockers %+v rows %+v", c.assume, p.Blockers, p.Rows)
		}
		for i, w := range c.want {
			w.check(t, c.assume, p.Rows[i])
			if !eqPtr(p.Rows[i].ResetStart, c.start[i]) {
				t.Errorf("%s: %s resetStart %v, want %v", c.assume, p.Rows[i].TP(), fmtOpt(p.Rows[i].ResetStart), fmtOpt(c.start[i]))
			}
		}
		commit, del := p.Commits()
		if len(commit) != 0 || len(del) != 2 || len(p.BackupRows()) != 2 {
			t.Errorf("%s: commits %v deletes %v backup %v", c.assume, commit, del, p.BackupRows())
		}
		if q := p.Refresh(in); !q.Executable() || !reflect.DeepEqual(q.Rows, p.Rows) {
			t.Errorf("%s: refresh on unchanged state: %+v %+v", c.assume, q.Blockers, q.Rows)
		}
	}

	live := fixture()
	live.State = "Stable"
	live.Members = []model.Member{{Assignments: []model.Assignment{{Topic: "orders", Partitions: []int32{0}}}}}
	p := Make(scope, DeleteOffsetsStrategy(), live)
	kinds := map[NoteKind]bool{}
	for _, n := range p.Notes {
		kinds[n.Kind] = true
	}
	if !p.Executable() || !kinds[NoteSubscribed] || !kinds[NoteUndoWhenEmpty] {
		t.Errorf("live group: blockers %+v notes %+v; want executable, noting the subscribed topic and the undo", p.Blockers, p.Notes)
	}
	if len(p.Drift(live)) != 0 {
		t.Errorf("live group: drift %+v on unchanged state", p.Drift(live))
	}
	reset := Make(scope, mustStrategy(t, ToEarliest, ""), live)
	if !hasKind(reset.Blockers, BlockGroupNotEmpty) {
		t.Errorf("a reset of the live group is not refused: %+v", reset.Blockers)
	}

	none := Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{2}}}}, DeleteOffsetsStrategy(), fixture())
	if !hasKind(none.Blockers, BlockNothingToReset) || len(none.Rows) != 0 {
		t.Errorf("no commit in scope: blockers %+v rows %+v", none.Blockers, none.Rows)
	}
	share := fixture()
	share.Type = model.TypeShare
	part := Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, DeleteOffsetsStrategy(), share)
	if !hasKind(part.Blockers, BlockStrategyUnsupported) {
		t.Errorf("share group, some partitions: blockers %+v; want whole topics only", part.Blockers)
	}
}

// TestDeleteGroupPlan: every commit is a deleted row; a live group is refused as for a
// reset; a share group is refused (not supported yet); the Kafka command is --delete.
func TestDeleteGroupPlan(t *testing.T) {
	p := Make(DeleteGroupScope, DeleteGroupStrategy(), fixture())
	if !p.Executable() || len(p.Rows) != 3 || p.KafkaEquivalent == nil ||
		p.KafkaEquivalent.Command != "kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --delete --group g" {
		t.Fatalf("blockers %+v rows %d equivalent %+v", p.Blockers, len(p.Rows), p.KafkaEquivalent)
	}
	if _, del := p.Commits(); len(del) != 3 {
		t.Errorf("deletes %v, want every commit", del)
	}
	live := fixture()
	live.State = "Stable"
	live.Members = []model.Member{{}}
	if p := Make(DeleteGroupScope, DeleteGroupStrategy(), live); !hasKind(p.Blockers, BlockGroupNotEmpty) {
		t.Errorf("live group: blockers %+v", p.Blockers)
	}
	share := fixture()
	share.Type = model.TypeShare
	if p := Make(DeleteGroupScope, DeleteGroupStrategy(), share); !hasKind(p.Blockers, BlockStrategyUnsupported) {
		t.Errorf("share group: blockers %+v", p.Blockers)
	}
}
