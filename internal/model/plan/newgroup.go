package plan

import "fmt"

// A group that does not exist. Kafka creates a group on its first offset
// commit: a reset of a group no broker lists writes a new group, which is
// what a typo in --group does silently. The rule (docs/resets.md): a plan for
// such a group is blocked unless it is meant to create it — asked with
// --allow-new-group, the restore of the group's own backup (the undo of
// deleting it), or positions copied from another group — and a plan that
// creates it says so in a note.

// BlockGroupNotFound: no broker lists the group; writing would create it.
const BlockGroupNotFound BlockerKind = "group-not-found"

// NoteKind classifies a note: what a plan does that its rows do not say.
type NoteKind string

// Note kinds.
const (
	// NoteNewGroup: the plan creates the group (it does not exist).
	NoteNewGroup NoteKind = "new-group"
	// NoteTargetExpires: a target record may itself be deleted by retention soon.
	NoteTargetExpires NoteKind = "target-expires"
)

// Note is something a plan does, or risks, that is no reason to refuse it.
type Note struct {
	Kind      NoteKind `json:"kind"`
	Message   string   `json:"message"`
	Topic     *string  `json:"topic"`
	Partition *int32   `json:"partition"`
	// Partitions and Skipped are a moves-forward note's (forward.go): the partitions moved
	// forward and the records they skip; absent from other notes.
	Partitions []NotePartition `json:"partitions,omitempty"`
	Skipped    *int64          `json:"skipped,omitempty"`
	// InMs is a target-expires note's time until retention may delete the target record
	// (negative: it may already), for the line that collapses a topic's notes; not in JSON.
	InMs *int64 `json:"-"`
}

// NewGroup says what a plan means to do with a group no broker lists.
type NewGroup int

// The intents.
const (
	// NewGroupRefused: a reset of a group meant to exist (the default).
	NewGroupRefused NewGroup = iota
	// NewGroupAllowed: --allow-new-group; the plan creates the group.
	NewGroupAllowed
	// NewGroupRestore: the restore of the group's own backup, the undo of
	// deleting it.
	NewGroupRestore
	// NewGroupCopy: positions copied from another group (a restore of another
	// group's backup, reset --from-group).
	NewGroupCopy
)

// NewGroupGuard is the rule for writing to a group: when it exists (a broker
// lists it), nothing; when it does not, a blocker for a plan not meant to
// create it, else the note that says the plan creates it. Make applies it;
// a planner of another kind calls it with its own intent.
func NewGroupGuard(group string, exists bool, intent NewGroup) (*Blocker, *Note) {
	if exists {
		return nil, nil
	}
	note := func(why string) *Note {
		return &Note{Kind: NoteNewGroup, Message: fmt.Sprintf("group %s does not exist: %s creates it", group, why)}
	}
	switch intent {
	case NewGroupAllowed:
		return nil, note("--execute (allowed by --allow-new-group)")
	case NewGroupRestore:
		return nil, note("restoring its own backup (the undo of deleting it)")
	case NewGroupCopy:
		return nil, note("copying another group's positions")
	}
	return &Blocker{Kind: BlockGroupNotFound, Message: fmt.Sprintf(
		"group %s does not exist (no broker lists it): --execute would create a new group with these offsets. "+
			"Check the name; pass --allow-new-group if a new group is what you mean", group)}, nil
}

// GroupMissing reports whether the plan is for a group no broker lists
// (blocked for it, or made to create it).
func (p Plan) GroupMissing() bool {
	for _, b := range p.Blockers {
		if b.Kind == BlockGroupNotFound {
			return true
		}
	}
	return p.createsGroup()
}

// createsGroup reports whether the plan was made to create its group.
func (p Plan) createsGroup() bool {
	for _, n := range p.Notes {
		if n.Kind == NoteNewGroup {
			return true
		}
	}
	return false
}

// goneDrift is the drift of a group that existed when planned and is gone
// now: the write would create it again.
func (p Plan) goneDrift(now Input) []Blocker {
	if now.GroupExists || p.createsGroup() {
		return nil
	}
	return []Blocker{{Kind: BlockDrift, Message: fmt.Sprintf(
		"group %s no longer exists (its commits expired or were deleted since the plan): the write would create it again; plan again", p.Group)}}
}
