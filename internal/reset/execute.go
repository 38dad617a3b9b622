package reset

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Result is a plan after Execute: the plan's rows carry their results, the plan's
// Executed, Backup, Undo, Verified and Rejected are set, Blockers hold what
// refused it, and Notes say what happened.
type Result struct {
	Plan    plan.Plan
	Outcome plan.ResetOutcome
	Notes   []string
}

// Execute carries out a confirmed plan under every guard, in this order:
//
//  1. the plan has no blockers and the service is not read-only;
//  2. the group's state is re-read: still Empty, nothing drifted;
//  3. the backup (with its manifest) is written and synced;
//  4. the intent is appended to the audit log;
//  5. the offsets are committed (admin form) and deleted, as one phase that a
//     cancelled ctx (SIGINT, SIGTERM) does not interrupt: its answer is awaited,
//     bounded by the phase's deadline;
//  6. the offsets are read back on a fresh connection, watched for Observe in case
//     a client outside the group overwrites them (committer.go), each row's result
//     comes from the broker's answer, the read-back and the watch, and the outcome is
//     audited.
//
// Between 1 and 2, the group's commits are watched for Observe and its commit history
// is asked (committer.go): a client outside the group committing for it refuses the
// write.
//
// A refusal at 1–4 writes nothing to Kafka; at 3–4 the backup is removed again.
// Kafka has no conditional commit: a commit by another client between the
// re-read (2) and the commit (5) is overwritten; the window is kept to the time
// of writing two small files (docs/resets.md).
//
// ctx cancelled before 3 (Ctrl-C, esc in the TUI, during the watch or the re-read) is a
// cancel: nothing written, no backup, outcome cancelled, one audit line saying so. From 3
// on, cancelling ctx stops nothing: the write runs to its answer.
func (s *Service) Execute(ctx context.Context, p plan.Plan) Result {
	res := Result{Plan: p, Outcome: plan.OutcomeRefused}
	if !s.precheck(&res) {
		return res
	}
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	refuse, ok := s.observeBefore(ctx, &res)
	if s.cancelled(ctx, &res, p) || !ok {
		return res
	}
	in, ok := s.reread(ctx, &res)
	if s.cancelled(ctx, &res, p) || refuseCommitter(&res, refuse) || !ok {
		return res
	}
	plan.ReportProgress(ctx, plan.Progress{Phase: plan.PhaseWrite})
	backup, ok := s.prepare(&res, in.ClusterID)
	if !ok {
		return res
	}
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	write := context.WithoutCancel(ctx)
	w := s.writerFor(res.Plan.Type)
	ans := s.write(write, w, res.Plan)
	readBack, readErr := w.readBack(write, res.Plan.Group)
	if readErr == nil {
		res.Plan.ReadBackAt = model.StampOf(s.now())
	}
	var overwritten map[model.TP]int64
	if readErr == nil {
		overwritten = s.watchAfter(ctx, &res, readBack)
	}
	s.conclude(&res, ans, readBack, readErr, overwritten, backup, in.ClusterID)
	return res
}

// cancelled reports whether the operator cancelled ctx (not its deadline) before the backup;
// then res is the plan as confirmed, outcome cancelled, and the audit log has its one line.
func (s *Service) cancelled(ctx context.Context, res *Result, p plan.Plan) bool {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return false
	}
	*res = Result{Plan: p, Outcome: plan.OutcomeCancelled, Notes: []string{"cancelled: nothing written (no backup, no commit)"}}
	if err := s.auditOutcome(*res, nil, ""); err != nil {
		res.Notes = append(res.Notes, "WARNING: the cancel could not be written to the audit log: "+err.Error())
	}
	return true
}

// precheck refuses a plan with blockers and any write in read-only mode.
func (s *Service) precheck(res *Result) bool {
	switch {
	case !res.Plan.Executable():
		res.Notes = append(res.Notes, "nothing written: the plan has blockers")
		return false
	case s.ReadOnly:
		res.Plan.Blockers = append(res.Plan.Blockers, plan.Blocker{Kind: plan.BlockReadOnly,
			Message: "read-only mode (--read-only, OFFSETTUI_READ_ONLY or a read-only context) refuses every write"})
		res.Notes = append(res.Notes, "nothing written: read-only")
		return false
	}
	return true
}

// reread re-reads state, members and commits right before the commit and brings
// the plan up to date; drift refuses.
func (s *Service) reread(ctx context.Context, res *Result) (plan.Input, bool) {
	p := res.Plan
	in, err := s.planner().read(ctx, p.Group, planTopics(p), p.Strategy)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		res.Plan.Blockers = append(res.Plan.Blockers, plan.Blocker{Kind: plan.BlockDrift,
			Message: "could not re-read the group before the commit: " + err.Error()})
		res.Notes = append(res.Notes, "nothing written: the state could not be re-read")
		return in, false
	}
	in.AssumeReset = p.AssumeReset
	if p.AllowCommitter {
		in.AllowCommitter, in.Committer = true, nil // what was seen is in the plan already
	}
	res.Plan = p.Refresh(in)
	if !res.Plan.Executable() {
		res.Notes = append(res.Notes, "nothing written: the state changed since the plan")
		return in, false
	}
	return in, true
}

