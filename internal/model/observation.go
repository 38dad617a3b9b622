package model

import "time"

// Observation is what internal/kafka read from a cluster, unclassified.
// internal/model/assemble turns it into a Snapshot; keeping the two apart lets every
// classification rule be tested without a broker.
type Observation struct {
	Bootstrap string
	// ClusterID is the id the brokers report, nil when not read.
	ClusterID *string
	Brokers   int
	// AllTopicsVisible: see Cluster.AllTopicsVisible.
	AllTopicsVisible *bool
	// APIVersions are the cluster's request versions (capabilities.go); nil when no broker
	// answered ApiVersions.
	APIVersions APIVersions
	TakenAt     time.Time
	// RiskWindow is the window the risk offsets were looked up for.
	RiskWindow              time.Duration
	OffsetsRetentionMinutes *int64
	// OffsetsRetentionCheckIntervalMs: see Cluster.
	OffsetsRetentionCheckIntervalMs *int64
	// ListingErrors say why some broker's groups are not listed (its ListGroups
	// failed, or it was dropped after a failure and not asked): a group no answer
	// named may still exist, coordinated by that broker. They are in Errors too.
	ListingErrors []Error
	Groups        []GroupObservation
	Topics        map[string]Topic
	Offsets       map[TP]PartitionOffsets
	// CommittedTimestamps holds the timestamp of the record at a committed offset,
	// keyed by partition and offset, for the ones that were fetched.
	CommittedTimestamps map[TPO]time.Time
	// Markers holds, per partition and committed offset, what lies between the offset and
	// the high watermark where a read_committed fetch found transaction markers and aborted
	// records only (markers.go).
	Markers map[TPO]TransactionMarkers
	// MarkersUnknown says, per partition and committed offset that may lie before markers
	// alone, why that could not be told (a failed fetch, an answer that did not reach high).
	MarkersUnknown map[TPO]string
	// Compacted holds the reads at committed offsets of compacted topics (compaction.go).
	Compacted map[TPO]CompactedRead
	Errors    []Error
}

// TPO names one offset of one partition.
type TPO struct {
	TP
	Offset int64
}

// GroupObservation is one group as listed, described and offset-fetched.
type GroupObservation struct {
	Group string
	Type  string
	// RawType is the type as ListGroups wrote it ("Share"), kept for messages about a
	// type offsettui does not know.
	RawType      string
	State        string
	ProtocolType string
	Protocol     string
	Coordinator  int32
	// Listed is whether a broker's ListGroups reported the group; a group that
	// no broker lists does not exist (for a reset, it may be created).
	Listed  bool
	Members []Member
	// Committed holds the group's committed offsets; nil when they could not be read
	// (then Error says why).
	Committed map[TP]int64
	Error     *Error
	// DescribeError is set when members and state could not be read; it is kept
	// apart from Error because describing and offset fetching run concurrently.
	DescribeError *Error

	// Share groups: StartOffsets holds the share-partition start offsets
	// (DescribeShareGroupOffsets) in place of Committed; Uninitialized the partitions the
	// broker lists without one; ShareLag the broker's lag where it gives one (4.2+);
	// PartitionErrors a partition the broker could not answer for.
	StartOffsets         map[TP]int64
	Uninitialized        []TP
	ShareLag             map[TP]int64
	PartitionErrors      map[TP]Error
	ShareAutoOffsetReset *string
	// Topology is a streams group's topology.
	Topology *Topology
	// CommitLog is what __consumer_offsets says of the group (its recent commits only
	// for a group without members: committer.go); nil when not read.
	CommitLog *CommitLog
}

// PartitionOffsets are the watermarks of one partition and the result of the
// at-risk timestamp lookup.
type PartitionOffsets struct {
	Low *int64
	// LocalLow is a tiered topic's local log start (ListOffsets EARLIEST_LOCAL); nil when
	// the topic is not tiered or it was not read.
	LocalLow   *int64
	High       *int64
	LastStable *int64
	// RiskOffset is the first offset whose timestamp is at or after
	// now − retention.ms + risk window: a committed offset below it points at a
	// record that retention may delete within the window. nil when not looked up
	// (no time retention) or when the lookup failed.
	RiskOffset *int64
	Error      *Error
}

// Positions returns the group's positions: its committed offsets, or a share group's
// start offsets.
func (g *GroupObservation) Positions() map[TP]int64 {
	if g.Type == TypeShare {
		return g.StartOffsets
	}
	return g.Committed
}
