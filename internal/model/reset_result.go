package model

import "time"

// ResetOutcome says how an execution ended; it maps onto the reset exit codes
// of docs/cli.md.
type ResetOutcome string

// Outcomes of an execution.
const (
	// OutcomeApplied: every offset written and read back equal to the plan (exit 0).
	OutcomeApplied ResetOutcome = "applied"
	// OutcomeRefused: a guard refused before anything was written (exit 3).
	OutcomeRefused ResetOutcome = "refused"
	// OutcomePartlyApplied: the broker rejected some partitions (exit 4).
	OutcomePartlyApplied ResetOutcome = "partly-applied"
	// OutcomeFailed: the commit failed as a whole or the read-back differs (exit 1).
	OutcomeFailed ResetOutcome = "failed"
)

// ExitCode maps an outcome to the reset exit codes.
func (o ResetOutcome) ExitCode() int {
	switch o {
	case OutcomeApplied:
		return 0
	case OutcomeRefused:
		return 3
	case OutcomePartlyApplied:
		return 4
	}
	return 1
}

// Meaning says what an outcome means for the group.
func (o ResetOutcome) Meaning() string {
	switch o {
	case OutcomeApplied:
		return "every offset was written and read back equal to the plan"
	case OutcomeRefused:
		return "nothing was written"
	case OutcomePartlyApplied:
		return "the broker rejected some partitions; the others were written"
	case OutcomeFailed:
		return "the commit failed or the read-back differs: compare with the backup"
	}
	return "unknown outcome"
}

// ResetResult is what an execution did: the plan as executed (backup, undo,
// verified, rejected, and the blockers that refused it), the outcome and notes.
type ResetResult struct {
	Plan    Plan
	Outcome ResetOutcome
	Notes   []string
}

// Backup is one backup file a reset wrote: the offsets of a group before it.
type Backup struct {
	Path string
	// Taken is when the backup was written (from its name).
	Taken time.Time
}
