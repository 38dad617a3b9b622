package plan

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

func TestParseStrategy(t *testing.T) {
	tests := []struct {
		kind  StrategyKind
		value string
		want  Strategy
	}{
		{ToEarliest, "", Strategy{Kind: ToEarliest}},
		{ToLatest, " ", Strategy{Kind: ToLatest}},
		{ToCurrent, "", Strategy{Kind: ToCurrent}},
		{ToOffset, "1200", Strategy{Kind: ToOffset, Offset: 1200, Raw: "1200"}},
		{ToOffset, "-1", Strategy{Kind: ToOffset, Offset: -1, Raw: "-1"}}, // Kafka clamps it to low
		{ShiftBy, "-3", Strategy{Kind: ShiftBy, Shift: -3, Raw: "-3"}},
		{ShiftBy, "+10", Strategy{Kind: ShiftBy, Shift: 10, Raw: "+10"}},
		{ToDatetime, "2026-11-29T07:00:00.000", Strategy{Kind: ToDatetime, Time: planNow.Add(-time.Hour), Raw: "2026-11-29T07:00:00.000"}},
		{ByDuration, "PT36H", Strategy{Kind: ByDuration, Time: planNow.Add(-36 * time.Hour), Raw: "PT36H"}},
		{ByDuration, "90m", Strategy{Kind: ByDuration, Time: planNow.Add(-90 * time.Minute), Raw: "90m"}},
	}
	for _, tc := range tests {
		got, err := ParseStrategy(tc.kind, tc.value, planNow)
		if err != nil {
			t.Errorf("%s %q: %v", tc.kind, tc.value, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q = %+v, want %+v", tc.kind, tc.value, got, tc.want)
		}
	}
}

func TestParseStrategyErrors(t *testing.T) {
	tests := []struct {
		kind  StrategyKind
		value string
		want  string
	}{
		{ToEarliest, "5", "--to-earliest takes no value"},
		{ToOffset, "ten", `--to-offset "ten": not a whole number`},
		{ToOffset, "", `--to-offset "": not a whole number`},
		{ShiftBy, "1.5", `--shift-by "1.5": not a whole number; e.g. --shift-by -3`},
		{ToDatetime, "yesterday", `--to-datetime: datetime "yesterday"`},
		{ByDuration, "3 days", `--by-duration: duration "3 days"`},
		{ByDuration, "-PT1H", `--by-duration "-PT1H": negative duration`},
		{ByDuration, "P30000D", "before 1970"},
		{FromFile, "x.csv", "use FileStrategy"},
		{"to-nowhere", "", `unknown reset strategy "to-nowhere"`},
	}
	for _, tc := range tests {
		_, err := ParseStrategy(tc.kind, tc.value, planNow)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err = %v, want %q", tc.kind, tc.value, err, tc.want)
		}
	}
}

func TestFileStrategy(t *testing.T) {
	// A bad line: the error names the flag, the file and the line; nothing to plan.
	st, err := FileStrategy(FromFile, "reset.csv", strings.NewReader("orders,0,5\norders,1,five\n"))
	if err == nil || !strings.Contains(err.Error(), "--from-file: reset.csv line 2: offset \"five\"") {
		t.Errorf("bad line: err = %v", err)
	}
	if st.File != nil {
		t.Errorf("bad line: strategy has %d rows", len(st.File))
	}
	_, err = FileStrategy(FromFile, "backup.csv", strings.NewReader("orders,0,5\norders,1,\n"))
	if err == nil || !strings.Contains(err.Error(), "backup.csv line 2: empty offset; only --restore") {
		t.Errorf("empty offset in --from-file: err = %v", err)
	}
	// Kafka's --from-file refuses a negative offset (it does not clamp it).
	_, err = FileStrategy(FromFile, "reset.csv", strings.NewReader("orders,0,5\norders,1,-3\n"))
	if err == nil || !strings.Contains(err.Error(), "reset.csv line 2: negative offset -3") {
		t.Errorf("negative offset in --from-file: err = %v", err)
	}
	st, err = FileStrategy(Restore, "backup.csv", strings.NewReader("orders,0,5\norders,1,\n"))
	if err != nil || len(st.File) != 2 || st.Raw != "backup.csv" || st.Kind != Restore {
		t.Errorf("restore: %+v, %v", st, err)
	}
	if _, err := FileStrategy(ToLatest, "x", strings.NewReader("t,0,1")); err == nil {
		t.Error("FileStrategy(to-latest) succeeded")
	}
}

func TestParseTopicScope(t *testing.T) {
	tests := []struct {
		in   string
		want TopicScope
		err  string
	}{
		{in: "orders", want: TopicScope{Topic: "orders"}},
		{in: "orders:0,2", want: TopicScope{"orders", []int32{0, 2}}},
		{in: "orders:2, 0,2", want: TopicScope{"orders", []int32{0, 2}}},
		{in: "orders:", err: `no partitions after ':'`},
		{in: "orders:a", err: `partition "a" is not a partition number`},
		{in: "orders:0,,1", err: `partition "" is not a partition number`},
		{in: "orders:-1", err: `partition "-1"`},
		{in: ":0", err: "empty topic name"},
		{in: "or/ders", err: `has '/'`},
	}
	for _, tc := range tests {
		got, err := ParseTopicScope(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `--topic "`+tc.in+`"`) {
				t.Errorf("%q: err = %v, want %q naming the value", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case !reflect.DeepEqual(got, tc.want):
			t.Errorf("%q = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestNewScope(t *testing.T) {
	tests := []struct {
		all    bool
		topics []string
		kind   StrategyKind
		err    string
	}{
		{true, nil, ToEarliest, ""},
		{false, []string{"a", "b:1"}, ToEarliest, ""},
		{false, nil, FromFile, ""},
		{true, []string{"a"}, ToEarliest, "cannot be combined"},
		{false, nil, ToLatest, "one of --all-topics"},
		{false, []string{"a"}, Restore, "--restore takes its partitions from the file"},
		{false, []string{"a:x"}, ToLatest, `partition "x"`},
	}
	for _, tc := range tests {
		sc, err := NewScope(tc.all, tc.topics, tc.kind)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%v %v %s: %v", tc.all, tc.topics, tc.kind, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v %v %s: err = %v, want %q", tc.all, tc.topics, tc.kind, err, tc.err)
		case tc.err == "" && len(sc.Topics) != len(tc.topics):
			t.Errorf("%v %v %s: scope %+v", tc.all, tc.topics, tc.kind, sc)
		}
	}
}

func TestScopePartitions(t *testing.T) {
	in := fixture()
	sc := Scope{Topics: []TopicScope{{"orders", []int32{2, 0}}, {Topic: "ahead"}, {"orders", []int32{0}}}}
	got, bs := sc.Partitions(in)
	want := []model.TP{{Topic: "ahead", Partition: 0}, {Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 2}}
	if !reflect.DeepEqual(got, want) || len(bs) != 0 {
		t.Errorf("Partitions = %v, %v; want %v and no blockers", got, bs, want)
	}
}
