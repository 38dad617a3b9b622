package display

import (
	"github.com/offsettui/offsettui/internal/model"
)

// StatusMeaning is the one-line legend of a status (docs/statuses.md has the whole rule).
func StatusMeaning(s model.Status) string {
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
