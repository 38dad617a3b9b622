package model

import (
	"encoding/json"
	"fmt"
	"time"
)

// TP names one topic partition.
type TP struct {
	Topic     string
	Partition int32
}

// String renders "topic-partition" as Kafka's tools do.
func (tp TP) String() string { return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition) }

// Stamp is a point in time that marshals as RFC 3339 in UTC with milliseconds,
// the one time format of offsettui's JSON.
type Stamp struct{ time.Time }

// StampLayout is the JSON time layout.
const StampLayout = "2006-01-02T15:04:05.000Z07:00"

// MarshalJSON writes e.g. "2026-11-29T08:53:36.123Z".
func (s Stamp) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(make([]byte, 0, len(StampLayout)+2)), nil
}

// AppendJSON appends the time as MarshalJSON writes it. Years 0 to 9999 are written
// digit by digit (a fleet's JSON has a million stamps); any other by time's formatter.
func (s Stamp) AppendJSON(b []byte) []byte {
	t := s.UTC()
	b = append(b, '"')
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		b = t.AppendFormat(b, StampLayout)
		return append(b, '"')
	}
	h, mi, sec := t.Clock()
	b = appendDigits(b, y, 4)
	b = appendDigits(append(b, '-'), int(mo), 2)
	b = appendDigits(append(b, '-'), d, 2)
	b = appendDigits(append(b, 'T'), h, 2)
	b = appendDigits(append(b, ':'), mi, 2)
	b = appendDigits(append(b, ':'), sec, 2)
	b = appendDigits(append(b, '.'), t.Nanosecond()/1e6, 3)
	return append(b, `Z"`...)
}

// appendDigits appends v's last n (at most 4) decimal digits, zero-padded.
func appendDigits(b []byte, v, n int) []byte {
	var buf [4]byte
	for i := n - 1; i >= 0; i-- {
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, buf[:n]...)
}

// UnmarshalJSON reads any RFC 3339 time.
func (s *Stamp) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return err
	}
	s.Time = t
	return nil
}

// StampOf returns a pointer to a Stamp of t.
func StampOf(t time.Time) *Stamp { return &Stamp{t} }

// Snapshot is everything offsettui knows about a cluster at one moment, classified.
type Snapshot struct {
	Cluster Cluster `json:"cluster"`
	Groups  []Group `json:"groups"`
	Topics  []Topic `json:"topics"`
	Errors  []Error `json:"errors"`
	// Window is what the time axis was measured over; nil for one snapshot.
	Window *Window `json:"window"`
	// Baseline is the earlier snapshot compared with (describe --baseline).
	Baseline *BaselineInfo `json:"baseline"`
	// Loading marks the groups alone, listed and described, sent ahead of the
	// snapshot while offsets and watermarks are still being read (see
	// ListedSnapshot): nothing in it is a lag, a status or a partition count.
	// It is never written out.
	Loading bool `json:"-"`
	// Unlisted are the Errors that say some broker's groups could not be listed: groups
	// may be missing from the snapshot (a backup of every group cannot claim all). They
	// are in Errors too.
	Unlisted []Error `json:"-"`
}

// Cluster describes the cluster a snapshot was taken of.
type Cluster struct {
	Bootstrap string `json:"bootstrap"`
	// ID is the cluster id the brokers report (null when not read).
	ID                      *string `json:"clusterId"`
	Brokers                 int     `json:"brokers"`
	TakenAt                 Stamp   `json:"takenAt"`
	OffsetsRetentionMinutes *int64  `json:"offsetsRetentionMinutes"`
	// OffsetsRetentionCheckIntervalMs is how often the broker deletes expired commits
	// (offsets.retention.check.interval.ms); null when not read.
	OffsetsRetentionCheckIntervalMs *int64 `json:"offsetsRetentionCheckIntervalMs"`
	// AllTopicsVisible says whether the principal can see every topic: false when
	// ACLs may hide topics from it (Kafka's OffsetFetch then leaves their commits
	// out without a word), null when it could not be determined.
	AllTopicsVisible *bool `json:"allTopicsVisible"`
	// KafkaVersion is the Kafka version line of docs/kafka.md the brokers' ApiVersions place
	// them on ("3.8-3.9"); null before 2.8 or when not known (capabilities.go).
	KafkaVersion *string `json:"kafkaVersion"`
	// Capabilities are what the brokers cannot be asked and what follows; [] when nothing is
	// missing, null when their ApiVersions could not be read.
	Capabilities []Capability `json:"capabilities"`
}

