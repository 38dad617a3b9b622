package plan

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
)

// Deleting a group (offsettui delete-group, kafka-consumer-groups --delete, DeleteGroups).
// Only an Empty group, as a reset (guardBlockers): the broker refuses a group with members
// anyway (NON_EMPTY_GROUP). Its rows are every commit the group has, each deleted with it,
// backed up first; the undo restores them into the same name, which creates the group
// again. docs/resets.md#deleting-a-group.

// DeleteGroup is the kind of a delete-group plan; it is not a reset strategy.
const DeleteGroup StrategyKind = "delete-group"

// DeleteGroupStrategy is the strategy of a delete-group plan.
func DeleteGroupStrategy() Strategy { return Strategy{Kind: DeleteGroup} }

// DeleteGroupScope is the scope of a delete-group plan: every commit of the group.
var DeleteGroupScope = Scope{AllTopics: true}

// shareDeleteBlockers refuses deleting a share group, or its start offsets: not supported
// yet (neither was tested against a real broker); Kafka's tool does it.
func shareDeleteBlockers(in Input, st Strategy) []Blocker {
	if in.Type != model.TypeShare {
		return nil
	}
	switch st.Kind {
	case DeleteGroup:
		return []Blocker{{Kind: BlockStrategyUnsupported, Message: fmt.Sprintf(
			"deleting share group %s is not supported yet: use %s --delete (back its start offsets up first with offsettui backup)", in.Group, shareToolName)}}
	case DeleteOffsets:
		return []Blocker{{Kind: BlockStrategyUnsupported, Message: fmt.Sprintf(
			"deleting the start offsets of share group %s is not supported yet: use %s --delete-offsets (whole topics only; back them up first with offsettui backup)", in.Group, shareToolName)}}
	}
	return nil
}
