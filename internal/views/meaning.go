package views

import (
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// statusMeaning is the one-line legend of a status (docs/statuses.md has the whole rule).
func statusMeaning(s model.Status) string {
	switch s {
	case model.StatusOK:
		return "everything else; lag > 0 is shown as lagging"
	case model.StatusAtRisk:
		return "the next record may be deleted within the risk window"
	case model.StatusMissing:
		return "no commit where the group reads or is assigned"
	case model.StatusAhead:
		return "committed > high: the consumer will reset"
	case model.StatusExpired:
		return "committed < low: records were deleted unread"
	default:
		return "something needed to classify could not be read"
	}
}

// outcomeMeaning says what an outcome means for the group, in a line.
func outcomeMeaning(o plan.ResetOutcome) string {
	switch o {
	case plan.OutcomeApplied:
		return "every offset was written and read back equal to the plan"
	case plan.OutcomeRefused:
		return "nothing was written"
	case plan.OutcomePartlyApplied:
		return "some partitions were written, others refused by the broker or changed since"
	case plan.OutcomeFailed:
		return "what was written cannot be told for some partition: compare with the backup"
	case plan.OutcomeOverwritten:
		return "written, then another client committed over it: stop the consumer that commits for this group, then reset again"
	}
	return "unknown outcome"
}
