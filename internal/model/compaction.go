package model

import (
	"time"
)

// CompactedRead is what a Fetch from a committed offset of a compacted topic returned
// (internal/kafka/logread/compacted.go): where the records still stored begin and how many lie
// between the commit and the high watermark, as far as the bytes read reached.
type CompactedRead struct {
	// Gap counts the offsets from the committed one on that hold no record (the cleaner
	// removed them), as far as the read reached; GapComplete says the read reached the
	// next stored record or the high watermark, so Gap is exact.
	Gap         int64
	GapComplete bool
	// NextStoredAt is the timestamp of the first data record at or after the committed
	// offset (the next the consumer reads), when one was read.
	NextStoredAt *time.Time
	// Stored counts the data records from the committed offset up to the high watermark
	// that the read covered; StoredComplete says it reached the high watermark.
	Stored         int64
	StoredComplete bool
	// Error is why the partition could not be read (it is then unknown).
	Error *Error
	// NotRead says why the partition was not examined (the fetch budget, no leader):
	// no read failed, yet nothing is known.
	NotRead string
}

// Compaction is what a group partition on a compacted topic shows: whether the group may
// have missed deletes (tombstones the cleaner removed before it read them) and the
// numbers behind it (docs/statuses.md, "Compacted topics"). It is null in JSON for a
// topic that does not compact and for a partition with nothing unread.
type Compaction struct {
	// NextStored is the first offset at or after the committed one that still holds a
	// record: the next the consumer reads (high when nothing is stored). Null when the
	// read did not reach it.
	NextStored *int64 `json:"nextStored"`
	// Removed counts the offsets from the committed one to NextStored without a record;
	// RemovedAtLeast is the count so far when the read did not reach NextStored.
	Removed        *int64 `json:"removed"`
	RemovedAtLeast *int64 `json:"removedAtLeast"`
	// StoredRecords counts the records still stored between the committed offset and
	// high (lag counts offsets); StoredRecordsAtLeast holds the count so far when the
	// bytes read did not reach high.
	StoredRecords        *int64 `json:"storedRecords"`
	StoredRecordsAtLeast *int64 `json:"storedRecordsAtLeast"`
	// TimeLagFrom is the offset of the record the time lag is measured from: the first
	// data record stored at or after the committed offset, newer than any removed before it.
	TimeLagFrom *int64 `json:"timeLagFrom"`
	// DeleteRetentionMs is the topic's delete.retention.ms.
	DeleteRetentionMs *int64 `json:"deleteRetentionMs"`
	// MayMissDeletes: the group has read from the partition (committed above its first
	// offset) and records were removed at its position, or the record it reads next is
	// older than delete.retention.ms; Why names which (CompactionWhy*).
	MayMissDeletes bool     `json:"mayMissDeletes"`
	Why            []string `json:"why"`
	// Unknown says why whether the group may miss deletes could not be told.
	Unknown *string `json:"unknown"`
}

// Why codes of Compaction.
const (
	// CompactionWhyRemoved: offsets at the group's position hold no record.
	CompactionWhyRemoved = "removed-at-position"
	// CompactionWhyOld: the next record the group reads is older than delete.retention.ms.
	CompactionWhyOld = "older-than-delete-retention"
)

// MayMissDeletes counts the group's partitions that may have missed deletes.
func (g *Group) MayMissDeletes() int {
	n := 0
	for i := range g.Partitions {
		if cp := g.Partitions[i].Compaction(); cp != nil && cp.MayMissDeletes {
			n++
		}
	}
	return n
}
