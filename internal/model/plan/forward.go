package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// What a plan does that the operator did not ask for (docs/resets.md, "Notes"): a plan that
// moves partitions forward says so in one note, and one that changes nothing is blocked.

// NoteMovesForward: the plan moves partitions forward: their consumers start past records
// they have not read (Row.Skipped). One per plan, naming the partitions and the total.
const NoteMovesForward NoteKind = "moves-forward"

// NotePartition is one partition a note names.
type NotePartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

// forwardNote is the moves-forward note of rows, or nil when none skips a record.
func forwardNote(rows []Row) *Note {
	var ps []NotePartition
	var skipped int64
	for _, r := range rows {
		if r.Skipped > 0 {
			ps = append(ps, NotePartition{r.Topic, r.Partition})
			skipped = satAdd(skipped, r.Skipped)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	names := make([]string, 0, min(len(ps), 4))
	for _, p := range ps[:min(len(ps), 3)] {
		names = append(names, model.TP{Topic: p.Topic, Partition: p.Partition}.String())
	}
	if len(ps) > 3 {
		names = append(names, fmt.Sprintf("+%d more", len(ps)-3))
	}
	return &Note{Kind: NoteMovesForward, Partitions: ps, Skipped: model.Ptr(skipped), Message: fmt.Sprintf(
		"this plan moves %d of %s forward (%s): their consumers will skip %s they have not read",
		len(ps), text.Plural(len(rows), "partition"), strings.Join(names, ", "), text.Plural(skipped, "record"))}
}

// setForwardNote puts the moves-forward note its rows call for first among p's notes, in
// place of any earlier one.
func (p *Plan) setForwardNote() {
	p.Notes = slices.DeleteFunc(p.Notes, func(n Note) bool { return n.Kind == NoteMovesForward })
	if n := forwardNote(p.Rows); n != nil {
		p.Notes = append([]Note{*n}, p.Notes...)
	}
}

// MovesForward is the plan's moves-forward note, or nil.
func (p Plan) MovesForward() *Note {
	if i := slices.IndexFunc(p.Notes, func(n Note) bool { return n.Kind == NoteMovesForward }); i >= 0 {
		return &p.Notes[i]
	}
	return nil
}

// changes reports whether writing the row changes the group: a target other than its
// commit, a first commit, or a commit deleted.
func (r Row) changes() bool {
	switch {
	case r.deletes():
		return r.Committed != nil
	case r.Target == nil:
		return false
	case r.Committed == nil:
		return true
	}
	return *r.Target != *r.Committed
}

// nothingToChange is the blocker of a plan every row of which is planned (none stopped by a
// blocker) and already at its target: executing it would write nothing new.
func nothingToChange(p Plan) *Blocker {
	if len(p.Rows) == 0 || slices.ContainsFunc(p.Blockers, func(b Blocker) bool { return b.Kind == BlockNothingToReset }) {
		return nil
	}
	for _, r := range p.Rows {
		if r.Reason == "" || r.changes() {
			return nil
		}
	}
	return &Blocker{Kind: BlockNothingToReset, Message: fmt.Sprintf(
		"nothing to change: every partition in scope is already where this plan puts it (group %s); nothing would be written", p.Group)}
}
