package report

import (
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// CommitterLine says what was seen of a client committing for a group from outside it, and
// what offsettui does about it (docs/statuses.md#committers-outside-the-group).
func CommitterLine(c *model.Committer) string {
	return "a client outside the group commits for it: " + plan.CommitterText(c) + "; offsettui refuses to reset it while it runs"
}