// Group is one group (of any type, model.Type*) with its classified partitions and rollups.
type Group struct {
	Group string `json:"group"`
	// Type is classic, consumer, share, streams or unknown (grouptypes.go).
	Type         string `json:"type"`
	State        string `json:"state"`
	ProtocolType string `json:"protocolType"`
	// Protocol is the assignor of a classic group ("range") or "" when unknown.
	Protocol    string   `json:"protocol"`
	Coordinator int32    `json:"coordinator"`
	Members     []Member `json:"members"`
	// TotalLag sums the positive lags of the partitions with a commit. It is null
	// when that sum would be partial: a partition's lag or the group's offsets
	// could not be read, or topics may be hidden from the principal. Then
	// TotalLagAtLeast holds the sum of what could be read (null if nothing). Both
	// are null when no partition has a lag (a group that never committed).
	TotalLag        *int64 `json:"totalLag"`
	TotalLagAtLeast *int64 `json:"totalLagAtLeast"`
	WorstStatus     Status `json:"worstStatus"`
	Counts          Counts `json:"counts"`
	// LosingNow says records the group has not read are being deleted now: a live
	// consumer is behind the log start (LiveBehindLogStart), or the group's lost count
	// grew within the last 5 minutes of snapshots (losing.go).
	LosingNow bool `json:"losingNow"`
	// LostRatePerSec is how fast the lost counts of the group's partitions grow, records per
	// second (0 when none rises); null for one snapshot, or when a count cannot be read now.
	LostRatePerSec Opt[float64] `json:"lostRatePerSec"`
	// UnsubscribedTopics lists the topics of the group's partitions that no member
	// subscribes to (sorted); counts, worst status and total lag leave them out. Null when
	// the group has no members or its subscriptions are not known (subscriptions.go).
	UnsubscribedTopics []string `json:"unsubscribedTopics"`
	// OffsetsExpireAfterMs is set for Empty groups: offsets.retention.minutes in ms.
	// When the commits go is CommitsExpireAt.
	OffsetsExpireAfterMs *int64 `json:"offsetsExpireAfterMs"`
	// CommitsExpireAt is the earliest time the broker may delete any of the group's
	// commits (deletion follows within one offsets.retention.check.interval.ms); null
	// when none expires in the group's state or when the time could not be known
	// (CommitsExpiry says which). commitexpiry.go has the rules, internal/model/expiry the
	// clock.
	CommitsExpireAt *Stamp        `json:"commitsExpireAt"`
	CommitsExpiry   *CommitExpiry `json:"commitsExpiry"`
	// ShareAutoOffsetReset is a share group's share.auto.offset.reset, a group config the
	// broker applies where a share partition has no start offset yet; null for other types
	// and when it could not be read (the snapshot's errors say why).
	ShareAutoOffsetReset *string `json:"shareAutoOffsetReset"`
	// Committer is set when a client outside the group keeps committing its offsets while
	// it has no members (committer.go); null otherwise.
	Committer *Committer `json:"committer"`
	// CommitLog is the group's records in __consumer_offsets when they were read (a group
	// without members), for the time axis to weigh with its own readings; not in the JSON.
	CommitLog *CommitLog `json:"-"`
	// Topology is a streams group's topology; null for other types.
	Topology   *Topology        `json:"topology"`
	Partitions []GroupPartition `json:"partitions"`
	Error      *Error           `json:"error"`
	// Time is the group on the time axis; nil for one snapshot.
	Time *GroupTime `json:"time"`
	// Change is what changed since the baseline; nil without one.
	Change *GroupChange `json:"change"`
	// ReadAt is when the group was read, set only when that is not the snapshot's
	// Cluster.TakenAt: the TUI reads an open group on its own and merges it into its
	// last snapshot, and its Markdown report says so. Never in JSON, whose snapshots
	// are read whole.
	ReadAt *Stamp `json:"-"`
}

