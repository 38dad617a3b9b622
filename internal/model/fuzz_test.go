package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Fuzz targets for every parser of user input, plus the planner's
// invariants. Run one with: go test -run=^$ -fuzz=FuzzParseDatetime ./internal/model/

func FuzzParseDatetime(f *testing.F) {
	for _, s := range []string{
		"2020-11-10T16:51:38.198", "2020-11-10T16:51:38.198+08:00", "2020-11-10T16:51:38.198+0800",
		"2020-11-10T16:51:38.198+08", "2026-11-29T08:00:00Z", "2026-11-29T08:00:00.123456789-01:30",
		"2020-11-10T16:51:38.5", "2020-11-10T16:51:38.198+0530", "1969-12-31T23:59:59.999Z", "2020-02-30T00:00:00",
		"9999-12-31T23:59:59.999-13:00", "", "T", "2020-11-10T16:51:38.198Z\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseDatetime(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) || !strings.Contains(err.Error(), "yyyy-MM-ddTHH:mm:ss.SSS") {
				t.Fatalf("error %q does not name the input %q and the accepted form", err, s)
			}
			return
		}
		if got.Location() != time.UTC || got.Before(time.Unix(0, 0)) || got.Nanosecond()%int(time.Millisecond) != 0 {
			t.Fatalf("%q → %v: want UTC, not before 1970, whole milliseconds", s, got)
		}
		// Re-formatting in both the Kafka form and offsettui's JSON form reads back equal.
		layouts := []string{"2006-01-02T15:04:05.000", StampLayout, "2006-01-02T15:04:05.000000000-0700"}
		if got.Nanosecond() == 0 {
			layouts = append(layouts, time.RFC3339)
		}
		for _, layout := range layouts {
			again, err := ParseDatetime(got.Format(layout))
			if err != nil || !again.Equal(got) {
				t.Fatalf("%q → %v; re-parsing %q gave %v, %v", s, got, got.Format(layout), again, err)
			}
		}
		// Where Go's RFC 3339 parser also accepts the input, both agree.
		if ref, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s)); err == nil && !ref.Equal(got) {
			t.Fatalf("%q → %v, but RFC 3339 says %v", s, got, ref)
		}
	})
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"90s", "36h", "PT36H", "P3D", "-PT1.5S", "p1dt2h3m4.5s", "P", "PT", "1h30m", "-5m",
		"PT0.000000001S", "P106751D", "P1Y", "PT1H1H", "PT1.5H", " PT1M ", "10d", "6d23h", "-1.5d2h", "106751d",
		"PT2562047H47M16.854775807S" /* the known overflow: skipped below */} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			if strings.TrimSpace(s) != "" && !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
				t.Fatalf("error %q does not name the input %q", err, s)
			}
			return
		}
		// Go's own rendering reads back as the same duration.
		if again, err := ParseDuration(d.String()); err != nil || again != d {
			t.Fatalf("%q → %v; re-parsing %q gave %v, %v", s, d, d.String(), again, err)
		}
		// What the screens write reads back as the same duration, to its precision.
		if h := HumanDuration(d); !strings.Contains(h, "ms") {
			back, err := ParseDuration(h)
			if err != nil || back.Abs() > d.Abs() || d.Abs()-back.Abs() >= humanStep(d.Abs()) {
				t.Fatalf("%q → %v → %q → %v, %v", s, d, h, back, err)
			}
		}
		in := strings.TrimSpace(s)
		if in[0] != 'P' && in[0] != 'p' {
			return
		}
		if d < 0 {
			t.Fatalf("%q: an unsigned ISO-8601 duration parsed as %v", s, d)
		}
		if neg, err := ParseDuration("-" + in); err != nil || neg != -d {
			t.Fatalf("%q → %v, but -%s → %v, %v", s, d, in, neg, err)
		}
	})
}

