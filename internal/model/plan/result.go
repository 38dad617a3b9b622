package plan

import (
	"errors"
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
)

// What became of an executed plan. The broker answers a commit per partition,
// and the offsets are read back afterwards on a fresh connection; a row's result
// comes from both, and the outcome of the whole reset from the rows' results.
// Nothing here guesses: a partition whose fate cannot be told is "unknown".

// ResetOutcome says how an execution ended; it decides the reset exit code.
type ResetOutcome string

// Outcomes, with their exit codes (docs/cli.md).
const (
	// OutcomeApplied: every row written and read back equal to its target (0).
	OutcomeApplied ResetOutcome = "applied"
	// OutcomeRefused: nothing written — a guard refused, or the broker refused
	// every partition (3).
	OutcomeRefused ResetOutcome = "refused"
	// OutcomePartlyApplied: some rows written, others refused by the broker or
	// changed by another client before the read-back (4).
	OutcomePartlyApplied ResetOutcome = "partly-applied"
	// OutcomeFailed: what was written cannot be told for some row (1).
	OutcomeFailed ResetOutcome = "failed"
	// OutcomeOverwritten: written and read back, then another client committed over
	// some row while the read-back watched (5).
	OutcomeOverwritten ResetOutcome = "overwritten"
	// OutcomeCancelled: the operator cancelled before the backup (Ctrl-C, or esc in the
	// TUI, during the watch before the write): nothing written, no backup (3).
	OutcomeCancelled ResetOutcome = "cancelled"
)

// WriteResult is what became of one row of an executed plan.
type WriteResult string

// Row results. The zero value (JSON null) is a row of a plan not executed.
const (
	// WriteWritten: the read-back shows the target (a deletion: no commit).
	WriteWritten WriteResult = "written"
	// WriteUnverified: the broker acknowledged it, but the offsets could not be
	// read back.
	WriteUnverified WriteResult = "written-unverified"
	// WriteChanged: the broker acknowledged it, but the read-back shows another
	// offset: a consumer of the group or another client committed since.
	WriteChanged WriteResult = "changed-since"
	// WriteRejected: the broker refused the partition; nothing was written there.
	WriteRejected WriteResult = "rejected"
	// WriteUnknown: the request got no answer and the read-back does not show the
	// target; the request may still be applied later.
	WriteUnknown WriteResult = "unknown"
	// WriteOverwritten: read back at the target, then changed by another client while
	// the read-back watched (a committer outside the group).
	WriteOverwritten WriteResult = "overwritten"
)

// MarshalJSON writes the result, or null for none.
func (w WriteResult) MarshalJSON() ([]byte, error) {
	if w == "" {
		return []byte("null"), nil
	}
	return []byte(`"` + string(w) + `"`), nil
}

// ErrNotSent marks a write request that failed before it was sent (its
// coordinator could not be found): nothing of it can land later.
var ErrNotSent = errors.New("not sent")

// CommitAnswer is what the broker said to the commit and delete requests.
type CommitAnswer struct {
	// Rejected holds the partitions the broker refused, with why.
	Rejected map[model.TP]model.Error
	// RequestErr is set when a request as a whole got no answer (timeout, lost
	// connection): then the answer says nothing, and only the read-back does.
	RequestErr error
}

// ApplyResults sets each row's Result and ReadBack from the broker's answer and
// the offsets read back afterwards (readBack nil: the read-back failed), sets
// Executed, Verified and Rejected, and returns the outcome.
func (p *Plan) ApplyResults(ans CommitAnswer, readBack map[model.TP]int64) ResetOutcome {
	count := map[WriteResult]int{}
	p.Rejected = []model.Error{}
	for i := range p.Rows {
		r := &p.Rows[i]
		r.ReadBack = nil
		if r.untouched() {
			r.Result = WriteUntouched
			continue
		}
		if readBack != nil {
			if v, ok := readBack[r.TP()]; ok {
				r.ReadBack = model.Ptr(v)
			}
		}
		r.Result = rowResult(*r, ans, readBack != nil)
		if r.Result == WriteRejected {
			p.Rejected = append(p.Rejected, ans.Rejected[r.TP()])
		}
		count[r.Result]++
	}
	n := p.writtenCount()
	p.Executed = count[WriteRejected] < n
	p.Verified = nil // never read back: not checked, neither yes nor no
	if readBack != nil {
		p.Verified = model.Ptr(count[WriteWritten] == n)
	}
	return outcome(count, n)
}

