package plan

// Deleting a group (offsettui delete-group, DeleteGroups, as kafka-consumer-groups,
// kafka-share-groups.sh and kafka-streams-groups.sh --delete do). Only an Empty group, as a
// reset (guardBlockers): the broker refuses a group with members anyway (NON_EMPTY_GROUP).
// Its rows are every commit the group has (a share group: every start offset; a streams
// group: its commits on every topic, not only the input topics), each deleted with it,
// backed up first; the undo restores them into the same name, which creates the group
// again (a share group with AlterShareGroupOffsets). docs/resets.md#deleting-a-group.

// DeleteGroup is the kind of a delete-group plan; it is not a reset strategy.
const DeleteGroup StrategyKind = "delete-group"

// DeleteGroupStrategy is the strategy of a delete-group plan.
func DeleteGroupStrategy() Strategy { return Strategy{Kind: DeleteGroup} }

// DeleteGroupScope is the scope of a delete-group plan: every commit of the group.
var DeleteGroupScope = Scope{AllTopics: true}
