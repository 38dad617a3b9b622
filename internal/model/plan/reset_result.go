package plan

import "time"

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
