package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Guards. The same checks run when a plan is made (Make) and right before the
// commit (Refresh/Drift), so the CLI and the TUI cannot disagree on them.

// maxNamedMembers bounds how many live members a blocker message lists.
const maxNamedMembers = 5

// guardBlockers returns the blockers that concern the group as a whole. A group may
// be reset when it has no members and is Empty, or does not exist (not listed;
// state "" or "Dead"); an existing group that looks Dead is refused, since a live
// consumer-protocol group can look Dead to DescribeGroups.
func guardBlockers(in Input, k StrategyKind) []Blocker {
	bs := []Blocker{}
	if in.ReadOnly {
		bs = append(bs, Blocker{Kind: BlockReadOnly,
			Message: "read-only mode (--read-only, OFFSETTUI_READ_ONLY set to anything but empty, 0, false, no or off, or a read-only context): offsettui commits nothing"})
	}
	inactive := in.State == "Empty" || (!in.GroupExists && (in.State == "" || in.State == "Dead"))
	if liveAllowed(k, planType(in.Type)) && (len(in.Members) > 0 || !inactive) {
		return bs // the broker refuses what the live group subscribes to, per partition
	}
	if len(in.Members) > 0 || !inactive {
		bs = append(bs, Blocker{Kind: BlockGroupNotEmpty, Message: notEmptyMessage(in)})
	} else if in.Committer != nil && !in.AllowCommitter {
		bs = append(bs, CommitterBlocker(in.Group, in.Committer))
	}
	return bs
}

