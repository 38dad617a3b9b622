package plan

import (
	"reflect"
	"slices"
	"strings"
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
		// none: the consumer refuses to start without its commit; the counts start at low.
		{model.ResetNone, []rowWant{{"orders-0", -1, ReasonDelete, 50, 0, 0}, {"orders-1", -1, ReasonDelete, 0, 0, 30}}, []*int64{nil, nil}},
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

	live := liveConsumer([]string{"orders"}, nil)
	p := Make(scope, DeleteOffsetsStrategy(), live)
	if !p.Executable() || !slices.Equal(noteKinds(p), []NoteKind{NoteMovesForward, NoteSubscribed, NoteUndoWhenEmpty}) || *p.Notes[1].Topic != "orders" {
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
	if p := Make(scope, DeleteOffsetsStrategy(), share); !p.Executable() || len(p.Rows) != 2 {
		t.Errorf("share group, a whole topic: blockers %+v rows %+v; want its 2 start offsets deleted", p.Blockers, p.Rows)
	}
	share.State, share.Members = "Stable", []model.Member{{}}
	if p := Make(scope, DeleteOffsetsStrategy(), share); !hasKind(p.Blockers, BlockGroupNotEmpty) {
		t.Errorf("live share group: blockers %+v; want group-not-empty (the broker refuses it whole, NON_EMPTY_GROUP)", p.Blockers)
	}
}

// TestDeleteOffsetsSubscribedNote: the subscribed note comes from the group's
// subscriptions, not its members' assignments: a subscribed topic nobody is assigned yet
// (a regular expression, a member not assigned yet) is noted, an assigned topic the group
// no longer subscribes to is not, and subscriptions that cannot be read say so.
func TestDeleteOffsetsSubscribedNote(t *testing.T) {
	all := Scope{AllTopics: true}
	cases := []struct {
		name       string
		in         Input
		kinds      []NoteKind
		subscribed []string
	}{
		{"by name, not assigned", liveConsumer([]string{"ahead"}, nil), []NoteKind{NoteSubscribed, NoteUndoWhenEmpty}, []string{"ahead"}},
		{"by regex", liveConsumer(nil, model.Ptr("ord.*")), []NoteKind{NoteSubscribed, NoteUndoWhenEmpty}, []string{"orders"}},
		{"assigned, no longer subscribed", liveConsumer([]string{"other"}, nil), []NoteKind{NoteUndoWhenEmpty}, nil},
		{"classic, rebalancing", liveClassic("PreparingRebalance"), []NoteKind{NoteSubscriptionsUnknown, NoteUndoWhenEmpty}, nil},
		{"classic, stable", liveClassic("Stable"), []NoteKind{NoteSubscribed, NoteUndoWhenEmpty}, []string{"orders"}},
	}
	for _, c := range cases {
		p := Make(all, DeleteOffsetsStrategy(), c.in)
		var subscribed []string
		for _, n := range p.Notes {
			if n.Kind == NoteSubscribed {
				subscribed = append(subscribed, *n.Topic)
			}
		}
		// Deleting moves the committed partitions to latest: forward, under the default
		// assumption (forward.go), before the kinds each case is about.
		if want := append([]NoteKind{NoteMovesForward}, c.kinds...); !p.Executable() || !slices.Equal(noteKinds(p), want) || !slices.Equal(subscribed, c.subscribed) {
			t.Errorf("%s: blockers %+v notes %+v; want %v, subscribed %v", c.name, p.Blockers, p.Notes, c.kinds, c.subscribed)
		}
	}
}

// liveConsumer is the fixture as a live consumer-protocol group whose one member is
// assigned orders-0 and subscribes to topics and regex.
func liveConsumer(topics []string, regex *string) Input {
	in := fixture()
	in.Type, in.State = model.TypeConsumer, "Stable"
	in.Members = []model.Member{{Assignments: []model.Assignment{{Topic: "orders", Partitions: []int32{0}}},
		Subscription: &model.Subscription{Topics: topics, Regex: regex}}}
	in.Subscriptions = (&model.Group{Type: in.Type, State: in.State, Members: in.Members}).Subscriptions()
	return in
}

// liveClassic is the fixture as a live classic consumer group in state, its member
// subscribed to orders.
func liveClassic(state string) Input {
	in := fixture()
	in.Type, in.State = model.TypeClassic, state
	in.Members = []model.Member{{Subscription: &model.Subscription{Topics: []string{"orders"}}}}
	in.Subscriptions = (&model.Group{Type: in.Type, State: state, ProtocolType: "consumer", Members: in.Members}).Subscriptions()
	return in
}

func noteKinds(p Plan) []NoteKind {
	var out []NoteKind
	for _, n := range p.Notes {
		out = append(out, n.Kind)
	}
	return out
}

// TestDeleteGroupPlan: every commit is a deleted row; a live group is refused as for a
// reset; a share group loses every start offset, a streams group every commit; the Kafka
// command is --delete.
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
	if p := Make(DeleteGroupScope, DeleteGroupStrategy(), share); !p.Executable() || len(p.Rows) != 3 ||
		p.KafkaEquivalent.Command != "kafka-share-groups.sh --bootstrap-server BOOTSTRAP --delete --group g" {
		t.Errorf("share group: blockers %+v rows %d equivalent %+v; want every start offset deleted", p.Blockers, len(p.Rows), p.KafkaEquivalent)
	}
	// A streams group loses every commit with it, not only those of its input topics.
	streams := fixture()
	streams.Type, streams.SourceTopics = model.TypeStreams, []string{"orders"}
	if p := Make(DeleteGroupScope, DeleteGroupStrategy(), streams); !p.Executable() || len(p.Rows) != 3 ||
		!strings.Contains(strings.Join(p.KafkaEquivalent.Differs, "\n"), "internal topics") {
		t.Errorf("streams group: blockers %+v rows %d equivalent %+v; want every commit deleted", p.Blockers, len(p.Rows), p.KafkaEquivalent)
	}
}

// TestStreamsDeleteOffsetsScope: kafka-streams-groups.sh --delete-offsets --input-topic takes
// any partition (a reset refuses those without a commit), and --all-input-topics the
// committed partitions of the input topics only.
func TestStreamsDeleteOffsetsScope(t *testing.T) {
	streams := fixture()
	streams.Type, streams.SourceTopics = model.TypeStreams, []string{"orders"}
	p := Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), streams)
	if !p.Executable() || len(p.Rows) != 2 || p.KafkaEquivalent.Command != "kafka-streams-groups.sh --bootstrap-server BOOTSTRAP --delete-offsets --group g --input-topic orders:0,1" {
		t.Errorf("--topic orders: blockers %+v rows %+v equivalent %+v; want orders-0 and -1, no not-in-group", p.Blockers, p.Rows, p.KafkaEquivalent)
	}
	if r := Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, mustStrategy(t, ToEarliest, ""), streams); !hasKind(r.Blockers, BlockNotInGroup) {
		t.Errorf("a reset of orders-2 (no commit): blockers %+v; want not-in-group", r.Blockers)
	}
	all := Make(Scope{AllTopics: true}, DeleteOffsetsStrategy(), streams)
	if !all.Executable() || len(all.Rows) != 2 || all.Rows[0].Topic != "orders" {
		t.Errorf("--all-topics: blockers %+v rows %+v; want the input topic's 2 commits, not ahead's", all.Blockers, all.Rows)
	}
}
