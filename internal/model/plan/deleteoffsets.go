package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// Deleting a group's commits (offsettui delete-offsets, kafka-consumer-groups
// --delete-offsets, KIP-496's OffsetDelete). Its main use is a live group's commits on
// a topic no member subscribes to any more, so a live group is not refused as such:
// the broker refuses, per partition, a topic the group subscribes to
// (GROUP_SUBSCRIBED_TO_TOPIC), and the executor reports that as rejected. Each row is a
// commit to remove, with what the consumer would do without it (auto.offset.reset, as
// AssumeReset says). Share groups lose start offsets a whole topic at a time
// (kafka-share-groups --delete-offsets). docs/resets.md#deleting-commits.

// DeleteOffsets is the kind of a delete-offsets plan; it is not a reset strategy
// (StrategyKinds does not list it).
const DeleteOffsets StrategyKind = "delete-offsets"

// ReasonDelete marks a row whose commit the plan deletes.
const ReasonDelete Reason = "delete"

// Note kinds of delete-offsets plans.
const (
	// NoteSubscribed: live members are assigned the topic; the broker will refuse
	// deleting its commits.
	NoteSubscribed NoteKind = "subscribed"
	// NoteUndoWhenEmpty: the group is live; its undo (commits written again) applies
	// only once it is Empty.
	NoteUndoWhenEmpty NoteKind = "undo-when-empty"
)

// DeleteOffsetsStrategy is the strategy of a delete-offsets plan.
func DeleteOffsetsStrategy() Strategy { return Strategy{Kind: DeleteOffsets} }

// deletes reports whether the row deletes its commit (a restore row without an offset,
// or a delete-offsets row).
func (r Row) deletes() bool {
	return r.Target == nil && (r.Reason == ReasonRestore || r.Reason == ReasonDelete)
}

// liveAllowed reports whether a plan of kind k may run on a group with members.
func liveAllowed(k StrategyKind) bool { return k == DeleteOffsets }

// deleteScope keeps, of the partitions a scope selects, those the group has a commit
// (a share group: a start offset) on; a share group's scope must be whole topics.
func deleteScope(s Scope, in Input, tps []model.TP) ([]model.TP, []Blocker) {
	var bs []Blocker
	if in.Type == model.TypeShare {
		for _, t := range s.Topics {
			if t.Partitions != nil {
				bs = append(bs, Blocker{Kind: BlockStrategyUnsupported, Topic: model.Ptr(t.Topic), Message: fmt.Sprintf(
					"share groups lose start offsets only a whole topic at a time (%s --delete-offsets, DeleteShareGroupOffsets): name %s without partitions",
					shareToolName, t.Topic)})
			}
		}
	}
	out := tps[:0:0]
	for _, tp := range tps {
		if _, ok := in.Committed[tp]; ok {
			out = append(out, tp)
		}
	}
	return out, bs
}

// deleteRow fills a delete-offsets row: no target, and the effects of the consumer
// starting where auto.offset.reset puts it (ResetStart) instead of at the commit.
func deleteRow(r *Row, assume string) {
	r.Target, r.Reason = nil, ReasonDelete
	r.Duplicates, r.Skipped, r.AlreadyLost = 0, 0, 0
	if r.Committed == nil || r.Low == nil || r.High == nil {
		return
	}
	c, low, high := *r.Committed, *r.Low, *r.High
	r.AlreadyLost = gap(low, c)
	switch assume {
	case model.ResetEarliest:
		r.ResetStart = model.Ptr(low)
	case model.ResetLatest:
		r.ResetStart = model.Ptr(high)
	default:
		r.ResetStart = nil
		return
	}
	start := *r.ResetStart
	switch {
	case start < c:
		r.Duplicates = gap(min(c, high), max(start, low))
	case start > c:
		r.Skipped = gap(min(start, high), max(c, low))
	}
}

// deleteNotes says which topics live members are assigned (the broker will refuse
// them) and that the undo of a live group's delete waits for it to be Empty.
func deleteNotes(in Input, rows []Row) []Note {
	if len(in.Members) == 0 {
		return nil
	}
	assigned := map[string]bool{}
	for _, m := range in.Members {
		for _, a := range m.Assignments {
			assigned[a.Topic] = true
		}
	}
	var topics []string
	for _, r := range rows {
		if assigned[r.Topic] && !slices.Contains(topics, r.Topic) {
			topics = append(topics, r.Topic)
		}
	}
	var out []Note
	for _, t := range topics {
		out = append(out, Note{Kind: NoteSubscribed, Topic: model.Ptr(t), Message: fmt.Sprintf(
			"live members of %s are assigned %s: the broker will refuse deleting its commits (GROUP_SUBSCRIBED_TO_TOPIC), and offsettui reports each as rejected",
			in.Group, t)})
	}
	out = append(out, Note{Kind: NoteUndoWhenEmpty, Message: fmt.Sprintf(
		"group %s has live members: the undo (its commits written again) applies only once it is Empty, as the broker refuses admin commits to a live group",
		in.Group)})
	return out
}

// deleteNothing is the blocker of a delete-offsets plan that selects no commit.
func deleteNothing(in Input, s Scope) Blocker {
	what := "the partitions in scope"
	if !s.AllTopics {
		var names []string
		for _, t := range s.Topics {
			names = append(names, t.String())
		}
		what = strings.Join(names, ", ")
	}
	return Blocker{Kind: BlockNothingToReset, Message: fmt.Sprintf("group %s has no commit on %s: there is nothing to delete", in.Group, what)}
}

// String is the scope as --topic takes it: "t" or "t:0,2".
func (t TopicScope) String() string {
	if t.Partitions == nil {
		return t.Topic
	}
	ps := make([]string, len(t.Partitions))
	for i, p := range t.Partitions {
		ps[i] = fmt.Sprint(p)
	}
	return t.Topic + ":" + strings.Join(ps, ",")
}