// Topics returns the distinct topics of the group's partitions, in order.
func (g *Group) Topics() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range g.Partitions {
		if !seen[p.Topic] {
			seen[p.Topic] = true
			out = append(out, p.Topic)
		}
	}
	return out
}

// MemberRef identifies a group member without its assignment.
type MemberRef struct {
	MemberID string `json:"memberId"`
	ClientID string `json:"clientId"`
	Host     string `json:"host"`
}

// Member is a live group member and what it is assigned. A streams member's assignments
// are the source-topic partitions of its active tasks.
type Member struct {
	MemberRef
	Assignments []Assignment `json:"assignments"`
	// Subscription is what the member subscribes to (classic members of a Stable group and
	// consumer-protocol members); null where the broker does not say (subscriptions.go).
	Subscription *Subscription `json:"subscription"`
	// ProcessID and Tasks are set for streams members only.
	ProcessID *string `json:"processId"`
	Tasks     *Tasks  `json:"tasks"`
	// RestoreLag and TaskOffsets are a streams member's restore (restore.go): the records
	// its active tasks still restore from their changelogs (null when the broker sent no
	// offsets for them), and what it reported per task ([] when nothing). Null for other
	// members.
	RestoreLag  *int64        `json:"restoreLag"`
	TaskOffsets []TaskOffsets `json:"taskOffsets"`
}

// Assignment lists the partitions of one topic assigned to a member.
type Assignment struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

// GroupPartition is one partition as one group sees it. Pointers are null in JSON
// when the value is absent or could not be read; they are never zero-filled.
//
// The values most rows lack (a share group's start offset, a loss, a committed-record
// timestamp, transaction markers, a tiered or compacted topic's, the time axis', a
// baseline's) live in one PartitionDetail that most rows do without: 10,000 groups × 50
// partitions hold 500,000 rows (docs/testing.md#speed). They are read with the methods of
// the same names and set with their Set methods; JSON has every field in one object
// (partition_json.go).
type GroupPartition struct {
	Topic           string
	Partition       int32
	Status          Status
	CommitsExpireBy ExpiryRule // the rule CommitsExpireAt is by
	Low             *int64
	High            *int64
	LastStable      *int64
	Committed       *int64
	Lag             *int64
	// TimeLagMs is how old the committed record is (a third of a fleet's rows have it).
	TimeLagMs *int64
	// ExpiresInMs is when retention may delete the next record the group needs.
	ExpiresInMs *int64
	Member      *MemberRef
	// Subscribed says whether a member of the group subscribes to the topic; false marks
	// a partition nobody consumes, left out of the group's rollups. Null when the group has
	// no members or its subscriptions are not known.
	Subscribed *bool
	Error      *Error
	// CommitsExpireAt is when the broker may delete this commit, by the rule
	// CommitsExpireBy names (see Group.CommitsExpireAt).
	CommitsExpireAt *Stamp
	// Time is the partition on the time axis (every row of a watch, the TUI, serve); nil
	// for one snapshot.
	Time *PartitionTime

	detail *PartitionDetail
}

// PartitionDetail holds the values of a GroupPartition that most rows lack.
type PartitionDetail struct {
	// StartOffset is a share group's share-partition start offset (the first record not yet
	// delivered and acknowledged); share groups have it instead of Committed, and Lag is then
	// the broker's own count (Kafka 4.2+), null where it gives none.
	StartOffset        *int64
	Lost               *int64
	Beyond             *int64
	CommittedTimestamp *Stamp
	// TransactionMarkers is set when only transaction markers and aborted records lie
	// between the committed offset and the high watermark: Lag is then 0 (internal/model/status/markers.go).
	TransactionMarkers *TransactionMarkers
	// MarkersUnknown says why whether only transaction markers lie before high could not be
	// told where it might (no open transaction): Lag is then Kafka's.
	MarkersUnknown *string
	// LocalLow is a tiered topic's local log start (ListOffsets EARLIEST_LOCAL): records
	// below it are read from remote storage. Null when the topic is not tiered or the broker
	// could not say (the snapshot's errors say why).
	LocalLow *int64
	// ReadsRemote says the group's next record lies below LocalLow (low ≤ committed <
	// localLow): the consumer reads from remote storage. Null when either is unknown.
	ReadsRemote *bool
	// Compaction is set on a compacted topic's partition with records left to read
	// (internal/model/status/compaction.go); null otherwise.
	Compaction *Compaction
	// Change is what changed since the baseline; nil without one.
	Change *PartitionChange
}

