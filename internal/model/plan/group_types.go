package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Resets per group type (docs/resets.md). Classic and consumer groups follow
// kafka-consumer-groups --reset-offsets; share groups kafka-share-groups.sh
// --reset-offsets (Kafka 4.4), whose positions are share-partition start offsets written
// with AlterShareGroupOffsets; streams groups kafka-streams-groups.sh --reset-offsets. The
// guards are the same for every type (guard.go); a type offsettui does not know is
// refused before anything is read further or written.

// Blocker kinds of the per-type rules.
const (
	BlockGroupTypeUnknown    BlockerKind = "group-type-unknown"
	BlockStrategyUnsupported BlockerKind = "strategy-unsupported"
	BlockNotInGroup          BlockerKind = "not-in-group"
	BlockTopologyUnknown     BlockerKind = "topology-unknown"
	BlockWriteUnsupported    BlockerKind = "write-unsupported"
	BlockShareDeletePerTopic BlockerKind = "share-delete-per-topic"
)

const (
	shareToolName   = "kafka-share-groups.sh"
	streamsToolName = "kafka-streams-groups.sh"
)

// shareStrategies are the strategies kafka-share-groups.sh --reset-offsets has (Kafka 4.4;
// 4.2 and 4.3 have only to-earliest, to-latest and to-datetime), plus offsettui's restore.
var shareStrategies = []StrategyKind{ToEarliest, ToLatest, ToDatetime, ToOffset, ToCurrent, FromFile, FromGroup, Restore, DeleteOffsets, DeleteGroup}

// Offers reports whether the tool of a group of type typ has strategy k, so a
// front end offers only those (a share group has no --shift-by and no
// --by-duration). An unknown type is refused whatever the strategy, by a
// blocker: every strategy is offered, to show it.
func Offers(typ string, k StrategyKind) bool {
	return typ != model.TypeShare || slices.Contains(shareStrategies, k)
}

// typeBlockers returns what the group's type forbids: an unknown type, a strategy the
// type's tool does not have, a write API the broker lacks.
func typeBlockers(in Input, st Strategy) []Blocker {
	var bs []Blocker
	switch in.Type {
	case model.TypeUnknown:
		bs = append(bs, Blocker{Kind: BlockGroupTypeUnknown, Message: fmt.Sprintf(
			"group %s is of a type offsettui does not know (%s): it cannot guard a reset of it, so it writes nothing", in.Group, text.OrDash(in.RawType))})
	case model.TypeShare:
		if !slices.Contains(shareStrategies, st.Kind) {
			bs = append(bs, Blocker{Kind: BlockStrategyUnsupported, Message: fmt.Sprintf(
				"%s is not a reset of share groups: %s --reset-offsets has --to-earliest, --to-latest and --to-datetime (Kafka 4.2, 4.3), "+
					"and from Kafka 4.4 also --to-offset, --to-current and --from-file; nothing else", st.Kind.Flag(), shareToolName)})
		}
	}
	if in.Unwritable != "" {
		bs = append(bs, Blocker{Kind: BlockWriteUnsupported, Message: in.Unwritable})
	}
	return bs
}

