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

// groupExpiryRule is the rule of a group's type and state, with what it subscribes to
// (Group.Subscriptions, the rule Kafka's isSubscribedToTopic follows).
func groupExpiryRule(g *Group, subs Subscriptions, described bool) ExpiryRule {
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

// expiryClock computes one group's clock while its partitions are assembled.
type expiryClock struct {
	rule      ExpiryRule
	subs      Subscriptions
	log       *CommitLog // nil unless read whole
	emptyAt   time.Time
	retention time.Duration
	now       time.Time
	horizon   time.Time // now + the risk window
	out       CommitExpiry
	earliest  time.Time
	positions int // partitions with a commit (a start offset)
	rows      int // the group's rows, for the block of stamps
	// next is the first of log.Commits not yet passed: rows come in partition order, as
	// the log's commits are, so one walk finds each row's last commit.
	next   int
	passed TP // the last partition looked up
	// stamps holds the rows' expiry times, one block per group rather than one each.
	stamps []Stamp
}

// last returns the group's last commit on tp in the commit log: by walking the log once
// while rows come in partition order, by a search otherwise.
func (c *expiryClock) last(tp TP) (CommitRecord, bool) {
	if c.log == nil {
		return CommitRecord{}, false
	}
	if c.next > 0 && CompareTP(tp, c.passed) < 0 {
		return c.log.Last(tp)
	}
	c.passed = tp
	cs := c.log.Commits
	for c.next < len(cs) && CompareTP(cs[c.next].TP, tp) < 0 {
		c.next++
	}
	if c.next < len(cs) && CompareTP(cs[c.next].TP, tp) == 0 {
		return cs[c.next], true
	}
	return CommitRecord{}, false
}

// stamp returns a pointer to at, taken from the group's block of stamps.
func (c *expiryClock) stamp(at time.Time) *Stamp {
	if len(c.stamps) == cap(c.stamps) {
		c.stamps = make([]Stamp, 0, max(c.rows, 8))
	}
	c.stamps = append(c.stamps, Stamp{at})
	return &c.stamps[len(c.stamps)-1]
}

// newExpiryClock starts the clock of grp (its type, state and members set) from its
// observation g; the group has rows partitions.
func newExpiryClock(grp *Group, g *GroupObservation, obs *Observation, rows int) *expiryClock {
	subs := grp.Subscriptions()
	c := &expiryClock{rule: groupExpiryRule(grp, subs, g.DescribeError == nil), subs: subs, now: obs.TakenAt, rows: rows,
		horizon: obs.TakenAt.Add(obs.RiskWindow), retention: DefaultOffsetsRetention}
	c.out = CommitExpiry{Rule: c.rule, CommitLog: CommitLogOff, CheckIntervalMs: obs.OffsetsRetentionCheckIntervalMs}
	if m := obs.OffsetsRetentionMinutes; m != nil {
		c.retention = time.Duration(*m) * time.Minute
	} else {
		c.out.RetentionAssumed = true
	}
	c.out.RetentionMs = c.retention.Milliseconds()
	if l := g.CommitLog; l != nil {
		c.out.CommitLog = l.Status
		if l.Reason != "" {
			c.out.CommitLogReason = Ptr(l.Reason)
		}
		if l.Complete() {
			c.log = l
		}
	}
	if c.rule == ExpiryEmptyTime && c.log != nil && c.log.Classic != nil && c.log.Classic.Members == 0 && !c.log.Classic.StateAt.IsZero() {
		c.emptyAt = c.log.Classic.StateAt
		c.out.EmptySince = &Stamp{c.emptyAt}
	}
	return c
}

// partition sets a partition's clock from its position (nil: no commit, no clock).
func (c *expiryClock) partition(p *GroupPartition, position *int64) {
	if position == nil {
		return
	}
	c.positions++
	by := c.rule
	switch c.rule {
	case ExpiryUnknown:
		return
	case ExpiryNever:
		p.CommitsExpireBy = ExpiryNever
		return
	case ExpiryUnsubscribed:
		by = ExpiryCommitTime
		if c.subs.Has(p.Topic) {
			by = ExpiryNever
		}
	}
	if by == ExpiryNever {
		p.CommitsExpireBy = by
		return
	}
	var (
		at    time.Time
		known bool
	)
	last, inLog := c.last(p.TP())
	switch {
	case inLog && !last.ExpiresAt.IsZero():
		by, at, known = ExpiryExpireTimestamp, last.ExpiresAt, true
	case by == ExpiryEmptyTime && !c.emptyAt.IsZero():
		at, known = c.emptyAt.Add(c.retention), true
	case by == ExpiryEmptyTime && inLog && c.log.Classic != nil && c.log.Classic.StateAt.IsZero():
		// An old GroupMetadata value without a state time: Kafka counts from the commit.
		at, known = last.CommittedAt.Add(c.retention), true
	case by == ExpiryCommitTime && inLog:
		at, known = last.CommittedAt.Add(c.retention), true
	}
	p.CommitsExpireBy = by
	if !known {
		c.out.UnknownTime = by
		if c.out.Latest == nil { // the same for every partition: allocated once
			c.out.Latest = &Stamp{c.now.Add(c.retention)}
		}
		c.expiring(c.out.Latest.Time)
		return
	}
	p.CommitsExpireAt = c.stamp(at)
	if c.earliest.IsZero() || at.Before(c.earliest) {
		c.earliest = at
	}
	c.expiring(at)
}

// expiring counts a commit that may go at at when that is within the risk window.
func (c *expiryClock) expiring(at time.Time) {
	if at.After(c.horizon) {
		return
	}
	c.out.Expiring++
	in := max(0, at.Sub(c.now).Milliseconds())
	if c.out.ExpiringInMs == nil || in < *c.out.ExpiringInMs {
		c.out.ExpiringInMs = &in
	}
}

// finish sets the group's clock: a group without a commit has none.
func (c *expiryClock) finish(grp *Group) {
	if c.positions > 0 {
		out := c.out
		grp.CommitsExpiry = &out
	}
	if !c.earliest.IsZero() {
		grp.CommitsExpireAt = &Stamp{c.earliest}
	}
}
