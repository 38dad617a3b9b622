package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestCheckMissedDeletes: a partition of a compacted topic that may have missed deletes
// fails (exit 1) with the numbers, passes with a note when the consumer does not care
// about deletes, and one whose read could not tell is incomplete.
func TestCheckMissedDeletes(t *testing.T) {
	compact := model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact"), DeleteRetentionMs: model.Ptr(int64(1000))}
	flagged := ckPart(0, 0, 59, model.Ptr(int64(20)), model.StatusOK)
	flagged.SetCompaction(&model.Compaction{NextStored: model.Ptr(int64(32)), Removed: model.Ptr(int64(12)), StoredRecords: model.Ptr(int64(4)),
		DeleteRetentionMs: model.Ptr(int64(1000)), MayMissDeletes: true, Why: []string{model.CompactionWhyRemoved}})
	unknown := ckPart(0, 0, 59, model.Ptr(int64(20)), model.StatusOK)
	unknown.SetCompaction(&model.Compaction{Why: []string{}, Unknown: model.Ptr("not read: --fetch-budget")})
	fine := ckPart(0, 0, 59, model.Ptr(int64(0)), model.StatusOK)
	fine.SetCompaction(&model.Compaction{Why: []string{}})
	cases := []struct {
		name    string
		p       model.GroupPartition
		ignore  bool
		verdict Verdict
		reason  string
		note    string
	}{
		{"flagged fails", flagged, false, VerdictFail, CodeMissedDeletes, ""},
		{"flagged, consumer does not care: passes with a note", flagged, true, VerdictPass, "", CodeMissedDeletes},
		{"unknown is incomplete", unknown, false, VerdictIncomplete, CodeDeletesUnknown, ""},
		{"unknown, consumer does not care: passes with a note", unknown, true, VerdictPass, "", CodeDeletesUnknown},
		{"at the first offset passes", fine, false, VerdictPass, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(one(c.p, compact), "g", Options{IgnoreMissedDeletes: c.ignore})
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: %+v", r.Verdict, c.verdict, r.Partitions)
			}
			p := r.Partitions[0]
			if c.reason != "" && !slices.Contains(codes(p.Reasons), c.reason) {
				t.Errorf("reasons %v, want %s", codes(p.Reasons), c.reason)
			}
			if c.note != "" && !slices.Contains(codes(p.Notes), c.note) {
				t.Errorf("notes %v, want %s", codes(p.Notes), c.note)
			}
		})
	}
	r := Check(one(flagged, compact), "g", Options{})
	if msg := r.Partitions[0].Reasons[0].Message; !strings.Contains(msg, "20..31") || !strings.Contains(msg, "next stored is 32") {
		t.Errorf("the reason does not give the numbers: %s", msg)
	}
}
