package model

// Meaning is the one-line legend of a status (docs/statuses.md has the whole rule).
func (s Status) Meaning() string {
	switch s {
	case StatusOK:
		return "everything else; lag > 0 is shown as lagging"
	case StatusAtRisk:
		return "the next record may be deleted within the risk window"
	case StatusMissing:
		return "no commit where the group reads or is assigned"
	case StatusAhead:
		return "committed > high: the consumer will reset"
	case StatusExpired:
		return "committed < low: records were deleted unread"
	default:
		return "something needed to classify could not be read"
	}
}

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
