package plan

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestAssumptionPerGroupType: a plan counts with what its group's consumers really do
// (docs/resets.md, "What a plan costs"): --assume-reset, else latest; a streams group's
// default is earliest; a share group's is its own share.auto.offset.reset, whatever the flag,
// and switching it leaves the plan as made. The first commit on in-2 at low (0, high 100)
// re-delivers the 100 stored records under latest and none under earliest.
func TestAssumptionPerGroupType(t *testing.T) {
	in2 := Scope{Topics: []TopicScope{{Topic: "in", Partitions: []int32{2}}}}
	for _, c := range []struct {
		name       string
		typ        string
		flag       string
		shareReset *string
		want       string
		dups       int64
	}{
		{"consumer, no flag: the client default", model.TypeConsumer, "", nil, model.ResetLatest, 100},
		{"consumer, --assume-reset earliest", model.TypeConsumer, "earliest", nil, model.ResetEarliest, 0},
		{"streams, no flag: Kafka Streams' default", model.TypeStreams, "", nil, model.ResetEarliest, 0},
		{"streams, --assume-reset latest", model.TypeStreams, "latest", nil, model.ResetLatest, 100},
		{"share, config unread: its default", model.TypeShare, "earliest", nil, model.ResetLatest, 100},
		{"share, config earliest, flag latest", model.TypeShare, "latest", model.Ptr("earliest"), model.ResetEarliest, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := typedFixture(c.typ)
			in.AssumeReset, in.ShareAutoOffsetReset = c.flag, c.shareReset
			p := Make(in2, mustStrategy(t, ToEarliest, ""), in)
			if p.AssumeReset != c.want || p.Totals.Duplicates != c.dups || len(p.Rows) != 1 {
				t.Fatalf("assume %s duplicates %v, want %s %d; rows %+v blockers %+v", p.AssumeReset, p.Totals.Duplicates, c.want, c.dups, p.Rows, p.Blockers)
			}
			other := model.ResetEarliest
			if c.want == other {
				other = model.ResetLatest
			}
			switched := p.WithAssumeReset(other)
			if c.typ == model.TypeShare {
				if switched.AssumeReset != c.want || !p.OwnAssumption() {
					t.Errorf("a share plan switched to %s", switched.AssumeReset)
				}
			} else if switched.AssumeReset != other {
				t.Errorf("switched to %s, want %s", switched.AssumeReset, other)
			}
		})
	}
}
