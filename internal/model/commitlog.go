package model

import (
	"slices"
	"time"
)

// CommitLog is what a group's records in __consumer_offsets say, read directly from the
// topic without joining the group (internal/kafka/commitlog/read.go; docs/kafka.md). Only
// __consumer_offsets holds a commit's time and the time a classic group became Empty:
// OffsetFetch and DescribeGroups carry neither. Its slices may be shared with the
// CommitLogs of other snapshots: read only.
type CommitLog struct {
	// Status says whether the group's partition of __consumer_offsets was read to the
	// high watermark the read started with (CommitLog* below); only CommitLogRead makes
	// Commits, Recent and Classic complete.
	Status string
	// Reason says, in words, why the log was not read (any Status but CommitLogRead).
	Reason string
	// Partition is the group's partition of __consumer_offsets; -1 when not known.
	Partition int32
	// ReadAt is when the read ended: every commit made before it is in Commits.
	ReadAt time.Time
	// Commits holds the group's last commit of each partition, sorted by partition. A
	// deleted commit (a tombstone: expiry, OffsetDelete, topic deletion) is absent.
	Commits []CommitRecord
	// Recent holds the group's commits made within the read's window before ReadAt
	// (oldest first per partition, sorted by partition), at most the read's cap per
	// partition (the newest kept), as far as the log cleaner has not removed them yet;
	// only for the groups the read kept history for (a snapshot: those without
	// members), from the first read that did.
	Recent []CommitRecord
	// Classic is the group's last GroupMetadata record (a classic group that ever had a
	// member); nil when there is none.
	Classic *ClassicRecord
}

// WithoutCommits is the log as a group keeps it once assembled: its Commits served the
// commit-expiry clock and go, so that a snapshot of many groups does not hold every
// commit twice over; Recent and Classic stay for the committer outside the group
// (SeenWithoutMembers).
func (l *CommitLog) WithoutCommits() *CommitLog {
	kept := *l
	kept.Commits = nil
	return &kept
}

// The values of CommitLog.Status.
const (
	// CommitLogRead: read to the high watermark fixed when the read began.
	CommitLogRead = "read"
	// CommitLogPartial: reading stopped early (the byte budget or the deadline).
	CommitLogPartial = "partial"
	// CommitLogDenied: the principal may not read __consumer_offsets.
	CommitLogDenied = "denied"
	// CommitLogFailed: the read failed (the broker's error is in Reason).
	CommitLogFailed = "failed"
	// CommitLogOff: the log was not asked for (--commit-log=off).
	CommitLogOff = "off"
	// CommitLogNotNeeded: the answer uses nothing of the group's records, so they were not
	// read: no commit of it can expire while it stands (Stable with every committed topic
	// subscribed, or rebalancing) and it has members (GroupObservation.CommitLogNeed).
	CommitLogNotNeeded = "not-needed"
)

// Complete reports whether the log was read to its end: only then do its records say
// everything the broker knows of the group.
func (l *CommitLog) Complete() bool { return l != nil && l.Status == CommitLogRead }

// Last returns the group's last commit on tp, if the log holds one.
func (l *CommitLog) Last(tp TP) (CommitRecord, bool) {
	if l == nil {
		return CommitRecord{}, false
	}
	i, ok := slices.BinarySearchFunc(l.Commits, tp, func(r CommitRecord, tp TP) int { return CompareTP(r.TP, tp) })
	if !ok {
		return CommitRecord{}, false
	}
	return l.Commits[i], true
}

// RecentOn returns the group's recent commits on tp, oldest first.
func (l *CommitLog) RecentOn(tp TP) []CommitRecord {
	if l == nil {
		return nil
	}
	lo, _ := slices.BinarySearchFunc(l.Recent, tp, func(r CommitRecord, tp TP) int { return CompareTP(r.TP, tp) })
	hi := lo
	for hi < len(l.Recent) && l.Recent[hi].TP == tp {
		hi++
	}
	return l.Recent[lo:hi]
}

// CommitRecord is one commit as __consumer_offsets holds it (OffsetCommitValue).
type CommitRecord struct {
	TP
	Offset int64
	// CommittedAt is the value's commitTimestamp: when the coordinator took the commit.
	CommittedAt time.Time
	// ExpiresAt is the value's explicit expireTimestamp (value version 1, written for
	// OffsetCommit v1 requests carrying a retention time); zero otherwise.
	ExpiresAt time.Time
	// Own: offsettui wrote it (its metadata is OwnCommitMetadata).
	Own bool
}

// ClassicRecord is a classic group's GroupMetadataValue: the coordinator writes one at
// every generation and when the group becomes Empty.
type ClassicRecord struct {
	ProtocolType string
	Generation   int32
	// Members is how many members the record lists; 0 when it was written as the group
	// became Empty.
	Members int
	// StateAt is the value's currentStateTimestamp (version 2+): when the group entered
	// the state the record was written in, the Empty time when Members is 0; zero when
	// the value is older.
	StateAt time.Time
	// WrittenAt is the record's timestamp (the coordinator's append time).
	WrittenAt time.Time
}

// CommitLogScan is what one read of __consumer_offsets cost.
type CommitLogScan struct {
	// Partitions is how many partitions of __consumer_offsets the read covered, Complete
	// how many of them it read to their end.
	Partitions, Complete int
	// Requests counts the Fetch requests, Records and Bytes the records read (keys and
	// values) and the record batches' bytes on the wire.
	Requests int
	Records  int64
	Bytes    int64
	Took     time.Duration
}
