package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name (rewritten with -update; review the diff).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func i64(v int64) *int64 { return &v }

// snapshot is a small classified cluster: an expired group, an ahead one with a
// partition error, and a live group with a member.
func snapshot() model.Snapshot {
	visible := true
	now := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	obs := model.Observation{
		Bootstrap: "k1:9092", Brokers: 3, TakenAt: now, OffsetsRetentionMinutes: i64(10080), AllTopicsVisible: &visible,
		OffsetsRetentionCheckIntervalMs: i64(600000), RiskWindow: 24 * time.Hour,
		Topics: map[string]model.Topic{
			"outbox": {Topic: "outbox", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(604800000), RetentionBytes: i64(-1)},
			"orders": {Topic: "orders", Partitions: 2, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)},
		},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "outbox", Partition: 0}: {Low: i64(30), High: i64(40), RiskOffset: i64(30)},
			{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(100)},
			{Topic: "orders", Partition: 1}: {Error: &model.Error{Kind: model.KindDenied, Message: "list offsets: not authorized"}},
		},
		CommittedTimestamps: map[model.TPO]time.Time{},
		Groups: []model.GroupObservation{
			{Group: "fanout", Type: "classic", State: "Empty", ProtocolType: "consumer", Committed: map[model.TP]int64{{Topic: "outbox", Partition: 0}: 12},
				CommitLog: &model.CommitLog{Status: model.CommitLogRead, ReadAt: now,
					Commits: []model.CommitRecord{{TP: model.TP{Topic: "outbox"}, Offset: 12, CommittedAt: now.Add(-7 * 24 * time.Hour)}},
					Classic: &model.ClassicRecord{ProtocolType: "consumer", Generation: 4, StateAt: now.Add(-6 * 24 * time.Hour)}}},
			{Group: "replay", Type: "classic", State: "Empty", Committed: map[model.TP]int64{{Topic: "orders", Partition: 0}: 150, {Topic: "orders", Partition: 1}: 3}},
			{Group: "billing", Type: "consumer", State: "Stable", Committed: map[model.TP]int64{{Topic: "orders", Partition: 0}: 95},
				Members: []model.Member{{MemberRef: model.MemberRef{MemberID: "m-1", ClientID: "billing-1", Host: "/10.0.0.7"},
					Subscription: &model.Subscription{Topics: []string{"orders"}},
					Assignments:  []model.Assignment{{Topic: "orders", Partitions: []int32{0, 1}}}}}},
		},
	}
	return assemble.Snapshot(obs, assemble.Options{})
}

func TestDescribeGolden(t *testing.T) {
	var b bytes.Buffer
	if err := DescribeFit(&b, snapshot(), 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "describe.golden", b.Bytes())
}

func TestPlanGolden(t *testing.T) {
	st, err := plan.ParseStrategy(plan.ShiftBy, "-3", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := plan.NewScope(true, nil, plan.ShiftBy)
	if err != nil {
		t.Fatal(err)
	}
	in := plan.Input{Group: "fanout", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed:  map[model.TP]int64{{Topic: "outbox", Partition: 0}: 12, {Topic: "orders", Partition: 0}: 50},
		Partitions: map[string]int{"outbox": 1, "orders": 1},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "outbox", Partition: 0}: {Low: i64(30), High: i64(40)},
			{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(1234)},
		},
		Tool: plan.ToolConnection{Bootstrap: "kafka-1:9092,kafka-2:9092"}}
	p := plan.Make(sc, st, in)
	var b bytes.Buffer
	if err := Plan(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "plan.golden", b.Bytes())
}

// TestMarkdownShareGroup: a share group's report shows its start offsets under "start
// offset" (it has no committed offsets) and its share.auto.offset.reset, as describe does.
func TestMarkdownShareGroup(t *testing.T) {
	taken := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	g := model.Group{Group: "outbox-workers", Type: model.TypeShare, State: "Empty", Members: []model.Member{},
		ShareAutoOffsetReset: model.Ptr("earliest"), WorstStatus: model.StatusAtRisk, TotalLag: model.Ptr(int64(5)),
		Counts: model.Counts{model.StatusAtRisk: 1},
		Partitions: []model.GroupPartition{model.GroupPartition{Topic: "outbox", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(25)),
			Lag: model.Ptr(int64(5)), Status: model.StatusAtRisk}.With(model.PartitionDetail{StartOffset: model.Ptr(int64(20))})}}
	snap := model.Snapshot{Cluster: model.Cluster{Bootstrap: "k1:9092", Brokers: 1, TakenAt: model.Stamp{Time: taken},
		AllTopicsVisible: model.Ptr(true)}, Groups: []model.Group{g}}
	var b strings.Builder
	if err := Markdown(&b, snap); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| low | start offset | high |", "| `outbox` | 0 | 0 | 20 | 25 | 5 |",
		"- share.auto.offset.reset=earliest (a group config on the broker"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestCheckPositionColumn: check's table names the position as Kafka's tools do and shows
