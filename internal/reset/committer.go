package reset

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// The guard against committers outside the group (docs/resets.md#committers-outside-the-group).
// A consumer that commits without joining (assign() and commit) leaves the group Empty, so
// the broker takes offsettui's commit, and the consumer's next commit overwrites it. The
// executor looks for one three ways: the group's commit records in __consumer_offsets (when
// the cluster can read them: CommitHistory), a watch of its committed offsets before the
// write (Observe), and a watch after the read-back that reports an overwrite.

// DefaultObserve is how long the executor watches a group's commits before a write, and
// again after its read-back: twice Kafka's default auto.commit.interval.ms (5 s), so a
// committer at that interval commits at least once within it.
const DefaultObserve = 10 * time.Second

// observeEvery is the time between two readings of a watch.
const observeEvery = 500 * time.Millisecond

// CommitHistory is what a Cluster that can read __consumer_offsets offers (internal/kafka
// does): the commits of group, of type typ, made while it had no members, each with its
// commit time. since is the earliest time the caller knows the group to have been without
// members (zero: not known); the records themselves may know better (the time a classic
// group became Empty; a classic group that never had a member). Records it cannot read (no access, a read cut
// short) are simply not there: the other ways still watch.
type CommitHistory interface {
	CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen
}

// historySeen returns the commits the cluster's commit history shows of group (of type
// typ), or none when the cluster cannot read it.
func historySeen(ctx context.Context, cluster any, group, typ string, since time.Time) []model.CommitSeen {
	h, ok := cluster.(CommitHistory)
	if !ok {
		return nil
	}
	return h.CommitsSeen(ctx, group, typ, since)
}

// committerAtPlan is the committer the commit history shows of a group without members when
// a plan is made or re-read; nil when none, or when the group has members or takes no commits.
func (s *Planner) committerAtPlan(ctx context.Context, in plan.Input) *model.Committer {
	if !takesCommits(in.Type) || len(in.Members) > 0 || !in.GroupExists {
		return nil
	}
	return model.DetectCommitter(historySeen(ctx, s.Cluster, in.Group, in.Type, time.Time{}), time.Now())
}

// takesCommits reports whether a group of type typ has committed offsets a client outside
// it could commit: every type but share, whose start offsets the broker keeps.
func takesCommits(typ string) bool { return typ != model.TypeShare && typ != model.TypeUnknown }

// watches reports whether the executor watches p's group before and after writing.
func (s *Service) watches(p plan.Plan) bool {
	if s.Observe <= 0 || !takesCommits(p.Type) {
		return false
	}
	for _, r := range p.Rows {
		if r.Committed != nil {
			return true
		}
	}
	return false // nothing committed: no client commits for the group
}

// observeBefore watches the group's committed offsets for Observe, then asks the commit
// history, and returns what forbids the write if either shows a client committing for the
// group (nil: nothing did). ok is false, with the plan refused, when the watch failed.
func (s *Service) observeBefore(ctx context.Context, res *Result) (refuse []plan.Blocker, ok bool) {
	p := res.Plan
	if !s.watches(p) || p.AllowCommitter {
		return nil, true
	}
	start := time.Now()
	moves, _, err := s.watch(ctx, p.Group, plan.PhaseObserve, nil, nil)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		res.Plan.Blockers = append(res.Plan.Blockers, plan.Blocker{Kind: plan.BlockDrift,
			Message: "could not watch the group's commits before the write: " + err.Error()})
		res.Notes = append(res.Notes, "nothing written: the group's commits could not be watched before the write")
		return nil, false
	}
	seen := append(moves, historySeen(ctx, s.Cluster, p.Group, p.Type, start)...)
	if c := model.DetectCommitter(seen, time.Now()); c != nil {
		res.Plan.Committer = c
		return []plan.Blocker{plan.CommitterBlocker(p.Group, c)}, true
	}
	if len(moves) > 0 {
		return []plan.Blocker{plan.MovedBlocker(p.Group, len(moves), s.Observe)}, true
	}
	res.Notes = append(res.Notes, fmt.Sprintf("watched the group's commits for %s before the write: none moved", text.HumanDuration(s.Observe)))
	return nil, true
}

