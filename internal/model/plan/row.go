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
	setEffects(&row)
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

// setEffects computes a row's duplicates, skipped and already-lost counts from its
// committed offset, watermarks and target. Only stored records ([low, high)) count:
// re-reading cannot deliver deleted records, and skipping past high skips nothing
// yet. Without a commit, the records from low to the target are skipped: the
// group has read none of them, and the commit makes it start past them (what it
// would do without the commit is Note's and ResetStart's to say).
func setEffects(r *Row) {
	r.Duplicates, r.Skipped, r.AlreadyLost = 0, 0, 0
	if r.Low == nil || r.High == nil {
		return
	}
	if r.Committed == nil {
		if r.Target != nil {
			r.Skipped = gap(min(*r.Target, *r.High), *r.Low)
		}
		return
	}
	c, low, high := *r.Committed, *r.Low, *r.High
	r.AlreadyLost = gap(low, c)
	if r.Target == nil {
		return
	}
	t := *r.Target
	switch {
	case t < c:
		r.Duplicates = gap(min(c, high), max(t, low))
	case t > c:
		r.Skipped = gap(min(t, high), max(c, low))
	}
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

// resetStart is where a consumer without a commit on the row's partition would
// start under auto.offset.reset assume; nil for a row with a commit, or for
// "none" (the consumer refuses to start).
func resetStart(r Row, assume string) *int64 {
	if r.Committed != nil || r.Low == nil || r.High == nil {
		return nil
	}
	switch assume {
	case model.ResetEarliest:
		return model.Ptr(*r.Low)
	case model.ResetLatest:
		return model.Ptr(*r.High)
	}
	return nil
}

// planType is the type a plan writes as: a group that does not exist ("") becomes a
// classic one, as an offset commit makes it.
func planType(typ string) string {
	if typ == "" {
		return model.TypeClassic
	}
	return typ
}
