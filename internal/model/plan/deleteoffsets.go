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
// AssumeReset says). Share groups lose start offsets a whole topic at a time, and only
// while they have no members (kafka-share-groups --delete-offsets,
// DeleteShareGroupOffsets: NON_EMPTY_GROUP otherwise), so a live share group is refused as
// a reset is. docs/resets.md#deleting-commits.

// DeleteOffsets is the kind of a delete-offsets plan; it is not a reset strategy
// (StrategyKinds does not list it).
const DeleteOffsets StrategyKind = "delete-offsets"

// ReasonDelete marks a row whose commit the plan deletes.
const ReasonDelete Reason = "delete"

// Note kinds of delete-offsets plans.
const (
	// NoteSubscribed: the group's members subscribe to the topic (Input.Subscriptions);
	// the broker will refuse deleting its commits.
	NoteSubscribed NoteKind = "subscribed"
	// NoteSubscriptionsUnknown: the group is live and offsettui cannot read what it
	// subscribes to; the broker's answer alone says which topics it refuses.
	NoteSubscriptionsUnknown NoteKind = "subscriptions-unknown"
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

// liveAllowed reports whether a plan of kind k may run on a group of type typ with members:
// only a delete-offsets plan, and not of a share group (DeleteShareGroupOffsets refuses a
// share group with members as a whole, NON_EMPTY_GROUP).
func liveAllowed(k StrategyKind, typ string) bool {
	return k == DeleteOffsets && typ != model.TypeShare
}

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

// deleteRow fills a row that deletes its commit: no target, where auto.offset.reset then
// starts the consumer (ResetStart, nil for none), and the effects of starting there
// instead of at the commit (setEffects).
func deleteRow(r *Row, assume string) {
	r.Target, r.Reason = nil, ReasonDelete
	r.ResetStart = resetStart(*r, assume)
	setEffects(r, assume)
}

// deleteNotes says which topics the members of a live group subscribe to (the broker will
// refuse them), from the group's subscriptions as Kafka's coordinator counts them
// (model.Group.Subscriptions), or that they cannot be read; and that the undo of a live
// group's delete waits for it to be Empty.
func deleteNotes(in Input, rows []Row) []Note {
	if len(in.Members) == 0 {
		return nil
	}
	var out []Note
	if subs := in.Subscriptions; subs.Known {
		var topics []string
		for _, r := range rows {
			if subs.Has(r.Topic) && !slices.Contains(topics, r.Topic) {
				topics = append(topics, r.Topic)
			}
		}
		for _, t := range topics {
			out = append(out, Note{Kind: NoteSubscribed, Topic: model.Ptr(t), Message: fmt.Sprintf(
				"the members of %s subscribe to %s: the broker will refuse deleting its commits (GROUP_SUBSCRIBED_TO_TOPIC), and offsettui reports each as rejected",
				in.Group, t)})
		}
	} else {
		out = append(out, Note{Kind: NoteSubscriptionsUnknown, Message: fmt.Sprintf(
			"offsettui cannot read what the members of %s subscribe to (a classic group's subscriptions are readable only while it is Stable, a streams group's only from its topology): "+
				"the broker refuses each partition of a topic they subscribe to (GROUP_SUBSCRIBED_TO_TOPIC), and offsettui reports it as rejected",
			in.Group)})
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