// refuseCommitter adds what the watch before the write found to the plan re-read after it,
// unless the group has members now (then the moves were theirs, and the plan says so), and
// reports whether it refused.
func refuseCommitter(res *Result, refuse []plan.Blocker) bool {
	if len(refuse) == 0 || slices.ContainsFunc(res.Plan.Blockers, func(b plan.Blocker) bool { return b.Kind == plan.BlockGroupNotEmpty }) {
		return false
	}
	res.Plan.Blockers = append(refuse, res.Plan.Blockers...)
	res.Notes = append(res.Notes, "nothing written: a client outside the group commits for it")
	return true
}

// watchAfter watches the group's committed offsets for Observe after the read-back, and
// returns the rows read back as written whose offsets another client changed meanwhile, with
// their new offsets. It stops at the first change, or when ctx ends (SIGINT: the process
// is leaving, and the note says the watch was cut short).
func (s *Service) watchAfter(ctx context.Context, res *Result, readBack map[model.TP]int64) map[model.TP]int64 {
	p := res.Plan
	if !s.watches(p) || readBack == nil {
		return nil
	}
	written := writtenAsPlanned(p, readBack)
	if len(written) == 0 {
		return nil
	}
	changedFrom := func(now map[model.TP]int64) map[model.TP]int64 {
		out := map[model.TP]int64{}
		for _, tp := range written {
			was, had := readBack[tp]
			if v, ok := now[tp]; ok && (!had || v != was) {
				out[tp] = v
			}
		}
		return out
	}
	_, last, err := s.watch(ctx, p.Group, plan.PhaseWatch, readBack, func(now map[model.TP]int64) bool { return len(changedFrom(now)) > 0 })
	changed := changedFrom(last)
	switch {
	case len(changed) > 0:
	case err != nil:
		res.Notes = append(res.Notes, "the watch after the write stopped early ("+err.Error()+"): an overwrite after that is not known")
	case ctx.Err() != nil:
		res.Notes = append(res.Notes, "the watch after the write was cut short: an overwrite after that is not known")
	default:
		res.Notes = append(res.Notes, fmt.Sprintf("watched the group's commits for %s after the write: nothing overwrote it", text.HumanDuration(s.Observe)))
	}
	return changed
}

// writtenAsPlanned lists the rows the read-back shows as planned: at their target, or, for
// a deletion (a row without a target: a restore's empty offset), without a commit.
func writtenAsPlanned(p plan.Plan, readBack map[model.TP]int64) []model.TP {
	var out []model.TP
	for _, r := range p.Rows {
		v, ok := readBack[r.TP()]
		switch {
		case r.Target != nil && ok && v == *r.Target, r.Target == nil && !ok:
			out = append(out, r.TP())
		}
	}
	return out
}

// watch reads group's committed offsets every observeEvery for Observe, reporting the
// countdown as phase, and returns the moves between consecutive readings and the last
// reading. The first reading is first when given (read just before), else one made at
// once. It stops early when stop says so of a reading, or ctx ends; err is a reading that
// failed.
func (s *Service) watch(ctx context.Context, group, phase string, first map[model.TP]int64, stop func(map[model.TP]int64) bool) ([]model.CommitSeen, map[model.TP]int64, error) {
	start := time.Now()
	end := start.Add(s.Observe)
	last, lastAt := first, start
	if last == nil {
		var err error
		if last, err = s.Cluster.Committed(ctx, group); err != nil {
			return nil, nil, err
		}
		lastAt = time.Now()
	}
	var moves []model.CommitSeen
	report := func(left time.Duration) {
		plan.ReportProgress(ctx, plan.Progress{Phase: phase, Left: max(0, left), Moves: len(moves)})
	}
	report(s.Observe)
	tick := time.NewTicker(observeEvery)
	defer tick.Stop()
	for time.Now().Before(end) {
		select {
		case <-ctx.Done():
			report(0)
			return moves, last, nil
		case <-tick.C:
		}
		now, err := s.Cluster.Committed(ctx, group)
		if err != nil {
			report(0)
			return moves, last, err
		}
		at := time.Now()
		if m, ok := model.MovesBetween(last, now, lastAt, at, model.SeenObservation); ok {
			moves = append(moves, m)
		}
		last, lastAt = now, at
		if stop != nil && stop(now) {
			break
		}
		if left := time.Until(end); left > 0 {
			report(left)
		}
	}
	report(0)
	return moves, last, nil
}
