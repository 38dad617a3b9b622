package plan

import (
	"fmt"
	"math"

	"github.com/offsettui/offsettui/internal/model"
)

// planRow computes one partition's target, reason and effects, as
// kafka-consumer-groups would.
func planRow(tp model.TP, st Strategy, in Input, fileOffset *int64) (Row, []Blocker) {
	row := Row{Topic: tp.Topic, Partition: tp.Partition}
	if c, ok := in.Committed[tp]; ok {
		row.Committed = model.Ptr(c)
	}
	o := in.Offsets[tp]
	if o.Error != nil || o.Low == nil || o.High == nil {
		why := "not read"
		if o.Error != nil {
			why = o.Error.Error()
		}
		return row, []Blocker{rowBlocker(BlockUnknownOffsets, tp,
			fmt.Sprintf("watermarks of %s are unknown (%s); offsettui never plans with guessed offsets", tp, why))}
	}
	low, high := *o.Low, *o.High
	row.Low, row.High = model.Ptr(low), model.Ptr(high)
	var block []Blocker
	switch st.Kind {
	case ToEarliest:
		row.Target, row.Reason = model.Ptr(low), ReasonAsRequested
	case ToLatest:
		row.Target, row.Reason = model.Ptr(high), ReasonAsRequested
	case ToCurrent:
		if row.Committed != nil {
			row.Target, row.Reason = model.Ptr(*row.Committed), ReasonAsRequested
		} else {
			row.Target, row.Reason = model.Ptr(high), ReasonNoCommitToLatest
		}
	case ToOffset:
		row.Target, row.Reason = clamp(st.Offset, low, high)
	case ShiftBy:
		if row.Committed == nil {
			row.Reason = ReasonNoCommitCannotShift
			block = append(block, rowBlocker(BlockNoCommitCannotShift, tp,
				fmt.Sprintf("Cannot shift offset for partition %s since there is no current committed offset", tp)))
			break
		}
		row.Target, row.Reason = clamp(satAdd(*row.Committed, st.Shift), low, high)
	case ToDatetime, ByDuration:
		to, ok := in.TimeOffsets[tp]
		switch {
		case !ok || to < -1:
			block = append(block, rowBlocker(BlockUnknownOffsets, tp,
				fmt.Sprintf("the offset of %s for time %s is unknown (lookup failed)", tp, st.Time.UTC().Format(model.StampLayout))))
		case to == -1:
			row.Target, row.Reason = model.Ptr(high), ReasonNoRecordAfterTime
		default:
			row.Target, row.Reason = model.Ptr(to), ReasonAsRequested
		}
	case FromFile:
		if fileOffset == nil { // FileStrategy refuses such files; guard hand-made strategies
			block = append(block, rowBlocker(BlockInvalidOffset, tp,
				fmt.Sprintf("%s: %s has no offset for %s", st.Kind.Flag(), st.Raw, tp)))
			break
		}
		row.Target, row.Reason = clamp(*fileOffset, low, high)
	case FromGroup:
		if fileOffset == nil {
			row.Reason = ReasonNoSourceCommit
			break
		}
		row.Target, row.Reason = clamp(*fileOffset, low, high)
	case Restore:
		row.Target, row.Reason = fileOffset, ReasonRestore
		if fileOffset != nil && *fileOffset < 0 {
			block = append(block, rowBlocker(BlockInvalidOffset, tp,
				fmt.Sprintf("%s: %s has offset %d for %s; a committed offset cannot be negative", st.Kind.Flag(), st.Raw, *fileOffset, tp)))
		}
	}
	if row.Target != nil {
		if ts, ok := in.TargetTimestamps[model.TPO{TP: tp, Offset: *row.Target}]; ok {
			row.TargetTimestamp = model.StampOf(ts)
		}
	}
	if row.LocalLow = o.LocalLow; row.Target != nil && o.LocalLow != nil {
		row.ReadsRemote = *row.Target >= low && *row.Target < *o.LocalLow
	}
	setEffects(&row, in.AssumeReset)
	return row, block
}

