package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// Copying positions from another group (reset --from-group SOURCE, rpk's group seek
// --to-group). The targets are SOURCE's committed offsets (a share group's start
// offsets) clamped to [low, high] as kafka-consumer-groups --reset-offsets --from-file
// clamps a file holding them; a partition SOURCE has no commit on is a row that says
// so and is not written. The I/O side reads SOURCE (never joining it) into
// Strategy.Source; the rules that refuse a source live here (docs/resets.md).

// FromGroup is the strategy kind of reset --from-group.
const FromGroup StrategyKind = "from-group"

// ReasonNoSourceCommit marks a from-group row whose partition the source has no
// commit on: it has no target and is not written.
const ReasonNoSourceCommit Reason = "no-source-commit"

// Blocker kinds of the source of a from-group plan.
const (
	// BlockSourceNotFound: no broker lists the source group.
	BlockSourceNotFound BlockerKind = "source-not-found"
	// BlockSourceType: the source is of another type than the group.
	BlockSourceType BlockerKind = "source-type-mismatch"
)

// WriteUntouched is the result of a row an executed plan did not write (a
// from-group row without a source commit): the group's commit there is as it was.
const WriteUntouched WriteResult = "untouched"

// SourceGroup is the source of a from-group plan as read when planned.
type SourceGroup struct {
	Group string
	// Exists is whether a broker lists the group.
	Exists bool
	// Type is the group's type (model.TypeClassic …).
	Type string
	// Committed holds its committed offsets (a share group's start offsets).
	Committed map[model.TP]int64
}

// FromGroupStrategy is the strategy that copies source's positions; its rows (File)
// are the source's commits, sorted.
func FromGroupStrategy(source SourceGroup) Strategy {
	rows := make([]CSVRow, 0, len(source.Committed))
	for tp, off := range source.Committed {
		rows = append(rows, CSVRow{Topic: tp.Topic, Partition: tp.Partition, Offset: model.Ptr(off)})
	}
	slices.SortFunc(rows, func(a, b CSVRow) int { return model.CompareTP(a.TP(), b.TP()) })
	return Strategy{Kind: FromGroup, Raw: source.Group, File: rows, Source: &source}
}

// typeFamily groups the types whose positions one tool moves the same way: classic and
// consumer groups are both kafka-consumer-groups' (a group migrates between them); a
// group that does not exist becomes a classic one.
func typeFamily(typ string) string {
	switch typ {
	case "", model.TypeClassic, model.TypeConsumer:
		return model.TypeClassic
	}
	return typ
}

// CopiesFrom reports whether a group of type target may copy the positions of a source
// group of type source: the rule that refuses a source of another type
// (BlockSourceType), for a front end that offers only the sources it allows.
func CopiesFrom(target, source string) bool { return typeFamily(target) == typeFamily(source) }

// SourceIsGroup is the error of a from-group plan whose source is the group itself
// (bad input: there is nothing to copy); nil otherwise.
func SourceIsGroup(group, source string) error {
	if strings.TrimSpace(source) != strings.TrimSpace(group) {
		return nil
	}
	return fmt.Errorf("%s %s names the group being reset: there is nothing to copy", FromGroup.Flag(), strings.TrimSpace(source))
}

// sourceBlockers refuses a source no broker lists, one of another type family than the
// group (a share group's start offsets are not a consumer group's commits), and a
// strategy whose source was never read.
func sourceBlockers(in Input, st Strategy) []Blocker {
	if st.Kind != FromGroup {
		return nil
	}
	src := st.Source
	switch {
	case src == nil:
		return []Blocker{{Kind: BlockSourceNotFound, Message: fmt.Sprintf("the source group %s was not read", st.Raw)}}
	case !src.Exists:
		return []Blocker{{Kind: BlockSourceNotFound, Message: fmt.Sprintf(
			"source group %s does not exist (no broker lists it): there are no positions to copy; check the name", src.Group)}}
	case !CopiesFrom(in.Type, src.Type):
		target := planType(in.Type)
		if !in.GroupExists {
			target = "new (classic)"
		}
		return []Blocker{{Kind: BlockSourceType, Message: fmt.Sprintf(
			"source group %s is a %s group and %s a %s group: their positions are not the same kind of offset; copy between groups of one type",
			src.Group, src.Type, in.Group, target)}}
	}
	return nil
}

// fromGroupScope returns the partitions a from-group plan covers: with no scope, every
// partition the source has a commit on; with --topic, those partitions; with
// --all-topics, every partition the group or the source has a commit on.
func fromGroupScope(scope Scope, st Strategy, in Input, offsets map[model.TP]*int64) ([]model.TP, []Blocker) {
	for _, r := range st.File {
		offsets[r.TP()] = r.Offset
	}
	if !scope.AllTopics && len(scope.Topics) == 0 {
		return fileScope(st, in, map[model.TP]*int64{})
	}
	tps, bs := scope.Partitions(in)
	if scope.AllTopics {
		src, srcBlockers := fileScope(st, in, map[model.TP]*int64{})
		bs = append(bs, srcBlockers...)
		for _, tp := range src {
			if !slices.Contains(tps, tp) {
				tps = append(tps, tp)
			}
		}
		sortTPs(tps)
	}
	return tps, dedupeBlockers(bs)
}

// untouched reports whether a row is not written: a from-group row without a source
// commit.
func (r Row) untouched() bool { return r.Reason == ReasonNoSourceCommit }
