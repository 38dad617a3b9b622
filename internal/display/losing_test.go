package display

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestLosingText: the count, how fast it grows and the consume rate that stops it (the log
// start's: what is consumed plus what is lost); without a rate, why it is losing.
func TestLosingText(t *testing.T) {
	g := model.Group{Group: "event-sink", Members: []model.Member{{}}, LosingNow: true, LostRatePerSec: model.Some(2.1),
		Partitions: []model.GroupPartition{model.GroupPartition{Topic: "events", Status: model.StatusExpired}.With(model.PartitionDetail{Lost: model.Ptr(int64(57))})}}
	g.Partitions[0].Time = &model.PartitionTime{ConsumeRate: model.Some(0.9)}
	if got, want := LosingText(&g), "57 records deleted unread, +2.1/s; needs ≥ 3.0/s to stop"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	g.LostRatePerSec, g.Partitions[0].Time = model.Opt[float64]{}, nil
	if got, want := LosingText(&g), "57 records deleted unread (a live consumer is behind the log start)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	g.LosingNow = false
	if got := LosingText(&g); got != "" {
		t.Errorf("not losing: %q", got)
	}
}
