package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// shareSnap is a snapshot of one Empty share group "g" whose share.auto.offset.reset is
// reset (nil: unreadable) with one partition of topic t.
func shareSnap(p model.GroupPartition, reset *string) model.Snapshot {
	if p.Committed != nil { // ckPart builds consumer partitions: move the position over
		p.SetStartOffset(p.Committed)
		p.Committed = nil
	}
	s := one(p)
	s.Groups[0].Type, s.Groups[0].ShareAutoOffsetReset, s.Groups[0].OffsetsExpireAfterMs = model.TypeShare, reset, nil
	return s
}

func TestCheckShareGroup(t *testing.T) {
	for _, c := range []struct {
		name    string
		part    model.GroupPartition
		reset   *string
		verdict Verdict
		codes   []string
		want    string // in the first reason or note
	}{
		{"start offset within [low, high]", ckPart(0, 0, 100, model.Ptr(int64(90)), model.StatusOK), model.Ptr("latest"), VerdictPass, []string{}, ""},
		{"start offset below low: records deleted undelivered", ckPart(0, 30, 40, model.Ptr(int64(12)), model.StatusExpired), model.Ptr("latest"),
			VerdictFail, []string{CodeExpired}, "deleted before the share group delivered them"},
		{"start offset above high", ckPart(0, 0, 20, model.Ptr(int64(30)), model.StatusAhead), model.Ptr("latest"), VerdictFail, []string{CodeAhead}, "start offset 30 is 10 beyond"},
		{"no start offset, share.auto.offset.reset=earliest, log from 0", ckPart(0, 0, 5, nil, model.StatusMissing), model.Ptr("earliest"), VerdictPass, []string{}, ""},
		{"no start offset, share.auto.offset.reset=latest", ckPart(0, 0, 5, nil, model.StatusMissing), model.Ptr("latest"), VerdictFail, []string{CodeMissing},
			"share.auto.offset.reset=latest (the group's config on the broker) starts at the end"},
		{"no start offset, by_duration", ckPart(0, 0, 5, nil, model.StatusMissing), model.Ptr("by_duration:PT1H"), VerdictFail, []string{CodeMissing}, "the last PT1H"},
		{"no start offset, earliest, but the log starts later", ckPart(0, 3, 5, nil, model.StatusMissing), model.Ptr("earliest"), VerdictFail, []string{CodeMissing}, "records 0..2 were deleted"},
		{"no start offset, config unreadable: cannot prove", ckPart(0, 0, 5, nil, model.StatusMissing), nil, VerdictIncomplete, []string{CodeShareResetUnknown}, "could not be read"},
		{"no start offset, a config value offsettui does not know", ckPart(0, 0, 5, nil, model.StatusMissing), model.Ptr("sometimes"), VerdictIncomplete, []string{CodeShareResetUnknown}, `"sometimes"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Check(shareSnap(c.part, c.reset), "g", Options{AssumeReset: model.ResetEarliest})
			if r.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s (%s)", r.Verdict, c.verdict, r.Summary)
			}
			p := r.Partitions[0]
			if got := codes(p.Reasons); !slices.Equal(got, c.codes) {
				t.Errorf("reasons %v, want %v", got, c.codes)
			}
			if c.want != "" && (len(p.Reasons) == 0 || !strings.Contains(p.Reasons[0].Message, c.want)) {
				t.Errorf("first reason %+v, want it to say %q", p.Reasons, c.want)
			}
			if p.Committed != nil || (c.part.Committed != nil && p.StartOffset == nil) {
				t.Errorf("committed %v start %v: a share partition has a start offset, never a committed offset", p.Committed, p.StartOffset)
			}
			if len(r.Notes) == 0 || r.Notes[0].Code != "share-auto-offset-reset" {
				t.Errorf("notes %+v, want the share.auto.offset.reset note first", r.Notes)
			}
		})
	}
}

// TestCheckShareIgnoresAssumeReset: --assume-reset earliest does not turn a share group's
// latest into a pass.
func TestCheckShareIgnoresAssumeReset(t *testing.T) {
	r := Check(shareSnap(ckPart(0, 0, 5, nil, model.StatusMissing), model.Ptr("latest")), "g", Options{AssumeReset: model.ResetEarliest})
	if r.Verdict != VerdictFail {
		t.Errorf("verdict %s, want fail: the group's own share.auto.offset.reset=latest skips the stored records", r.Verdict)
	}
}