// a share group's start offset under START-OFFSET.
func TestCheckPositionColumn(t *testing.T) {
	for _, c := range []struct {
		typ, head string
		p         check.Partition
		row       string
	}{
		{model.TypeClassic, "CURRENT-OFFSET", check.Partition{Topic: "t", Low: model.Ptr(int64(10)), High: model.Ptr(int64(20)),
			Committed: model.Ptr(int64(5)), Status: model.StatusExpired, Result: check.VerdictFail}, "t      0          10   5"},
		{model.TypeShare, "START-OFFSET", check.Partition{Topic: "t", Low: model.Ptr(int64(10)), High: model.Ptr(int64(20)),
			StartOffset: model.Ptr(int64(7)), Status: model.StatusExpired, Result: check.VerdictFail}, "t      0          10   7"},
	} {
		var b strings.Builder
		if err := Check(&b, check.Result{Type: c.typ, Partitions: []check.Partition{c.p}}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "LOW  "+c.head) || !strings.Contains(b.String(), c.row) {
			t.Errorf("%s:\n%s", c.typ, b.String())
		}
	}
}

// TestPlanHeadedByItsOperation: a delete plan is not headed "Reset plan": the first line
// names what the plan does.
func TestPlanHeadedByItsOperation(t *testing.T) {
	for kind, want := range map[plan.StrategyKind]string{
		plan.DeleteOffsets: "Delete-offsets plan for group 'fanout' (Empty) · --delete-offsets",
		plan.DeleteGroup:   "Delete-group plan for group 'fanout' (Empty) · --delete-group",
		plan.ToEarliest:    "Reset plan for group 'fanout' (Empty) · --to-earliest",
		plan.Restore:       "Restore plan for group 'fanout' (Empty) · --restore fanout.csv",
	} {
		sc, err := plan.NewScope(kind != plan.Restore, nil, kind)
		if err != nil {
			t.Fatal(err)
		}
		in := plan.Input{Group: "fanout", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
			Committed:  map[model.TP]int64{{Topic: "orders", Partition: 0}: 50},
			Partitions: map[string]int{"orders": 1},
			Offsets:    map[model.TP]model.PartitionOffsets{{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(60)}}}
		st := plan.Strategy{Kind: kind}
		if kind == plan.Restore {
			st = plan.Strategy{Kind: kind, Raw: "fanout.csv", File: []plan.CSVRow{{Topic: "orders", Partition: 0, Offset: i64(10)}}}
		}
		var b strings.Builder
		if err := Plan(&b, plan.Make(sc, st, in), nil); err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); first != want {
			t.Errorf("%s: first line %q, want %q", kind, first, want)
		}
	}
}

// TestMarkdownNeverCommitted: a group that never committed reads "no commit" in the
// Markdown report, never "total lag 0": every partition's lag is unknown.
func TestMarkdownNeverCommitted(t *testing.T) {
	g := model.Group{Group: "new-svc", Type: model.TypeClassic, State: "Stable", Members: []model.Member{{}},
		WorstStatus: model.StatusMissing, Counts: model.Counts{model.StatusMissing: 1},
		Partitions: []model.GroupPartition{{Topic: "outbox", Partition: 0, Low: i64(30), High: i64(40), Status: model.StatusMissing}}}
	snap := model.Snapshot{Cluster: model.Cluster{Bootstrap: "k1:9092", Brokers: 1, TakenAt: model.Stamp{Time: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)},
		AllTopicsVisible: model.Ptr(true)}, Groups: []model.Group{g}}
	var b strings.Builder
	if err := Markdown(&b, snap); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "- status: MISSING 1; no commit\n") || strings.Contains(b.String(), "total lag") {
		t.Errorf("never-committed group:\n%s", b.String())
	}
}

// TestPlanSaysWhenItWasRead: a plan's table says when its numbers were read, and once
// executed when the commits were read back (docs/json.md's readAt and readBackAt).
func TestPlanSaysWhenItWasRead(t *testing.T) {
	sc, err := plan.NewScope(true, nil, plan.ToEarliest)
	if err != nil {
		t.Fatal(err)
	}
	in := plan.Input{Group: "fanout", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		ReadAt:     time.Date(2026, 11, 29, 8, 53, 36, 0, time.UTC),
		Committed:  map[model.TP]int64{{Topic: "orders", Partition: 0}: 50},
		Partitions: map[string]int{"orders": 1},
		Offsets:    map[model.TP]model.PartitionOffsets{{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(60)}}}
	p := plan.Make(sc, plan.Strategy{Kind: plan.ToEarliest}, in)
	p.Executed, p.Verified, p.ReadBackAt = true, model.Ptr(true), model.StampOf(time.Date(2026, 11, 29, 8, 53, 49, 0, time.UTC))
	var b strings.Builder
	if err := Plan(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nread at 2026-11-29T08:53:36.000Z (the commits and offsets below)\n", "\nread back at 2026-11-29T08:53:49.000Z\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}

// TestMarkdownGoneGroup: a group that does not exist is no problem; the report's table of
// the others says it does not exist.
func TestMarkdownGoneGroup(t *testing.T) {
	s := snapshot()
	s.Groups = append(s.Groups, model.Group{Group: "deleted", State: "Dead", Members: []model.Member{},
		Error: (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"), Message: "gone"}).WithGroup("deleted")})
	var b bytes.Buffer
	if err := Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "| `deleted` | does not exist (gone) | 0 | - |") || !strings.Contains(out, "| groups | 4, 3 with problems |") {
		t.Errorf("the gone group is not a row of the groups without problems saying it does not exist:\n%s", out)
	}
}
