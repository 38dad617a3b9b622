package status

import (
	"fmt"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// Transaction markers make a commit below high caught up only when there is no open
// transaction and what the fetch found fits between the commit and high.
func TestClassifyTransactionMarkers(t *testing.T) {
	week := topic("delete", 7*24*3600*1000)
	offs := func(lastStable int64) model.PartitionOffsets {
		return model.PartitionOffsets{Low: i64(0), High: i64(12), LastStable: i64(lastStable), RiskOffset: i64(0)}
	}
	for _, c := range []struct {
		name      string
		committed int64
		offs      model.PartitionOffsets
		markers   *model.TransactionMarkers
		want      string // lag status markers
	}{
		{"one commit marker", 11, offs(12), &model.TransactionMarkers{ControlRecords: 1}, "0 ok {1 0 1}"},
		{"commit, aborted data, abort marker", 5, offs(12), &model.TransactionMarkers{ControlRecords: 2, AbortedRecords: 5}, "0 ok {2 5 7}"},
		{"no markers found", 11, offs(12), nil, "1 ok <nil>"},
		{"an open transaction", 11, offs(11), &model.TransactionMarkers{ControlRecords: 1}, "1 ok <nil>"},
		{"more markers than offsets", 11, offs(12), &model.TransactionMarkers{ControlRecords: 2}, "1 ok <nil>"},
		{"nothing counted", 11, offs(12), &model.TransactionMarkers{}, "1 ok <nil>"},
		{"expired wins", 0, model.PartitionOffsets{Low: i64(3), High: i64(12), LastStable: i64(12)}, &model.TransactionMarkers{ControlRecords: 1}, "12 expired <nil>"},
	} {
		p := classified(Input{Committed: i64(c.committed), Offsets: c.offs, Topic: week, Now: now, Markers: c.markers,
			CommittedTimestamp: model.Ptr(now.Add(-1000))})
		got := fmt.Sprintf("%d %s %v", *p.Lag, p.Status, p.TransactionMarkers())
		if p.TransactionMarkers() != nil {
			got = fmt.Sprintf("%d %s %v", *p.Lag, p.Status, *p.TransactionMarkers())
			if p.TimeLagMs == nil || *p.TimeLagMs != 0 || p.CommittedTimestamp() != nil || p.ExpiresInMs != nil {
				t.Errorf("%s: time lag %v, committed timestamp %v, expires in %v; want 0, none, none (caught up)", c.name, p.TimeLagMs, p.CommittedTimestamp(), p.ExpiresInMs)
			}
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
