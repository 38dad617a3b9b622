package plan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestUndoMirrorsThePlan: for random groups (partitions with and without commits, below,
// inside and above the stored records), every operation — each reset strategy,
// delete-offsets, delete-group — followed by the restore of its backup counts the same
// records the other way round, under each auto.offset.reset: the plan's re-deliveries are
// the restore's skips and its skips the restore's re-deliveries (docs/resets.md, "What a
// plan costs"). A plan recounted under another assumption (WithAssumeReset) is the plan made
// under it.
func TestUndoMirrorsThePlan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	kinds := []struct {
		kind  StrategyKind
		value func() string
	}{
		{ToEarliest, func() string { return "" }},
		{ToLatest, func() string { return "" }},
		{ToCurrent, func() string { return "" }},
		{ToOffset, func() string { return fmt.Sprint(r.Int64N(300) - 50) }},
		{ShiftBy, func() string { return fmt.Sprint(r.Int64N(200) - 100) }},
		{DeleteOffsets, nil},
		{DeleteGroup, nil},
	}
	for i := range 400 {
		in := randomInput(r)
		k := kinds[r.IntN(len(kinds))]
		var st Strategy
		scope := Scope{Topics: []TopicScope{{Topic: "t"}}}
		switch k.kind {
		case DeleteOffsets:
			st = DeleteOffsetsStrategy()
		case DeleteGroup:
			st, scope = DeleteGroupStrategy(), DeleteGroupScope
		default:
			var err error
			if st, err = ParseStrategy(k.kind, k.value(), time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, assume := range []string{model.ResetLatest, model.ResetEarliest, model.ResetNone} {
			in.AssumeReset = assume
			p := Make(scope, st, in)
			if len(p.Rows) == 0 || !p.Executable() {
				continue
			}
			other := Make(scope, st, withAssume(in, model.ResetLatest)).WithAssumeReset(assume)
			if other.Totals != p.Totals {
				t.Fatalf("case %d %s %s: recounted %+v, made %+v", i, k.kind, assume, other.Totals, p.Totals)
			}
			after := applied(in, p)
			var csv bytes.Buffer
			if err := FormatOffsetsCSV(&csv, p.BackupRows()); err != nil {
				t.Fatal(err)
			}
			undo, err := FileStrategy(Restore, "backup.csv", &csv)
			if err != nil {
				t.Fatal(err)
			}
			u := Make(Scope{}, undo, after)
			if u.Totals.Duplicates != p.Totals.Skipped || u.Totals.Skipped != p.Totals.Duplicates {
				t.Fatalf("case %d: %s under %s re-delivers %d and skips %d; its undo re-delivers %d and skips %d\nplan %+v\nundo %+v",
					i, k.kind, assume, p.Totals.Duplicates, p.Totals.Skipped, u.Totals.Duplicates, u.Totals.Skipped, p.Rows, u.Rows)
			}
		}
	}
}

func withAssume(in Input, assume string) Input {
	in.AssumeReset = assume
	return in
}

// randomInput is an Empty group on topic t of 1..6 partitions, each with random watermarks
// and, on some, a commit anywhere from below low to above high.
func randomInput(r *rand.Rand) Input {
	n := 1 + r.IntN(6)
	in := Input{Group: "g", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed: map[model.TP]int64{}, Partitions: map[string]int{"t": n}, Offsets: map[model.TP]model.PartitionOffsets{}}
	for p := range int32(n) {
		tp := model.TP{Topic: "t", Partition: p}
		low := r.Int64N(100)
		high := low + r.Int64N(150)
		in.Offsets[tp] = model.PartitionOffsets{Low: model.Ptr(low), High: model.Ptr(high)}
		if r.IntN(3) > 0 {
			in.Committed[tp] = max(0, low-20+r.Int64N(high-low+40))
		}
	}
	return in
}

// applied is the group's state once p is written: the targets committed, the deleted
// commits gone, the watermarks as they were.
func applied(in Input, p Plan) Input {
	out := in
	out.Committed = map[model.TP]int64{}
	for tp, c := range in.Committed {
		out.Committed[tp] = c
	}
	commit, del := p.Commits()
	for tp, c := range commit {
		out.Committed[tp] = c
	}
	for _, tp := range del {
		delete(out.Committed, tp)
	}
	if p.Strategy.Kind == DeleteGroup {
		out.Committed = map[model.TP]int64{}
	}
	return out
}