func notEmptyMessage(in Input) string {
	state := in.State
	if state == "" {
		state = "unknown"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Assignments can only be reset if the group '%s' is inactive, but the current state is %s.", in.Group, state)
	if len(in.Members) == 0 {
		b.WriteString(" No members are listed; offsettui needs state Empty (a consumer-protocol group can look Dead to DescribeGroups while it runs).")
		return b.String()
	}
	fmt.Fprintf(&b, " Live members (%d): ", len(in.Members))
	for i, m := range in.Members {
		if i == maxNamedMembers {
			fmt.Fprintf(&b, ", and %d more", len(in.Members)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s on %s", text.OrDash(m.ClientID), text.OrDash(m.Host))
	}
	b.WriteString(". Stop them, then plan again.")
	return b.String()
}

// refreshable reports whether a row's target is re-read right before the commit:
// the "earliest" and "latest" targets, as Kafka computes them at execution time.
func (p Plan) refreshable(r Row) bool {
	return p.Strategy.Kind == ToEarliest || p.Strategy.Kind == ToLatest || r.Reason == ReasonNoCommitToLatest
}

// Drift compares state re-read right before the commit with the plan and returns
// what forbids committing now: the group guards (read-only, not empty), a committed
// offset of a planned partition that changed, appeared or disappeared, a low
// watermark that moved past a row's target, a high watermark that went back
// (truncation, recreation), partitions now missing or unreadable, and a group
// that existed when planned and is gone (the write would create it). Watermark
// growth alone is not drift; nor is the low watermark passing an earliest/latest
// target, which Refresh re-reads. now.Partitions may be nil (not re-read). A group whose
// type changed since the plan is drift too: the type chooses how the plan is written.
func (p Plan) Drift(now Input) []Blocker {
	bs := append(guardBlockers(now, p.Strategy.Kind), p.goneDrift(now)...)
	if typ := planType(now.Type); p.Type != "" && typ != p.Type {
		bs = append(bs, Blocker{Kind: BlockDrift, Message: fmt.Sprintf(
			"group %s is a %s group now, a %s group when planned: its offsets are written another way; plan again",
			p.Group, typ, p.Type)})
	}
	for _, r := range p.Rows {
		tp := r.TP()
		if now.Partitions != nil {
			if n, ok := now.Partitions[tp.Topic]; !ok || tp.Partition >= int32(n) {
				bs = append(bs, rowBlocker(BlockUnknownPartition, tp, fmt.Sprintf("%s no longer exists", tp)))
				continue
			}
		}
		if msg := commitDrift(tp, r.Committed, now.Committed); msg != "" {
			bs = append(bs, rowBlocker(BlockDrift, tp, msg))
		}
		o := now.Offsets[tp]
		if o.Error != nil || o.Low == nil || o.High == nil {
			bs = append(bs, rowBlocker(BlockUnknownOffsets, tp, fmt.Sprintf("watermarks of %s could not be re-read", tp)))
			continue
		}
		low, high := *o.Low, *o.High
		if r.High != nil && high < *r.High {
			bs = append(bs, rowBlocker(BlockDrift, tp, fmt.Sprintf(
				"high watermark of %s went back from %d to %d since the plan (truncated or recreated?)", tp, *r.High, high)))
		}
		if r.Target != nil && !p.refreshable(r) && low > *r.Target && (r.Low == nil || *r.Low <= *r.Target) {
			bs = append(bs, rowBlocker(BlockDrift, tp, fmt.Sprintf(
				"log start of %s moved from %s to %d, past the target %d: records the plan would re-read are gone",
				tp, fmtOpt(r.Low), low, *r.Target)))
		}
	}
	return bs
}

func commitDrift(tp model.TP, was *int64, now map[model.TP]int64) string {
	c, has := now[tp]
	switch {
	case was == nil && has:
		return fmt.Sprintf("%s gained a committed offset (%d) since the plan", tp, c)
	case was != nil && !has:
		return fmt.Sprintf("%s lost its committed offset (was %d) since the plan", tp, *was)
	case was != nil && c != *was:
		return fmt.Sprintf("committed offset of %s changed from %d to %d since the plan", tp, *was, c)
	}
	return ""
}

func fmtOpt(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprint(*v)
}

// Refresh returns the plan brought up to date with state re-read right before the
// commit: watermarks replaced, earliest/latest targets re-read (to-earliest,
// to-latest, and to-current rows without a commit), effects and totals recomputed,
// and Blockers set to Drift(now) plus the plan's own row blockers. Other targets
// stay as the operator confirmed them. Commit only when the result is Executable.
func (p Plan) Refresh(now Input) Plan {
	q := p
	q.State = now.State
	if at := readAt(now.ReadAt); at != nil { // the rows' offsets below are this read's
		q.ReadAt = at
	}
	if now.Committer != nil {
		q.Committer = now.Committer
	}
	q.Rows = slices.Clone(p.Rows)
	for i := range q.Rows {
		r := &q.Rows[i]
		o := now.Offsets[r.TP()]
		if o.Error != nil || o.Low == nil || o.High == nil {
			continue // Drift reports it
		}
		r.Low, r.High = model.Ptr(*o.Low), model.Ptr(*o.High)
		if r.Target != nil && p.refreshable(*r) {
			t := *o.High
			if p.Strategy.Kind == ToEarliest {
				t = *o.Low
			}
			if t != *r.Target {
				r.Target, r.TargetTimestamp = model.Ptr(t), nil
				if ts, ok := now.TargetTimestamps[model.TPO{TP: r.TP(), Offset: t}]; ok {
					r.TargetTimestamp = model.StampOf(ts)
				}
			}
		}
		if r.Reason == ReasonDelete {
			deleteRow(r, p.AssumeReset)
		} else {
			setEffects(r, p.AssumeReset)
		}
	}
	q.Totals = totals(q.Rows)
	q.Notes = slices.Clone(p.Notes)
	q.setForwardNote()
	bs := p.Drift(now)
	for _, b := range p.Blockers {
		switch {
		case b.Kind == BlockReadOnly || b.Kind == BlockGroupNotEmpty || b.Kind == BlockDrift || b.Kind == BlockCommitter:
			continue // re-evaluated by Drift
		case b.Kind == BlockUnknownOffsets && hasBlocker(bs, b):
			continue // Drift found it unreadable again
		}
		bs = append(bs, b)
	}
	q.Blockers = dedupeBlockers(bs)
	return q
}

// hasBlocker reports whether bs has a blocker of b's kind for b's partition.
func hasBlocker(bs []Blocker, b Blocker) bool {
	for _, x := range bs {
		if x.Kind == b.Kind && eqPtr(x.Topic, b.Topic) && eqPtr(x.Partition, b.Partition) {
			return true
		}
	}
	return false
}

func eqPtr[T comparable](a, b *T) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// Commits returns what executing the plan writes: the offsets to commit and, for
// restore rows with an empty offset, the partitions whose commit to delete.
func (p Plan) Commits() (commit map[model.TP]int64, del []model.TP) {
	commit = map[model.TP]int64{}
	for _, r := range p.Rows {
		switch {
		case r.Target != nil:
			commit[r.TP()] = *r.Target
		case r.deletes():
			del = append(del, r.TP())
		}
	}
	return commit, del
}

// BackupRows returns the rows of the backup to write before the commit: each
// planned partition's committed offset, empty where it had none. Restoring them
// (Restore strategy) undoes the plan.
func (p Plan) BackupRows() []CSVRow {
	out := make([]CSVRow, 0, len(p.Rows))
	for _, r := range p.Rows {
		if r.untouched() {
			continue // not written: nothing to undo
		}
		out = append(out, CSVRow{Topic: r.Topic, Partition: r.Partition, Offset: r.Committed})
	}
	return out
}

func sortTPs(tps []model.TP) { slices.SortFunc(tps, model.CompareTP) }
