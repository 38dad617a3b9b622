package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// A group behind on a topic whose cleanup.policy is empty (KIP-1161) beside one on the
// default policy, both with retention.ms 60000 and records older than it: the first is OK
// with no expires-in and a line saying the topic is never deleted; the other is AT-RISK; the
// JSON keeps the policy "" with deletedByRetention false.
func TestDescribeNeverDeleted(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	never, gone := model.TP{Topic: "kept", Partition: 0}, model.TP{Topic: "deleted", Partition: 0}
	old := at.Add(-10 * time.Minute)
	s := assemble.Snapshot(model.Observation{Bootstrap: "k:9092", Brokers: 1, TakenAt: at, AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{
			"kept":    {Topic: "kept", Partitions: 1, CleanupPolicy: model.Ptr(""), RetentionMs: i64(60000), RetentionBytes: i64(-1)},
			"deleted": {Topic: "deleted", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(60000), RetentionBytes: i64(-1)},
		},
		Offsets: map[model.TP]model.PartitionOffsets{never: {Low: i64(0), High: i64(600), LastStable: i64(600)},
			gone: {Low: i64(0), High: i64(600), LastStable: i64(600), RiskOffset: i64(-1)}},
		CommittedTimestamps: map[model.TPO]time.Time{{TP: never, Offset: 0}: old, {TP: gone, Offset: 0}: old},
		Groups: []model.GroupObservation{
			{Group: "k", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []model.Member{}, Committed: map[model.TP]int64{never: 0}},
			{Group: "d", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []model.Member{}, Committed: map[model.TP]int64{gone: 0}}},
	}, assemble.Options{})
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"k kept 0 0 0 600 600 OK 10m - ", "d deleted 0 0 0 600 600 AT-RISK 10m now ",
		"topic kept: never deleted (cleanup.policy empty): retention.ms and retention.bytes delete nothing"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(out, "topic deleted:") {
		t.Errorf("a line about the default-policy topic:\n%s", b.String())
	}
	b.Reset()
	if err := DescribeJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"topic":"kept","partitions":1,"cleanupPolicy":"","deletedByRetention":false,"retentionMs":60000,`,
		`{"topic":"deleted","partitions":1,"cleanupPolicy":"delete","deletedByRetention":true,"retentionMs":60000,`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}
