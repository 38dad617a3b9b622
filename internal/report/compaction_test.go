package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// TestCompactedRowsSayWhatTheyMeasure: describe and the Markdown report add a line under a
// compacted partition's row: the flag with its numbers, the records still stored of the
// offsets of lag, and the record the time lag is measured from; a group at the first
// offset gets the numbers without the flag (describe; the report lists it among the groups
// without problems, without rows).
func TestCompactedRowsSayWhatTheyMeasure(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	tp := model.TP{Topic: "ledger", Partition: 0}
	next := now.Add(-3 * time.Second)
	obs := model.Observation{
		Bootstrap: "k1:9092", Brokers: 1, TakenAt: now, AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{"ledger": {Topic: "ledger", Partitions: 1, CleanupPolicy: model.Ptr("compact"),
			RetentionMs: i64(-1), RetentionBytes: i64(-1), DeleteRetentionMs: i64(1000)}},
		Offsets:             map[model.TP]model.PartitionOffsets{tp: {Low: i64(0), High: i64(59)}},
		CommittedTimestamps: map[model.TPO]time.Time{{TP: tp, Offset: 20}: next, {TP: tp, Offset: 0}: next},
		Compacted: map[model.TPO]model.CompactedRead{
			{TP: tp, Offset: 20}: {Gap: 12, GapComplete: true, NextStoredAt: &next, Stored: 4, StoredComplete: true},
			{TP: tp, Offset: 0}:  {Gap: 10, GapComplete: true, NextStoredAt: &next, Stored: 14, StoredComplete: true},
		},
		Groups: []model.GroupObservation{
			{Group: "reader", Type: "classic", State: "Empty", Committed: map[model.TP]int64{tp: 20}},
			{Group: "fresh", Type: "classic", State: "Empty", Committed: map[model.TP]int64{tp: 0}},
		},
	}
	s := assemble.Snapshot(obs, assemble.Options{})
	var d, md bytes.Buffer
	if err := DescribeFit(&d, s, 0); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"describe": d.String(), "markdown": md.String()} {
		for _, want := range []string{
			"ledger-0: compacted: MAY MISS DELETES: the group read up to 20 and may have missed deletes: the cleaner removed 12 offsets at its position (20..31 hold no record; the next stored is 32)",
			"the next record it reads is 3s old, past delete.retention.ms (1s)",
			"lag 4 records stored of 39 offsets; time lag from record 32, the first stored after the commit",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
		if name == "describe" && !strings.Contains(out, "ledger-0: compacted: lag 14 records stored of 59 offsets; time lag from record 10") {
			t.Errorf("describe lacks the numbers of the group at the first offset:\n%s", out)
		}
		if strings.Count(out, "MAY MISS DELETES") != 1 {
			t.Errorf("%s flags other than the reader:\n%s", name, out)
		}
	}
}