// prepare writes the backup and the audit intent; without both, nothing is
// committed and no file is left behind.
func (s *Service) prepare(res *Result, clusterID *string) (string, bool) {
	p := res.Plan
	backup, err := s.writeBackup(p, p.BackupRows(), clusterID, "backup", "")
	if err == nil {
		if err = s.auditIntent(p, clusterID, backup); err != nil {
			removeBackup(backup)
			err = fmt.Errorf("no audit, no commit: %w", err)
		}
	}
	if err != nil {
		res.Plan.Blockers = append(res.Plan.Blockers, plan.Blocker{Kind: plan.BlockBackupFailed,
			Message: "nothing written: " + err.Error()})
		res.Notes = append(res.Notes, "nothing written: "+err.Error())
		return "", false
	}
	res.Plan.Backup = &backup
	return backup, true
}

// write commits the plan's offsets and deletes the commits restore rows drop, through
// the writer of the group's type (writer.go).
func (s *Service) write(ctx context.Context, w writer, p plan.Plan) plan.CommitAnswer {
	ans := plan.CommitAnswer{Rejected: map[model.TP]model.Error{}}
	commit, del := p.Commits()
	var rejected []model.Error
	var err error
	if p.Strategy.Kind == plan.DeleteGroup {
		rejected, err = sent(p.Group, del)(s.Cluster.DeleteGroup(ctx, p.Group, del))
	} else {
		rejected, err = w.write(ctx, p.Group, commit, del)
	}
	ans.RequestErr = err
	for _, e := range rejected {
		if e.Topic != nil && e.Partition != nil {
			ans.Rejected[model.TP{Topic: *e.Topic, Partition: *e.Partition}] = e
		}
	}
	return ans
}

// firstRejection is the message of one refusal, for the summary note.
func firstRejection(ans plan.CommitAnswer) string {
	for _, e := range ans.Rejected {
		return e.Message
	}
	return ""
}

// notSent is a refusal of each partition of a request that was never sent.
func notSent(group string, tps []model.TP, err error) []model.Error {
	out := make([]model.Error, 0, len(tps))
	for _, tp := range tps {
		e := model.Error{Kind: model.KindUnreachable, Message: "not sent: " + err.Error()}
		out = append(out, *e.WithPartition(tp).WithGroup(group))
	}
	return out
}

// conclude sets each row's result, the outcome, the undo and the notes, removes
// a backup nothing was written after, writes the undo file of a partial write,
// and audits the outcome.
func (s *Service) conclude(res *Result, ans plan.CommitAnswer, readBack map[model.TP]int64, readErr error, overwritten map[model.TP]int64, backup string, clusterID *string) {
	if ans.RequestErr != nil {
		res.Notes = append(res.Notes, "the commit request got no answer ("+ans.RequestErr.Error()+"); what was written comes from reading the offsets back on a fresh connection")
	}
	if readErr != nil {
		readBack = nil
		res.Notes = append(res.Notes, "could not read the offsets back: "+readErr.Error()+"; compare with the backup")
	}
	res.Outcome = res.Plan.ApplyResults(ans, readBack)
	if len(overwritten) > 0 {
		res.Outcome = res.Plan.ApplyOverwrites(overwritten)
	}
	for _, r := range res.Plan.Rows {
		if n := r.ResultNote(); n != "" {
			res.Notes = append(res.Notes, n)
		}
	}
	for _, e := range res.Plan.Rejected {
		res.Notes = append(res.Notes, "not written: "+e.Error())
	}
	switch {
	case res.Outcome == plan.OutcomeRefused:
		res.Plan.Backup = nil
		why := "the broker refused every partition"
		if ans.RequestErr == nil && len(ans.Rejected) > 0 && strings.Contains(firstRejection(ans), "not sent:") {
			why = "the request was never sent"
		}
		res.Notes = append(res.Notes, "nothing written: "+why)
		if err := removeBackup(backup); err != nil {
			res.Notes = append(res.Notes, "the unused backup "+backup+" could not be removed: "+err.Error())
		}
	case len(res.Plan.Rejected) > 0:
		s.partialUndo(res, clusterID, backup)
	default:
		s.setUndo(res, backup)
	}
	if err := s.auditOutcome(*res, clusterID, backup); err != nil {
		res.Notes = append(res.Notes, "WARNING: the outcome could not be written to the audit log: "+err.Error())
	}
}

// partialUndo writes an undo file holding only the rows offsettui may have
// written, so the undo never touches a partition the broker refused.
func (s *Service) partialUndo(res *Result, clusterID *string, backup string) {
	var rows []plan.CSVRow
	for _, r := range res.Plan.WrittenRows() {
		rows = append(rows, plan.CSVRow{Topic: r.Topic, Partition: r.Partition, Offset: r.Committed})
	}
	undo, err := s.writeBackup(res.Plan, rows, clusterID, "undo", "-undo")
	if err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("the undo file (only the written partitions) could not be written: %v; "+
			"the backup %s holds every planned partition, the refused ones too", err, backup))
		return
	}
	s.setUndo(res, undo)
}

func (s *Service) setUndo(res *Result, path string) {
	if s.UndoCommand != nil {
		u := s.UndoCommand(res.Plan.Group, path)
		res.Plan.Undo = &u
	}
}

// writeBackup writes rows as a backup of plan p to the state dir.
func (s *Service) writeBackup(p plan.Plan, rows []plan.CSVRow, clusterID *string, purpose, suffix string) (string, error) {
	dir, err := StateDir(s.BackupDir)
	if err != nil {
		return "", err
	}
	name := backupName(p.Group, s.now().UTC().Format("20060102T150405.000Z"), suffix)
	m := Manifest{Group: p.Group, ClusterID: clusterID, Bootstrap: s.clusterName(), CreatedAt: model.Stamp{Time: s.now()},
		User: s.user(), Strategy: p.Strategy, Purpose: purpose, GroupType: p.Type}
	return writeBackup(dir, name, m, rows)
}
