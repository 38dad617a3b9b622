package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
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
		Topics: map[string]model.Topic{
			"outbox": {Topic: "outbox", Partitions: 1, CleanupPolicy: "delete", RetentionMs: i64(604800000), RetentionBytes: i64(-1)},
			"orders": {Topic: "orders", Partitions: 2, CleanupPolicy: "delete", RetentionMs: i64(-1), RetentionBytes: i64(-1)},
		},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "outbox", Partition: 0}: {Low: i64(30), High: i64(40), RiskOffset: i64(30)},
			{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(100)},
			{Topic: "orders", Partition: 1}: {Error: &model.Error{Kind: model.KindDenied, Message: "list offsets: not authorized"}},
		},
		CommittedTimestamps: map[model.TPO]time.Time{},
		Groups: []model.GroupObservation{
			{Group: "fanout", Type: "classic", State: "Empty", Committed: map[model.TP]int64{{Topic: "outbox", Partition: 0}: 12}},
			{Group: "replay", Type: "classic", State: "Empty", Committed: map[model.TP]int64{{Topic: "orders", Partition: 0}: 150, {Topic: "orders", Partition: 1}: 3}},
			{Group: "billing", Type: "consumer", State: "Stable", Committed: map[model.TP]int64{{Topic: "orders", Partition: 0}: 95},
				Members: []model.Member{{MemberRef: model.MemberRef{MemberID: "m-1", ClientID: "billing-1", Host: "/10.0.0.7"},
					Assignments: []model.Assignment{{Topic: "orders", Partitions: []int32{0, 1}}}}}},
		},
	}
	return model.Assemble(obs, model.AssembleOptions{})
}

func TestDescribeGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Describe(&b, snapshot()); err != nil {
		t.Fatal(err)
	}
	golden(t, "describe.golden", b.Bytes())
}

func TestPlanGolden(t *testing.T) {
	st, err := model.ParseStrategy(model.ShiftBy, "-3", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := model.NewScope(true, nil, model.ShiftBy)
	if err != nil {
		t.Fatal(err)
	}
	in := model.PlanInput{Group: "fanout", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed:  map[model.TP]int64{{Topic: "outbox", Partition: 0}: 12, {Topic: "orders", Partition: 0}: 50},
		Partitions: map[string]int{"outbox": 1, "orders": 1},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "outbox", Partition: 0}: {Low: i64(30), High: i64(40)},
			{Topic: "orders", Partition: 0}: {Low: i64(0), High: i64(1234)},
		}}
	p := model.MakePlan(sc, st, in)
	var b bytes.Buffer
	if err := Plan(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "plan.golden", b.Bytes())
}
