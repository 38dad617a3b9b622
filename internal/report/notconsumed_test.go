package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// A Stable group whose member subscribes to "active" (lag 3) and that holds an expired
// commit on "stale": the table and the Markdown show the stale row marked, the heading
// counts active alone, and a line says why and when Kafka deletes the commit.
func TestDescribeNotConsumed(t *testing.T) {
	active, stale := model.TP{Topic: "active", Partition: 0}, model.TP{Topic: "stale", Partition: 0}
	unlimited := model.Topic{CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1), Partitions: 1}
	ta, ts := unlimited, unlimited
	ta.Topic, ts.Topic = "active", "stale"
	s := assemble.Snapshot(model.Observation{Bootstrap: "k:9092", Brokers: 1, TakenAt: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), AllTopicsVisible: model.Ptr(true),
		OffsetsRetentionMinutes: i64(1),
		Topics:                  map[string]model.Topic{"active": ta, "stale": ts},
		Offsets:                 map[model.TP]model.PartitionOffsets{active: {Low: i64(0), High: i64(10)}, stale: {Low: i64(80), High: i64(100)}},
		Groups: []model.GroupObservation{{Group: "svc", Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members:   []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}, Subscription: &model.Subscription{Topics: []string{"active"}}}},
			Committed: map[model.TP]int64{active: 7, stale: 20}}},
	}, assemble.Options{})
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"· lag 3 · OK 1", "NOT-CONSUMED (EXPIRED (lost 60))",
		"NOT CONSUMED: no member subscribes to topic stale (members subscribe to active): not in the total lag or status; Kafka deletes each of its commits 1m after it was made (offsets.retention.minutes, KIP-496)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("describe lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	if md := b.String(); !strings.Contains(md, "0 with problems") || !strings.Contains(md, "| `svc` | Stable | 1 | 3 |") {
		t.Errorf("markdown: want svc among the groups without problems, lag 3:\n%s", md)
	}
}

// A commit before a commit marker alone: lag 0, the marker and Kafka's LAG in the row.
func TestDescribeMarkers(t *testing.T) {
	tp := model.TP{Topic: "txn", Partition: 0}
	s := assemble.Snapshot(model.Observation{Bootstrap: "k:9092", Brokers: 1, TakenAt: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"txn": {Topic: "txn", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: i64(0), High: i64(12), LastStable: i64(12)}},
		Markers: map[model.TPO]model.TransactionMarkers{{TP: tp, Offset: 5}: {ControlRecords: 2, AbortedRecords: 5}},
		Groups:  []model.GroupObservation{{Group: "r", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []model.Member{}, Committed: map[model.TP]int64{tp: 5}}},
	}, assemble.Options{})
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	if want := "12 0 OK (2 transaction markers and 5 aborted records; Kafka's CLI shows LAG 7)"; !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
		t.Errorf("describe lacks %q:\n%s", want, b.String())
	}
}
