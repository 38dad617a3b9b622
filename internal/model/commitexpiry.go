package model

import (
	"encoding/json"
	"fmt"
	"time"
)

// The commit-expiry clock: when the broker may delete a group's commits, by the rule of
// the group's type and state (Kafka's group coordinator: OffsetMetadataManager's
// cleanupExpiredOffsets, each group type's offsetExpirationCondition and
// isSubscribedToTopic; docs/statuses.md lists them with their sources). The times it
// counts from (a commit's time, the time a classic group became Empty) are only in
// __consumer_offsets (CommitLog); without them the clock says which time it could not know.
// Here are its values and the rule of each group; internal/model/expiry runs the clock.

// ExpiryRule names what a commit's expiry counts from. It is a small number (a
// partition row has one, docs/testing.md#speed) written as its name.
type ExpiryRule uint8

// The rules. A partition has one of the first four; a group's rule is one of them or
// ExpiryUnsubscribed (some topics never, the rest by commit time) or ExpiryUnknown.
const (
	// ExpiryNone: no rule (a partition without a commit); null in JSON.
	ExpiryNone ExpiryRule = iota
	// ExpiryEmptyTime: retention after the classic group became Empty.
	ExpiryEmptyTime
	// ExpiryCommitTime: retention after the commit was made.
	ExpiryCommitTime
	// ExpiryExpireTimestamp: at the commit's own expire timestamp (OffsetCommit v1).
	ExpiryExpireTimestamp
	// ExpiryNever: not while the group stays in its state (a member subscribes to the
	// topic, a classic group rebalances, share-group start offsets).
	ExpiryNever
	// ExpiryUnsubscribed: topics a member subscribes to never; the others by commit time.
	ExpiryUnsubscribed
	// ExpiryUnknown: the group's type, state or subscriptions could not be read.
	ExpiryUnknown
)

// expiryRuleNames are the rules' names in JSON and text, by value.
var expiryRuleNames = [...]string{"", "empty-time", "commit-time", "expire-timestamp", "never", "commit-time-unsubscribed", "unknown"}

// String is the rule's name ("" for ExpiryNone).
func (r ExpiryRule) String() string {
	if int(r) < len(expiryRuleNames) {
		return expiryRuleNames[r]
	}
	return fmt.Sprintf("ExpiryRule(%d)", uint8(r))
}

// MarshalJSON writes the rule's name, and ExpiryNone as null.
func (r ExpiryRule) MarshalJSON() ([]byte, error) {
	if r == ExpiryNone {
		return []byte("null"), nil
	}
	return json.Marshal(r.String())
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *ExpiryRule) UnmarshalJSON(b []byte) error {
	var name *string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	if name == nil || *name == "" {
		*r = ExpiryNone
		return nil
	}
	for i, n := range expiryRuleNames {
		if i > 0 && n == *name {
			*r = ExpiryRule(i)
			return nil
		}
	}
	return fmt.Errorf("unknown commit-expiry rule %q", *name)
}

// DefaultOffsetsRetention is Kafka's offsets.retention.minutes default (7 days), assumed
// where the broker's value could not be read.
const DefaultOffsetsRetention = 7 * 24 * time.Hour

// CommitExpiry is a group's commit-expiry clock, beside Group.CommitsExpireAt.
type CommitExpiry struct {
	Rule ExpiryRule `json:"rule"`
	// EmptySince is when a classic group became Empty (__consumer_offsets); null when not
	// Empty or not known.
	EmptySince *Stamp `json:"emptySince"`
	// UnknownTime names the time the clock counts from that could not be read
	// (ExpiryCommitTime or ExpiryEmptyTime), "" when every time was known; Latest is
	// then the latest the first deletion can come: commits made (or the group Empty)
	// no later than now expire no later than now + retention.
	UnknownTime ExpiryRule `json:"unknownTime"`
	Latest      *Stamp     `json:"latest"`
	// Expiring counts the partitions whose commits the broker may delete within the
	// snapshot's risk window (each for sure, known or bounded by Latest): a problem.
	Expiring int `json:"expiring"`
	// ExpiringInMs is how long after the snapshot the first of those may go (its time,
	// or Latest when its time is unknown; 0 when due); null when none is expiring. The
	// urgency order ranks the group by it.
	ExpiringInMs *int64 `json:"expiringInMs"`
	// RetentionMs is offsets.retention.minutes in ms, RetentionAssumed true when it is
	// Kafka's default because the broker's value could not be read; CheckIntervalMs is
	// offsets.retention.check.interval.ms, null when not read.
	RetentionMs      int64  `json:"retentionMs"`
	RetentionAssumed bool   `json:"retentionAssumed"`
	CheckIntervalMs  *int64 `json:"checkIntervalMs"`
	// CommitLog is the status of the group's __consumer_offsets read (CommitLog*),
	// CommitLogReason why it was not read whole.
	CommitLog       string  `json:"commitLog"`
	CommitLogReason *string `json:"commitLogReason"`
}

// CommitsExpiring reports whether the broker may delete some of the group's commits
// within the risk window.
func (g *Group) CommitsExpiring() bool { return g.CommitsExpiry != nil && g.CommitsExpiry.Expiring > 0 }

// ExpiryRule is the rule of the group's type and state, with what it subscribes to
// (subs: Group.Subscriptions, the rule Kafka's isSubscribedToTopic follows); described
// says whether the group could be described.
func (g *Group) ExpiryRule(subs Subscriptions, described bool) ExpiryRule {
	switch {
	case g.Type == TypeShare:
		return ExpiryNever // start offsets live in __share_group_state and do not expire
	case g.Type == TypeClassic && g.ProtocolType == "" && described:
		return ExpiryCommitTime // a simple group: only commits, never a member
	case g.Type == TypeClassic && g.State == "Empty" && described:
		return ExpiryEmptyTime
	case g.Type == TypeClassic && g.State == "Stable" && g.ProtocolType == "consumer" && subs.Known:
		return ExpiryUnsubscribed
	case g.Type == TypeClassic && described && g.State != "" && g.State != "Dead":
		// Rebalancing, a protocol type other than consumer, or subscriptions Kafka could
		// not parse: no offsetExpirationCondition.
		return ExpiryNever
	case (g.Type == TypeConsumer || g.Type == TypeStreams) && g.State == "Empty" && described:
		return ExpiryCommitTime
	case (g.Type == TypeConsumer || g.Type == TypeStreams) && subs.Known:
		return ExpiryUnsubscribed
	}
	return ExpiryUnknown
}
