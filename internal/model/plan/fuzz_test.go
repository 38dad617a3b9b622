package plan

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func FuzzParseOffsetsCSV(f *testing.F) {
	for _, s := range []string{
		"orders,0,10\norders,1,20\n", "orders,5,\n", "g,orders,0,1\n\"a,b\",orders,0,2\n", "\r\norders,0, 10\r\n \n",
		"orders,0,1\norders,0,2\n", "orders,0\n", "or\"ders,0,1", "\"orders\",\"0\",\"1\"", "orders,-1,1", "\"g\n\",t,0,1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ParseOffsetsCSV(strings.NewReader(s), "fuzz.csv")
		if err != nil {
			if rows != nil || !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error %q: want no rows and the file named first", err)
			}
			return
		}
		if len(rows) == 0 {
			t.Fatal("success without rows")
		}
		for i, r := range rows {
			if ValidTopicName(r.Topic) != nil || r.Partition < 0 || r.Line < 1 || (i > 0 && r.Line <= rows[i-1].Line) ||
				(r.Group != "") != (rows[0].Group != "") {
				t.Fatalf("row %d invalid: %+v", i, r)
			}
		}
		var b bytes.Buffer
		if err := FormatOffsetsCSV(&b, rows); err != nil {
			t.Fatalf("format %+v: %v", rows, err)
		}
		again, err := ParseOffsetsCSV(&b, "again.csv")
		if err != nil {
			t.Fatalf("re-parse of %q: %v", b.String(), err)
		}
		if !reflect.DeepEqual(stripLines(again), stripLines(rows)) {
			t.Fatalf("round trip changed rows:\n%+v\n%+v", rows, again)
		}
	})
}

func stripLines(rows []CSVRow) []CSVRow {
	out := make([]CSVRow, len(rows))
	for i, r := range rows {
		r.Line = 0
		out[i] = r
	}
	return out
}

// FuzzPlanRow checks the planner's invariants on one partition: clamped targets
// stay within the watermarks, a row never both re-reads and skips, counts are never
// negative, already-lost is exactly the expired gap, and re-checking unchanged
// state finds no drift and changes nothing.
func FuzzPlanRow(f *testing.F) {
	f.Add(uint8(0), int64(0), int64(100), int64(50), true, int64(7))
	f.Add(uint8(4), int64(40), int64(100), int64(10), true, int64(-60))
	f.Add(uint8(3), int64(5), int64(5), int64(0), false, int64(math.MaxInt64))
	f.Add(uint8(9), int64(0), int64(10), int64(math.MinInt64), true, int64(-1)) // restore
	f.Add(uint8(8), int64(3), int64(10), int64(4), true, int64(1))              // from-group
	f.Fuzz(func(t *testing.T, k uint8, low, high, committed int64, hasCommit bool, v int64) {
		if low < 0 || high < low {
			return // watermarks as a broker reports them
		}
		kind := StrategyKinds[int(k)%len(StrategyKinds)]
		tp := model.TP{Topic: "t", Partition: 0}
		in := Input{Group: "g", State: "Empty", GroupExists: true, Committed: map[model.TP]int64{},
			Partitions: map[string]int{"t": 1}, Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: &low, High: &high}},
			TimeOffsets: map[model.TP]int64{tp: -1}}
		if hasCommit {
			in.Committed[tp] = committed
		}
		if v >= low && v <= high {
			in.TimeOffsets[tp] = v
		}
		st := Strategy{Kind: kind, Offset: v, Shift: v, Raw: fmt.Sprint(v),
			File: []CSVRow{{Topic: "t", Offset: &v}}}
		if kind == FromGroup {
			st.Source = &SourceGroup{Group: "src", Exists: true, Type: model.TypeClassic}
		}
		p := Make(Scope{Topics: []TopicScope{{Topic: "t"}}}, st, in)
		if len(p.Rows) != 1 {
			t.Fatalf("%s: %d rows", kind, len(p.Rows))
		}
		r := p.Rows[0]
		switch {
		case kind == ToCurrent && hasCommit:
			if r.Target == nil || *r.Target != committed {
				t.Fatalf("to-current: target %v, want the commit %d, unclamped as Kafka does", r.Target, committed)
			}
		case r.Target != nil && kind != Restore && (*r.Target < low || *r.Target > high):
			t.Fatalf("%s: target %d outside [%d, %d]", kind, *r.Target, low, high)
		}
		if r.Duplicates < 0 || r.Skipped < 0 || r.AlreadyLost < 0 || (r.Duplicates > 0 && r.Skipped > 0) {
			t.Fatalf("%s: bad effects %+v", kind, r)
		}
		if wantLost := gap(low, committed); hasCommit && r.AlreadyLost != wantLost {
			t.Fatalf("%s: alreadyLost %d, want %d", kind, r.AlreadyLost, wantLost)
		}
		deletes := kind == Restore && r.Reason == ReasonRestore && r.Target == nil
		unchanged := r.Reason != "" && !r.changes() // planned, and already where the plan puts it
		others := slices.DeleteFunc(slices.Clone(p.Blockers), func(b Blocker) bool { return b.Kind == BlockNothingToReset })
		if (r.Target == nil && !deletes && len(p.Blockers) == 0) || (r.Target != nil && kind != Restore && len(others) > 0) {
			t.Fatalf("%s: target %v with blockers %+v", kind, r.Target, p.Blockers)
		}
		if nothing := len(others) < len(p.Blockers); unchanged != nothing && r.Reason != ReasonNoSourceCommit {
			t.Fatalf("%s: row %+v changes %v, but nothing-to-reset %v", kind, r, !unchanged, nothing)
		}
		if mf := p.MovesForward(); (mf != nil) != (r.Skipped > 0) || (mf != nil && *mf.Skipped != r.Skipped) {
			t.Fatalf("%s: skips %d, moves-forward note %+v", kind, r.Skipped, mf)
		}
		if bs := p.Drift(in); len(bs) != 0 {
			t.Fatalf("%s: drift against unchanged state: %+v", kind, bs)
		}
		if q := p.Refresh(in); !reflect.DeepEqual(q.Rows, p.Rows) || !reflect.DeepEqual(q.Blockers, p.Blockers) {
			t.Fatalf("%s: refresh against unchanged state changed the plan:\n%+v\n%+v", kind, p, q)
		}
	})
}
