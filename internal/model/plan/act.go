package plan

// Act is how messages name what executing a plan does: a reset, copy or restore writes
// positions; delete-offsets and delete-group delete commits (docs/resets.md), and their
// messages never speak of writing offsets.
type Act struct {
	Doing string // "writing", "deleting"
	Done  string // "written", "deleted"
	Noun  string // "the write", "the delete"
}

var (
	writeAct  = Act{Doing: "writing", Done: "written", Noun: "the write"}
	deleteAct = Act{Doing: "deleting", Done: "deleted", Noun: "the delete"}
)

// Deletes reports whether a plan of kind k deletes commits (delete-offsets, or
// delete-group with the group) rather than writing positions.
func (k StrategyKind) Deletes() bool { return k == DeleteOffsets || k == DeleteGroup }

// Act is the words of what executing a plan of kind k does.
func (k StrategyKind) Act() Act {
	if k.Deletes() {
		return deleteAct
	}
	return writeAct
}