// TP returns the partition's topic partition.
func (p *GroupPartition) TP() TP { return TP{p.Topic, p.Partition} }

// NotConsumed reports whether no member of the group subscribes to the partition's topic.
func (p *GroupPartition) NotConsumed() bool { return p.Subscribed != nil && !*p.Subscribed }

// Topic is a topic's size and the configs that decide what retention deletes. Its JSON
// (topic_json.go) adds deletedByRetention.
type Topic struct {
	Topic      string `json:"topic"`
	Partitions int    `json:"partitions"`
	// CleanupPolicy is cleanup.policy as the broker returned it: "delete", "compact",
	// "compact,delete", or "" (Kafka 4.2+, KIP-1161: neither, the log is never deleted by
	// retention); nil when it was not read.
	CleanupPolicy  *string `json:"cleanupPolicy"`
	RetentionMs    *int64  `json:"retentionMs"`
	RetentionBytes *int64  `json:"retentionBytes"`
	// DeleteRetentionMs is delete.retention.ms: how long the cleaner keeps a tombstone
	// (a null value) after a pass first retained it.
	DeleteRetentionMs *int64 `json:"deleteRetentionMs"`
	// RemoteStorage is remote.storage.enable: the topic is tiered (KIP-405), its closed
	// segments copied to remote storage.
	RemoteStorage *bool `json:"remoteStorageEnable"`
	// LocalRetentionMs and LocalRetentionBytes are local.retention.ms and .bytes: how long a
	// tiered topic keeps segments on the broker's disk once copied; -2 means the value of
	// retention.ms and retention.bytes.
	LocalRetentionMs    *int64 `json:"localRetentionMs"`
	LocalRetentionBytes *int64 `json:"localRetentionBytes"`
	Error               *Error `json:"error"`
}

// Tiered reports whether the topic is known to be tiered (remote.storage.enable=true).
func (t *Topic) Tiered() bool { return t.RemoteStorage != nil && *t.RemoteStorage }

// Deletes reports whether the cleanup policy includes delete (retention by time or size).
func (t *Topic) Deletes() bool {
	return t.CleanupPolicy != nil && policyHas(*t.CleanupPolicy, "delete")
}

// Compacts reports whether the cleanup policy includes compact.
func (t *Topic) Compacts() bool {
	return t.CleanupPolicy != nil && policyHas(*t.CleanupPolicy, "compact")
}

// ConfigKnown reports whether the topic's configs were read.
func (t *Topic) ConfigKnown() bool { return t.Error == nil && t.CleanupPolicy != nil }

// NeverDeletedText is how a topic whose cleanup.policy is empty is described everywhere.
const NeverDeletedText = "never deleted (cleanup.policy empty)"

// NeverDeleted reports whether the topic's policy is known and neither deletes nor compacts
// (cleanup.policy empty, KIP-1161): retention deletes nothing from its log, whatever
// retention.ms and retention.bytes say (a tiered topic's local segments still go by
// local.retention.*, and stay readable from remote storage).
func (t *Topic) NeverDeleted() bool { return t.ConfigKnown() && !t.Deletes() && !t.Compacts() }

// DeletedByRetention says whether retention.ms and retention.bytes delete the topic's
// records (its cleanup.policy has delete); nil when the policy is not known.
func (t *Topic) DeletedByRetention() *bool {
	if !t.ConfigKnown() {
		return nil
	}
	return Ptr(t.Deletes())
}

// Ptr returns a pointer to v; handy for the many optional numbers.
func Ptr[T any](v T) *T { return &v }

// Deref is *p, or T's zero value for nil.
func Deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// Name is how tables name a member: its client id, else its member id.
func (m *MemberRef) Name() string {
	if m.ClientID != "" {
		return m.ClientID
	}
	return m.MemberID
}
