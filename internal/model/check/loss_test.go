package check

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestCheckTimeToLoss: with a time axis, a predicted loss within the risk
// window fails the partition with its sentence; beyond the window, or
// without a time axis, it adds nothing.
func TestCheckTimeToLoss(t *testing.T) {
	snap := func(lossIn int64, timed bool) model.Snapshot {
		p := model.GroupPartition{Topic: "events", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(3090)), Committed: model.Ptr(int64(100)),
			Lag: model.Ptr(int64(2990)), Status: model.StatusOK}
		if timed {
			p.Time = &model.PartitionTime{ETA: model.ETAStopped, Evaluation: model.EvalStopped,
				Loss: &model.Loss{InMs: lossIn, NextExpiresInMs: lossIn, NeededRate: 2}}
		}
		return model.Snapshot{
			Cluster: model.Cluster{TakenAt: model.Stamp{Time: ckNow}},
			Groups:  []model.Group{{Group: "audit", State: "Empty", Members: []model.Member{}, Partitions: []model.GroupPartition{p}}},
			Topics: []model.Topic{{Topic: "events", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(3_600_000)),
				RetentionBytes: model.Ptr(int64(-1))}},
		}
	}
	opts := Options{RiskWindow: time.Hour}
	r := Check(snap(600_000, true), "audit", opts)
	p := r.Partitions[0]
	if r.Verdict != VerdictFail || len(p.Reasons) != 1 || p.Reasons[0].Code != CodeTimeToLoss ||
		!strings.HasPrefix(p.Reasons[0].Message, "events-0: the group is stopped") || !strings.HasSuffix(p.Reasons[0].Message, "(within the 1h risk window)") {
		t.Fatalf("verdict %s, reasons %+v", r.Verdict, p.Reasons)
	}
	if p.Time == nil || p.Time.Loss.InMs != 600_000 {
		t.Errorf("the partition's time axis is not in the result: %+v", p.Time)
	}
	for _, tc := range []model.Snapshot{snap(2*3_600_000, true), snap(600_000, false)} {
		if r := Check(tc, "audit", opts); r.Verdict != VerdictPass {
			t.Errorf("verdict %s, reasons %+v", r.Verdict, r.Partitions[0].Reasons)
		}
	}
}