// humanStep is the smallest unit HumanDuration writes for d.
func humanStep(d time.Duration) time.Duration {
	switch {
	case d < time.Hour:
		return time.Second
	case d < 24*time.Hour:
		return time.Minute
	default:
		return time.Hour
	}
}

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
	f.Add(uint8(8), int64(0), int64(10), int64(math.MinInt64), true, int64(-1))
	f.Fuzz(func(t *testing.T, k uint8, low, high, committed int64, hasCommit bool, v int64) {
		if low < 0 || high < low {
			return // watermarks as a broker reports them
		}
		kind := StrategyKinds[int(k)%len(StrategyKinds)]
		tp := TP{"t", 0}
		in := PlanInput{Group: "g", State: "Empty", GroupExists: true, Committed: map[TP]int64{},
			Partitions: map[string]int{"t": 1}, Offsets: map[TP]PartitionOffsets{tp: {Low: &low, High: &high}},
			TimeOffsets: map[TP]int64{tp: -1}}
		if hasCommit {
			in.Committed[tp] = committed
		}
		if v >= low && v <= high {
			in.TimeOffsets[tp] = v
		}
		st := Strategy{Kind: kind, Offset: v, Shift: v, Raw: fmt.Sprint(v),
			File: []CSVRow{{Topic: "t", Offset: &v}}}
		p := MakePlan(Scope{Topics: []TopicScope{{Topic: "t"}}}, st, in)
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
		if (r.Target == nil && !deletes && len(p.Blockers) == 0) || (r.Target != nil && kind != Restore && len(p.Blockers) > 0) {
			t.Fatalf("%s: target %v with blockers %+v", kind, r.Target, p.Blockers)
		}
		if bs := p.Drift(in); len(bs) != 0 {
			t.Fatalf("%s: drift against unchanged state: %+v", kind, bs)
		}
		if q := p.Refresh(in); !reflect.DeepEqual(q.Rows, p.Rows) || !reflect.DeepEqual(q.Blockers, p.Blockers) {
			t.Fatalf("%s: refresh against unchanged state changed the plan:\n%+v\n%+v", kind, p, q)
		}
	})
}

func FuzzParseShareReset(f *testing.F) {
	for _, s := range []string{"earliest", "latest", "LATEST", " earliest ", "by_duration:PT1H", "BY_DURATION:P1D", "by_duration:", "", "none", "by_duration"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := parseShareReset(&s)
		if !ok {
			if r.kind != "" {
				t.Fatalf("%q: not ok but kind %q", s, r.kind)
			}
			return
		}
		switch r.kind {
		case ResetEarliest, ResetLatest:
			if r.duration != "" {
				t.Fatalf("%q: kind %s with a duration %q", s, r.kind, r.duration)
			}
		case "by_duration":
			if r.duration == "" || !strings.HasSuffix(strings.TrimSpace(s), r.duration) {
				t.Fatalf("%q: duration %q is not the tail of the value", s, r.duration)
			}
		default:
			t.Fatalf("%q: ok with kind %q", s, r.kind)
		}
		if r.raw != strings.TrimSpace(s) {
			t.Fatalf("%q: raw %q, want the trimmed value", s, r.raw)
		}
	})
}

// FuzzReadBaseline: any input is read or refused with an error naming the
// file; what is read writes back to JSON that reads back the same.
func FuzzReadBaseline(f *testing.F) {
	for _, s := range []string{
		`{"cluster":{"bootstrap":"b","brokers":1,"takenAt":"2026-11-29T08:00:00.000Z"},"groups":[],"topics":[],"errors":[]}`,
		`{"cluster":{"takenAt":"2026-11-29T08:00:00Z"},"groups":[{"group":"g","worstStatus":"ok","counts":{"ok":1},` +
			`"partitions":[{"topic":"t","partition":0,"committed":5,"high":9,"status":"ok","time":{"eta":"never","etaMs":null}}]}]}`,
		`{"cluster":{"takenAt":"x"},"groups":[]}`, `{"groups":null}`, "", "[", `{"cluster":{"takenAt":"2026-11-29T08:00:00Z"},"groups":[{"time":{"evaluation":"nope"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadBaseline(bytes.NewReader(b), "base.json")
		if err != nil {
			if !strings.Contains(err.Error(), "base.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("read but cannot write back: %v", err)
		}
		again, err := ReadBaseline(bytes.NewReader(out), "base.json")
		if err != nil {
			t.Fatalf("written back but cannot read: %v\n%s", err, out)
		}
		out2, _ := json.Marshal(again)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
