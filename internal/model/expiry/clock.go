package expiry

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Clock computes one group's commit-expiry clock while its partitions are assembled.
type Clock struct {
	rule      model.ExpiryRule
	subs      model.Subscriptions
	log       *model.CommitLog // nil unless read whole
	emptyAt   time.Time
	retention time.Duration
	now       time.Time
	horizon   time.Time // now + the risk window
	out       model.CommitExpiry
	earliest  time.Time
	positions int // partitions with a commit (a start offset)
	rows      int // the group's rows, for the block of stamps
	// next is the first of log.Commits not yet passed: rows come in partition order, as
	// the log's commits are, so one walk finds each row's last commit.
	next   int
	passed model.TP // the last partition looked up
	// stamps holds the rows' expiry times, one block per group rather than one each.
	stamps []model.Stamp
}

// last returns the group's last commit on tp in the commit log: by walking the log once
// while rows come in partition order, by a search otherwise.
func (c *Clock) last(tp model.TP) (model.CommitRecord, bool) {
	if c.log == nil {
		return model.CommitRecord{}, false
	}
	if c.next > 0 && model.CompareTP(tp, c.passed) < 0 {
		return c.log.Last(tp)
	}
	c.passed = tp
	cs := c.log.Commits
	for c.next < len(cs) && model.CompareTP(cs[c.next].TP, tp) < 0 {
		c.next++
	}
	if c.next < len(cs) && model.CompareTP(cs[c.next].TP, tp) == 0 {
		return cs[c.next], true
	}
	return model.CommitRecord{}, false
}

// stamp returns a pointer to at, taken from the group's block of stamps.
func (c *Clock) stamp(at time.Time) *model.Stamp {
	if len(c.stamps) == cap(c.stamps) {
		c.stamps = make([]model.Stamp, 0, max(c.rows, 8))
	}
	c.stamps = append(c.stamps, model.Stamp{Time: at})
	return &c.stamps[len(c.stamps)-1]
}

// NewClock starts the clock of grp (its type, state and members set) from its
// observation g; the group has rows partitions.
func NewClock(grp *model.Group, g *model.GroupObservation, obs *model.Observation, rows int) *Clock {
	subs := grp.Subscriptions()
	c := &Clock{rule: grp.ExpiryRule(subs, g.DescribeError == nil), subs: subs, now: obs.TakenAt, rows: rows,
		horizon: obs.TakenAt.Add(obs.RiskWindow), retention: model.DefaultOffsetsRetention}
	c.out = model.CommitExpiry{Rule: c.rule, CommitLog: model.CommitLogOff, CheckIntervalMs: obs.OffsetsRetentionCheckIntervalMs}
	if m := obs.OffsetsRetentionMinutes; m != nil {
		c.retention = time.Duration(*m) * time.Minute
	} else {
		c.out.RetentionAssumed = true
	}
	c.out.RetentionMs = c.retention.Milliseconds()
	if l := g.CommitLog; l != nil {
		c.out.CommitLog = l.Status
		if l.Reason != "" {
			c.out.CommitLogReason = model.Ptr(l.Reason)
		}
		if l.Complete() {
			c.log = l
		}
	}
	if c.rule == model.ExpiryEmptyTime && c.log != nil && c.log.Classic != nil && c.log.Classic.Members == 0 && !c.log.Classic.StateAt.IsZero() {
		c.emptyAt = c.log.Classic.StateAt
		c.out.EmptySince = &model.Stamp{Time: c.emptyAt}
	}
	return c
}

// Partition sets a partition's clock from its position (nil: no commit, no clock).
func (c *Clock) Partition(p *model.GroupPartition, position *int64) {
	if position == nil {
		return
	}
	c.positions++
	by := c.rule
	switch c.rule {
	case model.ExpiryUnknown:
		return
	case model.ExpiryNever:
		p.CommitsExpireBy = model.ExpiryNever
		return
	case model.ExpiryUnsubscribed:
		by = model.ExpiryCommitTime
		if c.subs.Has(p.Topic) {
			by = model.ExpiryNever
		}
	}
	if by == model.ExpiryNever {
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
		by, at, known = model.ExpiryExpireTimestamp, last.ExpiresAt, true
	case by == model.ExpiryEmptyTime && !c.emptyAt.IsZero():
		at, known = c.emptyAt.Add(c.retention), true
	case by == model.ExpiryEmptyTime && inLog && c.log.Classic != nil && c.log.Classic.StateAt.IsZero():
		// An old GroupMetadata value without a state time: Kafka counts from the commit.
		at, known = last.CommittedAt.Add(c.retention), true
	case by == model.ExpiryCommitTime && inLog:
		at, known = last.CommittedAt.Add(c.retention), true
	}
	p.CommitsExpireBy = by
	if !known {
		c.out.UnknownTime = by
		if c.out.Latest == nil { // the same for every partition: allocated once
			c.out.Latest = &model.Stamp{Time: c.now.Add(c.retention)}
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
func (c *Clock) expiring(at time.Time) {
	if at.After(c.horizon) {
		return
	}
	c.out.Expiring++
	in := max(0, at.Sub(c.now).Milliseconds())
	if c.out.ExpiringInMs == nil || in < *c.out.ExpiringInMs {
		c.out.ExpiringInMs = &in
	}
}

// Finish sets the group's clock: a group without a commit has none.
func (c *Clock) Finish(grp *model.Group) {
	if c.positions > 0 {
		out := c.out
		grp.CommitsExpiry = &out
	}
	if !c.earliest.IsZero() {
		grp.CommitsExpireAt = &model.Stamp{Time: c.earliest}
	}
}
