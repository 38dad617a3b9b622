package status

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// classifyCompaction fills p.Compaction for a partition of a compacted topic with a
// commit between its log start and high watermark, from the read at the commit. A read
// that failed makes the partition unknown; one that was not made says so.
func classifyCompaction(p *model.GroupPartition, t *model.Topic, read *model.CompactedRead, now time.Time) {
	if t == nil || !t.Compacts() || p.Committed == nil || p.Low == nil || p.High == nil ||
		(p.Status != model.StatusOK && p.Status != model.StatusAtRisk) {
		return
	}
	c, low, high := *p.Committed, *p.Low, *p.High
	if c < low || c >= high {
		return
	}
	cp := &model.Compaction{DeleteRetentionMs: t.DeleteRetentionMs, Why: []string{}}
	p.SetCompaction(cp)
	switch {
	case read == nil:
		cp.Unknown = model.Ptr("not read")
		return
	case read.Error != nil:
		p.Status, p.Error = model.StatusUnknown, read.Error
		cp.Unknown = model.Ptr("the read failed: " + read.Error.Message)
		return
	case read.NotRead != "":
		cp.Unknown = model.Ptr(read.NotRead)
		return
	}
	if read.GapComplete {
		cp.NextStored, cp.Removed = model.Ptr(c+read.Gap), model.Ptr(read.Gap)
	} else {
		cp.RemovedAtLeast = model.Ptr(read.Gap)
	}
	if read.StoredComplete {
		cp.StoredRecords = model.Ptr(read.Stored)
	} else {
		cp.StoredRecordsAtLeast = model.Ptr(read.Stored)
	}
	if p.TimeLagMs != nil && read.NextStoredAt != nil {
		cp.TimeLagFrom = cp.NextStored
	}
	if c == low {
		return // nothing read yet: the group bootstraps from the compacted state
	}
	if read.Gap > 0 {
		cp.Why = append(cp.Why, model.CompactionWhyRemoved)
	}
	drm := t.DeleteRetentionMs
	switch {
	case read.NextStoredAt != nil && drm != nil && now.Sub(*read.NextStoredAt).Milliseconds() > *drm:
		cp.Why = append(cp.Why, model.CompactionWhyOld)
	case read.NextStoredAt != nil && drm == nil && len(cp.Why) == 0:
		cp.Unknown = model.Ptr("delete.retention.ms of topic " + t.Topic + " was not read")
	}
	cp.MayMissDeletes = len(cp.Why) > 0
}
