package views

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// A group 600 records behind, committed at a record ten minutes old, on a topic whose
// cleanup.policy is empty (KIP-1161) and retention.ms 60000: the group screen shows it OK,
// expires-in "never", and under the table the topic never deleted; nothing is UNKNOWN.
func TestNeverDeletedOnScreen(t *testing.T) {
	tp := model.TP{Topic: "kept", Partition: 0}
	snap := assemble.Snapshot(model.Observation{
		Bootstrap: "127.0.0.1:39092", Brokers: 1, TakenAt: fixtureNow, AllTopicsVisible: model.Ptr(true), OffsetsRetentionMinutes: model.Ptr(int64(10080)),
		Topics:              map[string]model.Topic{"kept": {Topic: "kept", Partitions: 1, CleanupPolicy: model.Ptr(""), RetentionMs: model.Ptr(int64(60000)), RetentionBytes: model.Ptr(int64(-1))}},
		Offsets:             map[model.TP]model.PartitionOffsets{tp: {Low: c(0), High: c(600), LastStable: c(600)}},
		CommittedTimestamps: map[model.TPO]time.Time{{TP: tp, Offset: 0}: fixtureNow.Add(-10 * time.Minute)},
		Groups: []model.GroupObservation{{Group: "keeper", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer",
			Members: []model.Member{}, Committed: map[model.TP]int64{tp: 0}}},
	}, assemble.Options{})
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return snap, nil }}
	hs := newHarness(t, optsWith(src, newClock()), 220, 30)
	hs.openGroup("keeper")
	v := hs.view()
	row := ""
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, " kept ") && strings.Contains(l, "600") {
			row = strings.Join(strings.Fields(l), " ")
		}
	}
	for _, want := range []string{"never", "OK"} {
		if !strings.Contains(row, want) {
			t.Errorf("the row %q lacks %q:\n%s", row, want, v)
		}
	}
	for _, want := range []string{"topic kept · cleanup.policy empty · never deleted (cleanup.policy empty): retention.ms and retention.bytes delete nothing",
		"never deleted (cleanup.policy empty): never at risk"} {
		if !strings.Contains(v, want) {
			t.Errorf("group screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "UNKNOWN") {
		t.Errorf("something UNKNOWN:\n%s", v)
	}
}