func rowBlocker(kind BlockerKind, tp model.TP, msg string) Blocker {
	return Blocker{Kind: kind, Message: msg, Topic: model.Ptr(tp.Topic), Partition: model.Ptr(tp.Partition)}
}

// clamp keeps a requested offset within [low, high] as Kafka's checkOffsetsRange
// does (high is checked first).
func clamp(off, low, high int64) (*int64, Reason) {
	switch {
	case off > high:
		return model.Ptr(high), ReasonClampedToHigh
	case off < low:
		return model.Ptr(low), ReasonClampedToLow
	}
	return model.Ptr(off), ReasonAsRequested
}

// setEffects computes a row's duplicates, skipped and already-lost counts: what the plan
// changes against where the group's consumers would start next without it (docs/resets.md,
// "What a plan costs"). The baseline is the row's commit, or, without one, where
// auto.offset.reset assume starts a consumer (baseline); the plan's start is its target,
// or, for a row that deletes the commit, where auto.offset.reset then starts it. Starting
// lower re-delivers the stored records between ([low, high)); starting higher skips them.
// Re-reading cannot deliver deleted records, and skipping past high skips nothing yet. So a
// write and its undo count the same records, the one's re-deliveries the other's skips.
func setEffects(r *Row, assume string) {
	r.Duplicates, r.Skipped, r.AlreadyLost = 0, 0, 0
	if r.Low == nil || r.High == nil {
		return
	}
	low, high := *r.Low, *r.High
	if r.Committed != nil {
		r.AlreadyLost = gap(low, *r.Committed)
	}
	from, to := baseline(*r, assume), r.Target
	if r.deletes() {
		to = model.Ptr(autoResetStart(low, high, assume))
	}
	if to == nil {
		return
	}
	switch t := *to; {
	case t < from:
		r.Duplicates = gap(min(from, high), max(t, low))
	case t > from:
		r.Skipped = gap(min(t, high), max(from, low))
	}
}

// baseline is where the row's consumer starts next without the plan: its commit, or where
// auto.offset.reset assume starts it.
func baseline(r Row, assume string) int64 {
	if r.Committed != nil {
		return *r.Committed
	}
	return autoResetStart(*r.Low, *r.High, assume)
}

// autoResetStart is where auto.offset.reset assume starts a consumer without a commit:
// earliest at low, latest at high. With none the consumer refuses to start; a plan's
// counts then start at low, and its notes say so (AssumeNoneNote).
func autoResetStart(low, high int64, assume string) int64 {
	if assume == model.ResetLatest || assume == "" {
		return high
	}
	return low
}

// gap returns a − b when a > b, else 0, saturating instead of overflowing.
func gap(a, b int64) int64 {
	if a <= b {
		return 0
	}
	if d := a - b; d > 0 {
		return d
	}
	return math.MaxInt64
}

// satAdd adds without wrapping around.
func satAdd(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

func totals(rows []Row) Totals {
	t := Totals{Partitions: len(rows)}
	for _, r := range rows {
		t.Duplicates = satAdd(t.Duplicates, r.Duplicates)
		t.Skipped = satAdd(t.Skipped, r.Skipped)
		t.AlreadyLost = satAdd(t.AlreadyLost, r.AlreadyLost)
	}
	return t
}

// resetStart is where auto.offset.reset assume starts the row's consumer without a
// commit: today, for a row without one, or once the plan deletes it. Nil for a row that
// keeps a commit, or for "none" (the consumer refuses to start).
func resetStart(r Row, assume string) *int64 {
	if (r.Committed != nil && !r.deletes()) || r.Low == nil || r.High == nil || assume == model.ResetNone {
		return nil
	}
	return model.Ptr(autoResetStart(*r.Low, *r.High, assume))
}

// planType is the type a plan writes as: a group that does not exist ("") becomes a
// classic one, as an offset commit makes it.
func planType(typ string) string {
	if typ == "" {
		return model.TypeClassic
	}
	return typ
}
