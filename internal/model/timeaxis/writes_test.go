package timeaxis

import (
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// A reset this process executed moves the commit back once. Recorded as a
// write, it is not consumption: no rewind, no rate across it, and the series
// starts again after it; a snapshot taken before the write but recorded after
// it keeps no committed offset. Without RecordWrite the same series is
// "rewound".
func TestRecordWriteRestartsTheCommittedSeries(t *testing.T) {
	tp := model.TP{Topic: "shipments", Partition: 0}
	run := func(record bool) (*History, model.PartitionTime) {
		h := NewHistory(16, 0)
		snap := func(at time.Duration, committed, high int64) *model.Snapshot {
			return snapAt(at, map[string]map[model.TP][2]int64{"g": {tp: {committed, high}}})
		}
		for i, c := range []int64{100, 110, 120} { // consuming 1/s
			h.Add(snap(time.Duration(i)*10*time.Second, c, 200+int64(i)*10), true)
		}
		late := snap(25*time.Second, 125, 225) // read before the write, recorded after it
		if record {
			h.RecordWrite("g", []model.TP{tp}, t0.Add(30*time.Second)) // reset --to-offset 10
		}
		h.Add(late, true)
		s := snap(40*time.Second, 10, 240)
		h.Add(s, true)
		h.Annotate(s, Options{})
		return h, *s.Groups[0].Partitions[0].Time
	}
	if _, pt := run(false); pt.Evaluation != model.EvalRewound {
		t.Fatalf("without the write recorded: evaluation %s, want rewound (the test would prove nothing)", pt.Evaluation)
	}
	h, pt := run(true)
	if pt.Evaluation != model.EvalNone || pt.ETA != model.ETANone || pt.ConsumeRate.OK || pt.Loss != nil {
		t.Errorf("one sample after the write: %+v; want no evaluation, ETA or consume rate yet", pt)
	}
	if !pt.ProduceRate.OK {
		t.Error("the high watermark's series went with the commit's: the log did not change")
	}
	if got := fmt.Sprint(committedSeries(h, "g", tp)); got != fmt.Sprint([]int64{Unread, Unread, Unread, Unread, 10}) {
		t.Errorf("committed series %s, want only the sample after the write", got)
	}
	if at, ok := h.WrittenAt("g", tp); !ok || !at.Equal(t0.Add(30*time.Second)) {
		t.Errorf("WrittenAt = %v, %v", at, ok)
	}
	if _, ok := h.WrittenAt("g", model.TP{Topic: "other"}); ok {
		t.Error("WrittenAt of a partition never written")
	}
	// The next samples evaluate from the write on: moving from 10, not rewound.
	s := snapAt(50*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {20, 250}}})
	h.Add(s, true)
	h.Annotate(s, Options{})
	if pt := s.Groups[0].Partitions[0].Time; pt.Evaluation == model.EvalRewound || pt.ETA == model.ETARewound ||
		!pt.ConsumeRate.OK || pt.ConsumeRate.V != 1 {
		t.Errorf("two samples after the write: %+v; want consuming 1/s from 10, never rewound", pt)
	}
}

// A window says how many snapshots it spans when fewer were kept: describe
// --watch --interval 1s is not "2 snapshots" on every frame.
func TestWindowCountsTheSnapshotsItSpans(t *testing.T) {
	h := NewWatchHistory(30 * time.Second) // a sample closer than 7.5 s to the one before the newest replaces it
	tp := model.TP{Topic: "t"}
	var s *model.Snapshot
	for i := range 6 {
		s = snapAt(time.Duration(i)*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {int64(i), 100}}})
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	if w := s.Window; w == nil || w.Samples != 2 || w.Snapshots != 6 {
		t.Fatalf("window %+v, want 6 snapshots, 2 kept", w)
	}
}
