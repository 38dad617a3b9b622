package plan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func TestParseOffsetsCSV(t *testing.T) {
	tests := []struct {
		name, in string
		want     []CSVRow
	}{
		{"kafka export", "orders,0,10\norders,1,20\n", []CSVRow{
			{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(10)), Line: 1},
			{Topic: "orders", Partition: 1, Offset: model.Ptr(int64(20)), Line: 2}}},
		{"no final newline, CRLF, blank lines, spaces", "\r\norders,0, 10\r\n\r\n   \n orders , 2 ,30", []CSVRow{
			{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(10)), Line: 2},
			{Topic: "orders", Partition: 2, Offset: model.Ptr(int64(30)), Line: 5}}},
		{"backup with no commit", "orders,5,\norders,4,0\n", []CSVRow{
			{Topic: "orders", Partition: 5, Line: 1},
			{Topic: "orders", Partition: 4, Offset: model.Ptr(int64(0)), Line: 2}}},
		{"group column", "billing,orders,0,95\n\"a,b\",orders,0,7\n", []CSVRow{
			{Group: "billing", Topic: "orders", Partition: 0, Offset: model.Ptr(int64(95)), Line: 1},
			{Group: "a,b", Topic: "orders", Partition: 0, Offset: model.Ptr(int64(7)), Line: 2}}},
		{"negative offset (FileStrategy refuses it)", "t,0,-5\n", []CSVRow{
			{Topic: "t", Partition: 0, Offset: model.Ptr(int64(-5)), Line: 1}}},
	}
	for _, tc := range tests {
		got, err := ParseOffsetsCSV(strings.NewReader(tc.in), "plan.csv")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestParseOffsetsCSVErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"bad offset", "orders,0,10\norders,1,ten\n", "plan.csv line 2: offset \"ten\" is not a whole number"},
		{"bad partition", "orders,0,10\n\norders,x,1\n", "plan.csv line 3: partition \"x\" is not a partition number"},
		{"negative partition", "orders,-1,1\n", "line 1: partition \"-1\""},
		{"too few fields", "orders,0\n", "plan.csv line 1: 2 fields, expected topic,partition,offset"},
		{"too many fields", "g,orders,0,1,2\n", "line 1: 5 fields"},
		{"mixed forms", "orders,0,1\ng,orders,1,2\n", "line 2: 4 fields where earlier lines have 3"},
		{"header line", "topic,partition,offset\norders,0,1\n", "line 1: partition \"partition\""},
		{"duplicate", "orders,0,1\norders,1,2\norders,0,3\n", "line 3: partition orders-0 already given on line 1"},
		{"bad topic", "ord ers,0,1\n", "line 1: topic name \"ord ers\" has ' '"},
		{"empty topic", ",0,1\n", "line 1: empty topic name"},
		{"empty group", ",orders,0,1\n", "line 1: empty group"},
		{"bare quote", "orders,0,1\nor\"ders,1,2\n", "plan.csv line 2: bare \""},
		{"empty file", "\n\n", "plan.csv: no offsets"},
		{"offset overflow", "orders,0,99999999999999999999\n", "line 1: offset"},
	}
	for _, tc := range tests {
		rows, err := ParseOffsetsCSV(strings.NewReader(tc.in), "plan.csv")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
		if rows != nil {
			t.Errorf("%s: returned %d rows with the error; want none", tc.name, len(rows))
		}
	}
}

func TestFormatOffsetsCSV(t *testing.T) {
	rows := []CSVRow{
		{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(10))},
		{Topic: "orders", Partition: 5},
	}
	var b bytes.Buffer
	if err := FormatOffsetsCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "orders,0,10\norders,5,\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	grouped := []CSVRow{{Group: "a,b", Topic: "t", Partition: 1, Offset: model.Ptr(int64(2))}}
	if err := FormatOffsetsCSV(&b, grouped); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "\"a,b\",t,1,2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	mixed := append(grouped, CSVRow{Topic: "t", Partition: 2})
	if err := FormatOffsetsCSV(&b, mixed); err == nil {
		t.Error("rows with and without a group: want an error")
	}
}
