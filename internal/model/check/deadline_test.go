package check

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestOneDeadline: an at-risk partition (next record expires in 9m36s, a stopped consumer
// assumed) whose consumer check --sample measured outrunning that record carries the time
// to loss at its rate (18m56s) as its deadline: in deadlineMs, at the head of its reason
// and in the summary line; the next record's expiry is context. Without rates the deadline
// is the expiry, said to assume a stopped consumer; with rates and no loss predicted there
// is none. The verdict is the same in each: at-risk assumes a stopped consumer.
func TestOneDeadline(t *testing.T) {
	const next, loss = 9*60_000 + 36_000, 18*60_000 + 56_000
	snap := func(pt *model.PartitionTime) model.Snapshot {
		p := model.GroupPartition{Topic: "events", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(6090)), Committed: model.Ptr(int64(49)),
			Lag: model.Ptr(int64(6041)), Status: model.StatusAtRisk, ExpiresInMs: model.Ptr(int64(next)), Time: pt}
		return model.Snapshot{
			Cluster: model.Cluster{TakenAt: model.Stamp{Time: ckNow}},
			Groups:  []model.Group{{Group: "event-sink", State: "Stable", Members: []model.Member{{}}, Partitions: []model.GroupPartition{p}}},
			Topics: []model.Topic{{Topic: "events", Partitions: 1, CleanupPolicy: "delete", RetentionMs: model.Ptr(int64(3_600_000)),
				RetentionBytes: model.Ptr(int64(-1))}},
		}
	}
	rates := &model.PartitionTime{ConsumeRate: model.Some(1.0), ProduceRate: model.Some(3.0), Evaluation: model.EvalWarn,
		Loss: &model.Loss{InMs: loss, NextExpiresInMs: next, ConsumeRate: 1, NeededRate: 3}}
	keepsUp := &model.PartitionTime{ConsumeRate: model.Some(5.0), ProduceRate: model.Some(3.0), Evaluation: model.EvalOK}
	opts := Options{RiskWindow: time.Hour}
	cases := []struct {
		name     string
		pt       *model.PartitionTime
		deadline *int64
		lead     string
	}{
		{"rates, the consumer reaches its next record in time", rates, model.Ptr(int64(loss)),
			"events-0 at-risk: at its measured rate retention deletes records the group has not read in 18m56s (record 49"},
		{"no rates", nil, model.Ptr(int64(next)), "events-0 at-risk: record 49, the next the group reads, can be deleted as soon as"},
		{"rates, never overtaken", keepsUp, nil, "events-0 at-risk: record 49, the next the group reads, can be deleted as soon as"},
	}
	for _, c := range cases {
		r := Check(snap(c.pt), "event-sink", opts)
		if r.Verdict != VerdictFail {
			t.Errorf("%s: verdict %s", c.name, r.Verdict)
		}
		if got := r.Partitions[0].DeadlineMs; (got == nil) != (c.deadline == nil) || (got != nil && *got != *c.deadline) {
			t.Errorf("%s: partition deadline %v, want %v", c.name, got, c.deadline)
		}
		if got := r.DeadlineMs; (got == nil) != (c.deadline == nil) || (got != nil && *got != *c.deadline) {
			t.Errorf("%s: deadline %v, want %v", c.name, got, c.deadline)
		}
		if !strings.Contains(r.Summary, c.lead) {
			t.Errorf("%s: summary %q\nlacks %q", c.name, r.Summary, c.lead)
		}
	}
	if r := Check(snap(nil), "event-sink", opts); !strings.Contains(r.Summary, "assuming a stopped consumer") {
		t.Errorf("without rates the summary does not say what it assumes: %q", r.Summary)
	}
}
