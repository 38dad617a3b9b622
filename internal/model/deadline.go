package model

// One deadline per partition (docs/statuses.md#the-deadline): when records the group has
// not read may be deleted. Where the time axis has measured the group's consume rate, the
// time to loss at that rate is the deadline, and when the next record expires is context;
// without rates it is when the next record may be deleted, the consumer assumed stopped.

// DeadlineBasis says what a partition's deadline assumes.
type DeadlineBasis int8

// Deadline bases.
const (
	// DeadlineNone: no deadline (the topic does not delete by time, no commit, nothing to
	// read, or at the measured rates retention never overtakes the consumer).
	DeadlineNone DeadlineBasis = iota
	// DeadlineRates: the time to loss at the rates the time axis measured.
	DeadlineRates
	// DeadlineStopped: when the next record the group needs may be deleted, the consumer
	// assumed stopped (one snapshot: no rates).
	DeadlineStopped
)

var deadlineBasisNames = [...]string{"", "rates", "stopped-consumer"}

// String returns the basis' name ("rates", "stopped-consumer"), "" for none.
func (b DeadlineBasis) String() string { return deadlineBasisNames[b] }

// Deadline is the partition's deadline in ms from the snapshot, and what it assumes.
// A partition with measured rates has no deadline when retention never overtakes its
// consumer at them.
func (p *GroupPartition) Deadline() (ms int64, basis DeadlineBasis) {
	if t := p.Time; t != nil && t.ConsumeRate.OK {
		if t.Loss == nil {
			return 0, DeadlineNone
		}
		return t.Loss.InMs, DeadlineRates
	}
	if p.ExpiresInMs != nil {
		return *p.ExpiresInMs, DeadlineStopped
	}
	return 0, DeadlineNone
}

// ReadsBeforeExpiry reports whether, at its measured rates, the consumer reaches its next
// record before retention may delete it: "before G reads it" does not hold then, and when
// that record expires is context, not the deadline.
func (p *GroupPartition) ReadsBeforeExpiry() bool {
	t := p.Time
	if t == nil || !t.ConsumeRate.OK || p.ExpiresInMs == nil {
		return false
	}
	return t.Loss == nil || t.Loss.InMs > *p.ExpiresInMs
}
