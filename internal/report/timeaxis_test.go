package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
)

// timedSnapshots are four snapshots 15 s apart of three groups: "audit" has
// no members and stands still on "events", whose retention is 1h and whose
// next record expires in 10m (stopped, loses data); "billing" catches up on
// "orders"; "ledger" is caught up on "payments". The last one is annotated.
func timedSnapshots() (last model.Snapshot, first model.Snapshot) {
	start := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	h := timeaxis.NewHistory(16, 0)
	for i := range 4 {
		now := start.Add(time.Duration(i) * 15 * time.Second)
		k := int64(i)
		obs := model.Observation{
			Bootstrap: "k1:9092", Brokers: 3, TakenAt: now, OffsetsRetentionMinutes: i64(10080), AllTopicsVisible: model.Ptr(true),
			Topics: map[string]model.Topic{
				"events":   {Topic: "events", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(3_600_000), RetentionBytes: i64(-1)},
				"orders":   {Topic: "orders", Partitions: 2, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(259_200_000), RetentionBytes: i64(-1)},
				"payments": {Topic: "payments", Partitions: 1, CleanupPolicy: model.Ptr("compact"), RetentionMs: i64(-1), RetentionBytes: i64(-1)},
			},
			Offsets: map[model.TP]model.PartitionOffsets{
				{Topic: "events", Partition: 0}:   {Low: i64(0), High: i64(3000 + 30*k), RiskOffset: i64(2000)},
				{Topic: "orders", Partition: 0}:   {Low: i64(0), High: i64(5000 + 750*k), RiskOffset: i64(0)},
				{Topic: "orders", Partition: 1}:   {Low: i64(0), High: i64(500 + 150*k), RiskOffset: i64(0)},
				{Topic: "payments", Partition: 0}: {Low: i64(0), High: i64(20)},
			},
			CommittedTimestamps: map[model.TPO]time.Time{
				{TP: model.TP{Topic: "events", Partition: 0}, Offset: 100}: start.Add(-50 * time.Minute),
			},
			Groups: []model.GroupObservation{
				{Group: "audit", Type: "classic", State: "Empty", Committed: map[model.TP]int64{{Topic: "events", Partition: 0}: 100}},
				{Group: "billing", Type: "consumer", State: "Stable",
					Committed: map[model.TP]int64{{Topic: "orders", Partition: 0}: 1200 * k, {Topic: "orders", Partition: 1}: 300 + 120*k},
					Members: []model.Member{{MemberRef: model.MemberRef{MemberID: "m-1", ClientID: "billing-1", Host: "/10.0.0.7"},
						Assignments: []model.Assignment{{Topic: "orders", Partitions: []int32{0, 1}}}}}},
				{Group: "ledger", Type: "classic", State: "Empty", Committed: map[model.TP]int64{{Topic: "payments", Partition: 0}: 20}},
			},
		}
		s := assemble.Snapshot(obs, assemble.Options{})
		if i == 0 {
			first = s
		}
		h.Add(&s, true)
		last = s
	}
	h.Annotate(&last, timeaxis.Options{})
	return last, first
}

func TestDescribeTimeAxisGolden(t *testing.T) {
	s, _ := timedSnapshots()
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "describe-timeaxis.golden", b.Bytes())
}

func TestMarkdownGolden(t *testing.T) {
	s, first := timedSnapshots()
	for _, tc := range []struct {
		name string
		snap model.Snapshot
	}{
		{"markdown-one-snapshot.golden", snapshot()},
		{"markdown-timeaxis.golden", s},
	} {
		var b bytes.Buffer
		if err := Markdown(&b, tc.snap); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.name, b.Bytes())
	}
	timeaxis.CompareBaseline(&s, &first, "before.json", nil)
	var b bytes.Buffer
	if err := Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "markdown-baseline.golden", b.Bytes())
	b.Reset()
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "describe-baseline.golden", b.Bytes())
}

// TestMarkdownOrder: the group that will lose data comes first, its sentence
// quoted; groups without problems come after, one line each.
func TestMarkdownOrder(t *testing.T) {
	s, _ := timedSnapshots()
	var b bytes.Buffer
	if err := Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	audit, fine, ledger := strings.Index(out, "### `audit`"), strings.Index(out, "## Groups with nothing to act on now"), strings.Index(out, "| `ledger` |")
	if audit < 0 || fine < 0 || ledger < fine || audit > fine {
		t.Errorf("order: audit %d, without problems %d, ledger %d\n%s", audit, fine, ledger, out)
	}
	if !strings.Contains(out, "> **Time to loss:** events-0: the group is stopped") {
		t.Errorf("no loss sentence:\n%s", out)
	}
}

func TestMarkdownEscapesNames(t *testing.T) {
	for name, want := range map[string]string{
		"a|b":    "`a|b`",
		"a`b":    "``a`b``",
		"`x`":    "`` `x` ``",
		"two\nl": "`two l`",
	} {
		if got := code(name); got != want {
			t.Errorf("code(%q) = %s, want %s", name, got, want)
		}
	}
	if got := cell(code("a|b")); got != "`a\\|b`" {
		t.Errorf("in a table: %s", got)
	}
}
