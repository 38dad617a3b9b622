package model

import "time"

// Meaning says what an outcome means for the group, in a line.
func (o ResetOutcome) Meaning() string {
	switch o {
	case OutcomeApplied:
		return "every offset was written and read back equal to the plan"
	case OutcomeRefused:
		return "nothing was written"
	case OutcomePartlyApplied:
		return "some partitions were written, others refused by the broker or changed since"
	case OutcomeFailed:
		return "what was written cannot be told for some partition: compare with the backup"
	}
	return "unknown outcome"
}

// ResetResult is what an execution did: the plan as executed (backup, undo,
// each row's result, and the blockers that refused it), the outcome and notes.
type ResetResult struct {
	Plan    Plan
	Outcome ResetOutcome
	Notes   []string
}

// Backup is one backup a reset wrote: the offsets of a group before it.
type Backup struct {
	Path string
	// Taken is when the backup was written.
	Taken time.Time
}
