package status

import (
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestClassifyCompaction walks docs/statuses.md's rule for compacted topics: a group that
// has read (committed above the first offset) is flagged when records were removed at its
// position or the next record it reads is older than delete.retention.ms; a group at the
// first offset never is; a failed read is unknown, never ok.
func TestClassifyCompaction(t *testing.T) {
	drm := int64(1000)
	compact := &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact"), RetentionMs: i64(-1), RetentionBytes: i64(-1), DeleteRetentionMs: &drm}
	offs := model.PartitionOffsets{Low: i64(0), High: i64(59)}
	fresh := now.Add(-500 * time.Millisecond)
	old := now.Add(-3 * time.Second)
	read := func(gap int64, ts time.Time, stored int64) *model.CompactedRead {
		return &model.CompactedRead{Gap: gap, GapComplete: true, NextStoredAt: &ts, Stored: stored, StoredComplete: true}
	}
	cases := []struct {
		name      string
		committed int64
		topic     *model.Topic
		read      *model.CompactedRead
		flagged   bool
		why       []string
		status    model.Status
		unknown   bool
		nilResult bool
	}{
		{"tombstones removed at the position", 20, compact, read(12, fresh, 4), true, []string{model.CompactionWhyRemoved}, model.StatusOK, false, false},
		{"removed and old", 20, compact, read(12, old, 4), true, []string{model.CompactionWhyRemoved, model.CompactionWhyOld}, model.StatusOK, false, false},
		{"next record older than delete.retention.ms", 20, compact, read(0, old, 39), true, []string{model.CompactionWhyOld}, model.StatusOK, false, false},
		{"next record exactly delete.retention.ms old is not flagged", 20, compact, read(0, now.Add(-time.Second), 39), false, []string{}, model.StatusOK, false, false},
		{"nothing removed, young: not flagged", 20, compact, read(0, fresh, 39), false, []string{}, model.StatusOK, false, false},
		{"at the first offset: never flagged", 0, compact, read(12, old, 4), false, []string{}, model.StatusOK, false, false},
		{"read failed: unknown, never ok", 20, compact, &model.CompactedRead{Error: &model.Error{Kind: model.KindTimeout, Message: "slow"}}, false, []string{}, model.StatusUnknown, true, false},
		{"not read (budget): unknown flag, status kept", 20, compact, &model.CompactedRead{NotRead: "not read: --fetch-budget"}, false, []string{}, model.StatusOK, true, false},
		{"no delete.retention.ms: unknown when nothing removed", 20, &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact")}, read(0, old, 39), false, []string{}, model.StatusOK, true, false},
		{"a delete-only topic has none", 20, &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)}, read(12, old, 4), false, nil, model.StatusOK, false, true},
		{"caught up has none", 59, compact, read(0, old, 0), false, nil, model.StatusOK, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Input{Committed: i64(c.committed), Offsets: offs, Topic: c.topic, Now: now, Compacted: c.read}
			if c.read != nil && c.read.NextStoredAt != nil {
				in.CommittedTimestamp = c.read.NextStoredAt
			}
			p := classified(in)
			if p.Status != c.status {
				t.Errorf("status %s, want %s", p.Status, c.status)
			}
			cp := p.Compaction()
			if c.nilResult {
				if cp != nil {
					t.Fatalf("compaction %+v, want none", cp)
				}
				return
			}
			if cp == nil {
				t.Fatal("no compaction")
			}
			if cp.MayMissDeletes != c.flagged || !slices.Equal(cp.Why, c.why) {
				t.Errorf("flagged %v why %v, want %v %v", cp.MayMissDeletes, cp.Why, c.flagged, c.why)
			}
			if (cp.Unknown != nil) != c.unknown {
				t.Errorf("unknown %v, want %v", cp.Unknown, c.unknown)
			}
		})
	}
}

// TestClassifyCompactionNumbers: the shape's numbers (reader at 20, tombstones 20..29
// removed, the next stored at 32, 4 records of 39 offsets): lag stays Kafka's, the
// stored records and the record the time lag is measured from are given.
func TestClassifyCompactionNumbers(t *testing.T) {
	drm := int64(1000)
	ts := now.Add(-2 * time.Second)
	p := classified(Input{Committed: i64(20), Offsets: model.PartitionOffsets{Low: i64(0), High: i64(59)},
		Topic: &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact"), DeleteRetentionMs: &drm}, Now: now, CommittedTimestamp: &ts,
		Compacted: &model.CompactedRead{Gap: 12, GapComplete: true, NextStoredAt: &ts, Stored: 4, StoredComplete: true}})
	cp := p.Compaction()
	if *p.Lag != 39 || *cp.NextStored != 32 || *cp.Removed != 12 || *cp.StoredRecords != 4 || *cp.TimeLagFrom != 32 ||
		cp.StoredRecordsAtLeast != nil || cp.RemovedAtLeast != nil || *p.TimeLagMs != 2000 {
		t.Fatalf("lag %d, compaction %+v, time lag %v", *p.Lag, cp, *p.TimeLagMs)
	}
	// A read that stopped short: lower bounds, no exact numbers.
	p = classified(Input{Committed: i64(20), Offsets: model.PartitionOffsets{Low: i64(0), High: i64(59)},
		Topic: &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact"), DeleteRetentionMs: &drm}, Now: now,
		Compacted: &model.CompactedRead{Gap: 5, Stored: 0}})
	cp = p.Compaction()
	if cp.NextStored != nil || cp.Removed != nil || *cp.RemovedAtLeast != 5 || cp.StoredRecords != nil || *cp.StoredRecordsAtLeast != 0 || !cp.MayMissDeletes {
		t.Fatalf("compaction %+v", cp)
	}
}

// TestMayMissDeletesIsAProblem: a flagged partition makes its group a problem (urgency
// above none) though every status is ok.
func TestMayMissDeletesIsAProblem(t *testing.T) {
	g := model.Group{Group: "g", Members: []model.Member{}, Partitions: []model.GroupPartition{model.GroupPartition{Topic: "t", Status: model.StatusOK}.With(model.PartitionDetail{Compaction: &model.Compaction{MayMissDeletes: true}})}}
	Rollup(&g)
	if g.MayMissDeletes() != 1 || !g.HasProblem() {
		t.Fatalf("count %d, problem %v", g.MayMissDeletes(), g.HasProblem())
	}
	g.Partitions[0].Compaction().MayMissDeletes = false
	if g.HasProblem() {
		t.Fatal("an unflagged ok group is a problem")
	}
}
