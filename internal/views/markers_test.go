package views

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// A read_committed consumer one commit marker behind: lag 0 in the list and the row, and
// the explanation names the marker and Kafka's CLI number.
func TestMarkersOnScreen(t *testing.T) {
	tp := model.TP{Topic: "txn", Partition: 0}
	snap := assemble.Snapshot(model.Observation{
		Bootstrap: "127.0.0.1:39092", Brokers: 1, TakenAt: fixtureNow, AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"txn": {Topic: "txn", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1)), RetentionBytes: model.Ptr(int64(-1))}},
		Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: c(0), High: c(60), LastStable: c(60)}},
		Markers: map[model.TPO]model.TransactionMarkers{{TP: tp, Offset: 59}: {ControlRecords: 1}},
		Groups:  []model.GroupObservation{{Group: "txn-reader", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []model.Member{}, Committed: map[model.TP]int64{tp: 59}}},
	}, assemble.Options{})
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return snap, nil }}
	hs := newHarness(t, optsWith(src, newClock()), 200, 30)
	hs.openGroup("txn-reader")
	v := hs.view()
	for _, want := range []string{"total lag 0", "caught up: only what no read_committed consumer receives lies between committed 59 and high 60: 1 transaction marker; Kafka's CLI shows LAG 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("group screen lacks %q:\n%s", want, v)
		}
	}
}
