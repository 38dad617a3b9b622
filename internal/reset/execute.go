package reset

import (
	"context"

	"github.com/offsettui/offsettui/internal/model"
)

// Outcome says how an execution ended; it maps onto the reset exit codes.
type Outcome string

// Outcomes.
const (
	// Applied: every offset written and read back equal to the plan (exit 0).
	Applied Outcome = "applied"
	// Refused: a guard refused before anything was written (exit 3).
	Refused Outcome = "refused"
	// PartlyApplied: the broker rejected some partitions (exit 4).
	PartlyApplied Outcome = "partly-applied"
	// Failed: the commit failed as a whole or the read-back differs (exit 1).
	Failed Outcome = "failed"
)

// Result is a plan after Execute: the plan's Executed, Backup, Undo, Verified and
// Rejected are set, Blockers hold what refused it, and Notes say what happened.
type Result struct {
	Plan    model.Plan
	Outcome Outcome
	Notes   []string
}

// Execute carries out a confirmed plan under every guard. Nothing is written
// unless the plan has no blockers, the service is not read-only, the re-read state
// shows no drift, and the backup was written.
func (s *Service) Execute(ctx context.Context, p model.Plan) Result {
	res := Result{Plan: p, Outcome: Refused}
	if !p.Executable() {
		res.Notes = append(res.Notes, "nothing written: the plan has blockers")
		return res
	}
	if s.ReadOnly {
		res.Plan.Blockers = append(res.Plan.Blockers, model.Blocker{Kind: model.BlockReadOnly,
			Message: "read-only mode (--read-only, OFFSETTUI_READ_ONLY or a read-only context) refuses every write"})
		res.Notes = append(res.Notes, "nothing written: read-only")
		return res
	}
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	// Guard 2 and 3: re-read state, members and commits right before the commit.
	now, err := s.read(ctx, p.Group, planTopics(p), p.Strategy)
	if err != nil {
		res.Plan.Blockers = append(res.Plan.Blockers, model.Blocker{Kind: model.BlockDrift,
			Message: "could not re-read the group before the commit: " + err.Error()})
		res.Notes = append(res.Notes, "nothing written: the state could not be re-read")
		return res
	}
	q := p.Refresh(now)
	res.Plan = q
	if !q.Executable() {
		res.Notes = append(res.Notes, "nothing written: the state changed since the plan")
		s.audit(&res, "")
		return res
	}
	commit, del := q.Commits()
	// No backup, no commit.
	backup, err := s.writeBackup(q)
	if err != nil {
		res.Plan.Blockers = append(res.Plan.Blockers, model.Blocker{Kind: "backup-failed",
			Message: "nothing written: the backup could not be written: " + err.Error()})
		res.Notes = append(res.Notes, "nothing written: no backup")
		return res
	}
	res.Plan.Backup = &backup
	if s.UndoCommand != nil {
		u := s.UndoCommand(q.Group, backup)
		res.Plan.Undo = &u
	}
	res.Plan.Executed = true
	rejected, commitErr := s.Cluster.CommitOffsets(ctx, q.Group, commit)
	var rejDel []model.Error
	if commitErr != nil {
		// The request as a whole failed (timeout, connection): the broker may or
		// may not have applied it. Do not guess: read back and classify below.
		res.Notes = append(res.Notes, "the commit request failed: "+commitErr.Error()+"; reading the offsets back to see what was written")
	} else {
		var err error
		rejDel, err = s.Cluster.DeleteOffsets(ctx, q.Group, del)
		if err != nil {
			res.Notes = append(res.Notes, "deleting commits failed: "+err.Error())
			for _, tp := range del {
				e := model.Error{Kind: model.KindBroker, Message: "delete failed: " + err.Error()}
				rejDel = append(rejDel, *e.WithPartition(tp).WithGroup(q.Group))
			}
		}
	}
	res.Plan.Rejected = append(append([]model.Error{}, rejected...), rejDel...)
	readBack, err := s.Cluster.Committed(ctx, q.Group)
	if err != nil {
		res.Plan.Verified = model.Ptr(false)
		res.Notes = append(res.Notes, "could not read the offsets back: "+err.Error()+"; compare with the backup")
		res.Outcome = Failed
		s.audit(&res, backup)
		return res
	}
	diffs := q.Verify(readBack)
	res.Plan.Verified = model.Ptr(len(diffs) == 0)
	res.Notes = append(res.Notes, diffs...)
	written, unchanged := 0, 0
	for _, r := range q.Rows {
		got, has := readBack[r.TP()]
		switch {
		case r.Target != nil && has && got == *r.Target, r.Target == nil && r.Reason == model.ReasonRestore && !has:
			written++
		}
		if (r.Committed == nil && !has) || (r.Committed != nil && has && got == *r.Committed) {
			unchanged++
		}
	}
	switch {
	case *res.Plan.Verified:
		res.Outcome = Applied
	case len(q.Rows) > 0 && unchanged == len(q.Rows) && written < len(q.Rows):
		res.Outcome = Refused
		res.Plan.Executed = false
		res.Notes = append(res.Notes, "nothing written: every partition still has its previous offset")
	case written > 0 || len(res.Plan.Rejected) > 0:
		res.Outcome = PartlyApplied
	default:
		res.Outcome = Failed
	}
	if res.Outcome == Refused || res.Outcome == PartlyApplied {
		for _, e := range res.Plan.Rejected {
			res.Notes = append(res.Notes, e.Error())
		}
	}
	s.audit(&res, backup)
	return res
}

// ExitCode maps an outcome to the reset exit codes of docs/cli.md.
func (o Outcome) ExitCode() int {
	switch o {
	case Applied:
		return 0
	case Refused:
		return 3
	case PartlyApplied:
		return 4
	}
	return 1
}