// typeScope returns the partitions a scope selects for a share or streams group, for a plan
// of kind k (ok false for the other types, and for delete-group, which deletes every
// commit: they use Scope.Partitions as it is).
//
//   - share, --all-topics: every partition the broker lists for the group, with or without a
//     start offset (kafka-share-groups.sh resets those);
//   - streams, --all-topics: the committed partitions of the topology's source topics
//     (--all-input-topics, for --reset-offsets and --delete-offsets alike);
//   - streams, --topic: as for consumer groups; a reset's selected partitions must each have
//     a commit in the group, or kafka-streams-groups.sh refuses the whole reset ("One or more
//     topics are not part of the group"), while its --delete-offsets takes any partition
//     (the broker deletes nothing where there is no commit).
func typeScope(s Scope, in Input, k StrategyKind) (tps []model.TP, bs []Blocker, ok bool) {
	switch {
	case k == DeleteGroup:
		return nil, nil, false
	case in.Type == model.TypeShare && s.AllTopics:
		all := maps2TPs(in.Committed, in.Uninitialized)
		tps, bs = Scope{Topics: tpScopes(all)}.Partitions(in)
		return tps, append(hiddenTopicsBlockers(in), bs...), true
	case in.Type == model.TypeStreams && s.AllTopics:
		if in.SourceTopics == nil {
			return nil, []Blocker{{Kind: BlockTopologyUnknown, Message: fmt.Sprintf(
				"the topology of streams group %s is not known, so its input topics are not (%s --all-input-topics resets those); name them with --topic", in.Group, streamsToolName)}}, true
		}
		var sel []model.TP
		for tp := range in.Committed {
			if slices.Contains(in.SourceTopics, tp.Topic) {
				sel = append(sel, tp)
			}
		}
		tps, bs = Scope{Topics: tpScopes(sel)}.Partitions(in)
		return tps, append(hiddenTopicsBlockers(in), bs...), true
	case in.Type == model.TypeStreams && k == DeleteOffsets:
		return nil, nil, false
	case in.Type == model.TypeStreams:
		tps, bs = s.Partitions(in)
		var outside []string
		for _, tp := range tps {
			if _, has := in.Committed[tp]; !has {
				outside = append(outside, tp.String())
			}
		}
		if len(outside) > 0 {
			bs = append(bs, Blocker{Kind: BlockNotInGroup, Message: fmt.Sprintf(
				"%s has no commit in streams group %s; %s --input-topic resets only partitions of the group, and refuses the whole reset otherwise",
				strings.Join(outside, ", "), in.Group, streamsToolName)})
		}
		return tps, bs, true
	}
	return nil, nil, false
}

// shareRestoreBlockers checks a share-group restore: Kafka deletes share-group start offsets
// only a whole topic at a time (DeleteShareGroupOffsets), so rows without an offset can be
// restored (the topic's start offsets deleted, then the file's other rows of it set again)
// only when no partition of the topic outside the file has a start offset today.
func shareRestoreBlockers(in Input, st Strategy) []Blocker {
	if in.Type != model.TypeShare || st.Kind != Restore {
		return nil
	}
	empty := map[string][]model.TP{}
	inFile := map[model.TP]bool{}
	for _, r := range st.File {
		if r.Group != "" && r.Group != in.Group {
			continue
		}
		inFile[r.TP()] = true
		if r.Offset == nil {
			empty[r.Topic] = append(empty[r.Topic], r.TP())
		}
	}
	var bs []Blocker
	for topic, tps := range empty {
		var others []string
		for tp := range in.Committed {
			if tp.Topic == topic && !inFile[tp] {
				others = append(others, tp.String())
			}
		}
		if len(others) > 0 {
			slices.Sort(others)
			bs = append(bs, Blocker{Kind: BlockShareDeletePerTopic, Topic: model.Ptr(topic), Message: fmt.Sprintf(
				"share groups lose start offsets only a whole topic at a time (DeleteShareGroupOffsets): removing those of %s would also remove those of %s, which the file does not name",
				joinTPs(tps), strings.Join(others, ", "))})
		}
	}
	slices.SortFunc(bs, func(a, b Blocker) int { return strings.Compare(*a.Topic, *b.Topic) })
	return bs
}

func joinTPs(tps []model.TP) string {
	sortTPs(tps)
	s := make([]string, len(tps))
	for i, tp := range tps {
		s[i] = tp.String()
	}
	return strings.Join(s, ", ")
}

// maps2TPs returns the keys of m plus extra, distinct.
func maps2TPs(m map[model.TP]int64, extra []model.TP) []model.TP {
	set := map[model.TP]bool{}
	for tp := range m {
		set[tp] = true
	}
	for _, tp := range extra {
		set[tp] = true
	}
	out := make([]model.TP, 0, len(set))
	for tp := range set {
		out = append(out, tp)
	}
	sortTPs(out)
	return out
}

// tpScopes turns partitions into the explicit --topic T:p,p scopes that select them.
func tpScopes(tps []model.TP) []TopicScope {
	byTopic := map[string][]int32{}
	var order []string
	for _, tp := range tps {
		if _, ok := byTopic[tp.Topic]; !ok {
			order = append(order, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	out := []TopicScope{}
	for _, t := range order {
		out = append(out, TopicScope{Topic: t, Partitions: byTopic[t]})
	}
	return out
}
