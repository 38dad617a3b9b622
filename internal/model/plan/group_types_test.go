package plan

import (
	"slices"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// typedFixture: an Empty group of type typ on in (3 partitions) and in-repartition (1).
//
//	in-0  low 0 high 100 position 50
//	in-1  low 0 high 100 position 60
//	in-2  low 0 high 100 none (a share group lists it without a start offset)
//	in-repartition-0 low 0 high 10 position 5
func typedFixture(typ string) Input {
	wm := model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(100))}
	return Input{
		Group: "g", Type: typ, State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed:     map[model.TP]int64{{Topic: "in", Partition: 0}: 50, {Topic: "in", Partition: 1}: 60, {Topic: "in-repartition", Partition: 0}: 5},
		Uninitialized: []model.TP{{Topic: "in", Partition: 2}},
		SourceTopics:  []string{"in"},
		Partitions:    map[string]int{"in": 3, "in-repartition": 1},
		Offsets: map[model.TP]model.PartitionOffsets{{Topic: "in", Partition: 0}: wm, {Topic: "in", Partition: 1}: wm, {Topic: "in", Partition: 2}: wm,
			{Topic: "in-repartition", Partition: 0}: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10))}},
	}
}

func TestPlanPerGroupType(t *testing.T) {
	all := Scope{AllTopics: true}
	topicIn := Scope{Topics: []TopicScope{{Topic: "in"}}}
	restore := func(rows ...CSVRow) Strategy {
		return Strategy{Kind: Restore, Raw: "backup.csv", File: rows}
	}
	row := func(topic string, p int32, off *int64) CSVRow { return CSVRow{Topic: topic, Partition: p, Offset: off} }
	for _, c := range []struct {
		name     string
		in       func() Input
		scope    Scope
		st       Strategy
		rows     []string // "tp=target" ("tp=-" for no target)
		blockers []BlockerKind
	}{
		{"unknown type: refused, nothing planned", func() Input { in := typedFixture(model.TypeUnknown); in.RawType = "Pipeline"; return in },
			all, mustStrategy(t, ToEarliest, ""), nil, []BlockerKind{BlockGroupTypeUnknown}},
		{"share --all-topics: every listed partition, with or without a start offset", func() Input {
			in := typedFixture(model.TypeShare)
			delete(in.Committed, model.TP{Topic: "in-repartition", Partition: 0})
			return in
		},
			all, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0", "in-2=0"}, nil},
		{"share --to-current without a start offset: high", func() Input { return typedFixture(model.TypeShare) },
			topicIn, mustStrategy(t, ToCurrent, ""), []string{"in-0=50", "in-1=60", "in-2=100"}, nil},
		{"share --shift-by: not a share reset", func() Input { return typedFixture(model.TypeShare) },
			topicIn, mustStrategy(t, ShiftBy, "-1"), []string{"in-0=49", "in-1=59", "in-2=-"}, []BlockerKind{BlockStrategyUnsupported, BlockNoCommitCannotShift}},
		{"share --by-duration: not a share reset", func() Input {
			in := typedFixture(model.TypeShare)
			in.TimeOffsets = map[model.TP]int64{{Topic: "in", Partition: 0}: 1, {Topic: "in", Partition: 1}: 1, {Topic: "in", Partition: 2}: 1}
			return in
		},
			topicIn, mustStrategy(t, ByDuration, "PT1H"), []string{"in-0=1", "in-1=1", "in-2=1"}, []BlockerKind{BlockStrategyUnsupported}},
		{"share: broker without AlterShareGroupOffsets", func() Input {
			in := typedFixture(model.TypeShare)
			in.Unwritable = "no AlterShareGroupOffsets"
			return in
		},
			topicIn, mustStrategy(t, ToLatest, ""), []string{"in-0=100", "in-1=100", "in-2=100"}, []BlockerKind{BlockWriteUnsupported}},
		{"share restore: a whole topic loses its start offsets", func() Input {
			in := typedFixture(model.TypeShare)
			in.Committed = map[model.TP]int64{{Topic: "in", Partition: 0}: 7, {Topic: "in", Partition: 1}: 7}
			return in
		}, Scope{}, restore(row("in", 0, nil), row("in", 1, nil)), []string{"in-0=-", "in-1=-"}, nil},
		{"share restore: a topic's start offsets deleted, then the kept one set again", func() Input { return typedFixture(model.TypeShare) },
			Scope{}, restore(row("in", 0, nil), row("in", 1, model.Ptr(int64(3)))), []string{"in-0=-", "in-1=3"}, nil},
		{"share restore: a partition outside the file keeps its start offset", func() Input { return typedFixture(model.TypeShare) },
			Scope{}, restore(row("in", 0, nil)), []string{"in-0=-"}, []BlockerKind{BlockShareDeletePerTopic}},
		{"streams --all-topics: committed partitions of source topics only", func() Input { return typedFixture(model.TypeStreams) },
			all, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0"}, nil},
		{"streams --all-topics without a topology", func() Input { in := typedFixture(model.TypeStreams); in.SourceTopics = nil; return in },
			all, mustStrategy(t, ToEarliest, ""), nil, []BlockerKind{BlockTopologyUnknown}},
		{"streams --topic with a partition the group has no commit on", func() Input { return typedFixture(model.TypeStreams) },
			topicIn, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0", "in-2=0"}, []BlockerKind{BlockNotInGroup}},
		{"streams --topic T:0,1 and --shift-by", func() Input { return typedFixture(model.TypeStreams) },
			Scope{Topics: []TopicScope{{Topic: "in", Partitions: []int32{0, 1}}}}, mustStrategy(t, ShiftBy, "-10"), []string{"in-0=40", "in-1=50"}, nil},
		{"consumer --all-topics: every committed partition", func() Input { return typedFixture(model.TypeConsumer) },
			all, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0", "in-repartition-0=0"}, nil},
		{"share --all-topics with topics that may be hidden", func() Input { in := typedFixture(model.TypeShare); in.AllTopicsVisible = nil; return in },
			all, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0", "in-2=0", "in-repartition-0=0"}, []BlockerKind{BlockHiddenTopics}},
		{"streams --all-topics with topics that may be hidden", func() Input { in := typedFixture(model.TypeStreams); in.AllTopicsVisible = model.Ptr(false); return in },
			all, mustStrategy(t, ToEarliest, ""), []string{"in-0=0", "in-1=0"}, []BlockerKind{BlockHiddenTopics}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Make(c.scope, c.st, c.in())
			var rows []string
			for _, r := range p.Rows {
				rows = append(rows, r.TP().String()+"="+text.Num(r.Target))
			}
			if !slices.Equal(rows, c.rows) {
				t.Errorf("rows %v, want %v", rows, c.rows)
			}
			var kinds []BlockerKind
			for _, b := range p.Blockers {
				kinds = append(kinds, b.Kind)
				if b.Message == "" || strings.Contains(b.Message, "%!") {
					t.Errorf("blocker %s has a bad message %q", b.Kind, b.Message)
				}
			}
			if !slices.Equal(kinds, c.blockers) {
				t.Errorf("blockers %v, want %v (%+v)", kinds, c.blockers, p.Blockers)
			}
			if p.Type != c.in().Type {
				t.Errorf("plan type %q, want %q", p.Type, c.in().Type)
			}
		})
	}
}

// TestUnknownTypeMessageNamesTheType: the refusal of a type offsettui does not know names
// the type the broker reported.
func TestUnknownTypeMessageNamesTheType(t *testing.T) {
	in := typedFixture(model.TypeUnknown)
	in.RawType = "Pipeline"
	p := Make(Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), in)
	if len(p.Blockers) != 1 || !strings.Contains(p.Blockers[0].Message, "Pipeline") {
		t.Errorf("blockers %+v, want one naming Pipeline", p.Blockers)
	}
}