// ApplyOverwrites marks the rows written (read back at their target) that the watch after
// the read-back found at another offset, in after, as overwritten, with that offset as
// their ReadBack, and returns the outcome. after holds the offsets that changed only.
func (p *Plan) ApplyOverwrites(after map[model.TP]int64) ResetOutcome {
	count := map[WriteResult]int{}
	for i := range p.Rows {
		r := &p.Rows[i]
		if v, ok := after[r.TP()]; ok && r.Result == WriteWritten {
			r.Result, r.ReadBack = WriteOverwritten, model.Ptr(v)
		}
		count[r.Result]++
	}
	n := p.writtenCount()
	if p.Verified != nil {
		p.Verified = model.Ptr(count[WriteWritten] == n)
	}
	return outcome(count, n)
}

// writtenCount counts the rows an execution writes (all but the untouched ones).
func (p Plan) writtenCount() int {
	n := 0
	for _, r := range p.Rows {
		if !r.untouched() {
			n++
		}
	}
	return n
}

// outcome is the outcome of n rows with these results.
func outcome(count map[WriteResult]int, n int) ResetOutcome {
	switch {
	case count[WriteWritten] == n:
		return OutcomeApplied
	case count[WriteRejected] == n:
		return OutcomeRefused
	case count[WriteUnknown] > 0 || count[WriteUnverified] > 0:
		return OutcomeFailed
	case count[WriteOverwritten] > 0:
		return OutcomeOverwritten
	}
	return OutcomePartlyApplied
}

// rowResult decides one row's result; the row's ReadBack is already set.
func rowResult(r Row, ans CommitAnswer, readOK bool) WriteResult {
	if _, refused := ans.Rejected[r.TP()]; refused {
		return WriteRejected
	}
	acked := ans.RequestErr == nil
	if !readOK {
		if acked {
			return WriteUnverified
		}
		return WriteUnknown
	}
	wanted := r.Target == nil && r.ReadBack == nil || r.Target != nil && r.ReadBack != nil && *r.ReadBack == *r.Target
	switch {
	case wanted:
		return WriteWritten
	case acked:
		return WriteChanged
	}
	return WriteUnknown
}

// ResultNote explains a row's result in words, or "" when the result says it.
func (r Row) ResultNote() string {
	switch r.Result {
	case WriteChanged:
		return fmt.Sprintf("%s: written, then changed to %s before the read-back: a consumer of the group or another client committed since", r.TP(), fmtOpt(r.ReadBack))
	case WriteUnknown:
		return fmt.Sprintf("%s: the request got no answer and the read-back shows %s: it may still be applied; read the group again", r.TP(), fmtOpt(r.ReadBack))
	case WriteUnverified:
		return fmt.Sprintf("%s: acknowledged by the broker, but the offsets could not be read back", r.TP())
	case WriteOverwritten:
		return fmt.Sprintf("%s: written and read back, then overwritten with %s by a client outside the group: stop the consumer that commits for this group, then reset again", r.TP(), fmtOpt(r.ReadBack))
	}
	return ""
}

// WrittenRows returns the rows offsettui may have written: every row the broker
// did not refuse. An undo restores exactly these.
func (p Plan) WrittenRows() []Row {
	var out []Row
	for _, r := range p.Rows {
		if r.Result != WriteRejected && r.Result != WriteUntouched && r.Result != "" {
			out = append(out, r)
		}
	}
	return out
}
