package timeaxis

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// idleLosing is an idle group's snapshot at `at` whose one partition is committed at c
// while retention has moved the log start to low (c < low: expired, lost low − c).
func idleLosing(at time.Duration, c, low, high int64) *model.Snapshot {
	s := &model.Snapshot{Cluster: model.Cluster{TakenAt: model.Stamp{Time: t0.Add(at)}}}
	p := model.GroupPartition{Topic: "t", Partition: 0, Low: model.Ptr(low), High: model.Ptr(high), Committed: model.Ptr(c), Status: model.StatusOK}
	if c < low {
		p.Status = model.StatusExpired
		p.SetLost(model.Ptr(low - c))
	}
	s.Groups = []model.Group{{Group: "g", Members: []model.Member{}, Partitions: []model.GroupPartition{p}}}
	return s
}

// TestLostCountThatGrowsIsLosingNow: an idle group is losing now from the first snapshot
// its lost count grew in, at the rate it grows over the samples since it last fell (the
// sample before the loss began included); a count that stands still is a past loss, not
// one happening now; a count that fell is not growing.
func TestLostCountThatGrowsIsLosingNow(t *testing.T) {
	cases := []struct {
		name   string
		lows   []int64 // the log start at each 10 s snapshot; committed stays at 100
		losing bool
		rate   float64
	}{
		{"before any loss", []int64{50, 60}, false, 0},
		{"the first snapshot after the first deletion", []int64{90, 100, 130}, true, 1.5},
		{"growing for a while", []int64{100, 120, 140, 160}, true, 2},
		{"lost long ago, standing still", []int64{118, 118, 118}, false, 0},
		{"fell: the consumer moved", []int64{130, 140, 120}, false, -2},
	}
	for _, c := range cases {
		h := NewHistory(16, 0)
		var s *model.Snapshot
		for i, low := range c.lows {
			s = idleLosing(time.Duration(i)*10*time.Second, 100, low, 1000)
			if c.name == "fell: the consumer moved" && i == len(c.lows)-1 {
				s = idleLosing(time.Duration(i)*10*time.Second, 120, 140, 1000)
			}
			h.Add(s, true)
		}
		h.Annotate(s, Options{})
		g := s.Groups[0]
		if g.LosingNow != c.losing || !g.LostRatePerSec.OK || g.LostRatePerSec.V != c.rate {
			t.Errorf("%s: losingNow %v rate %+v, want %v %v", c.name, g.LosingNow, g.LostRatePerSec, c.losing, c.rate)
		}
	}
}

// TestOneSnapshotHasNoLostRate: one snapshot alone has no rate, and an idle group is losing
// now only once a second snapshot shows its count grow.
func TestOneSnapshotHasNoLostRate(t *testing.T) {
	h := NewHistory(16, 0)
	s := idleLosing(0, 100, 130, 1000)
	h.Add(s, true)
	h.Annotate(s, Options{})
	if g := s.Groups[0]; g.LosingNow || g.LostRatePerSec.OK {
		t.Fatalf("one snapshot: losingNow %v rate %+v", g.LosingNow, g.LostRatePerSec)
	}
}

// TestLosingHeadline: the count, how fast it grows and the consume rate that stops it
// (the log start's: what is consumed plus what is lost); without a rate, why it is losing.
func TestLosingHeadline(t *testing.T) {
	g := model.Group{Group: "event-sink", Members: []model.Member{{}}, LosingNow: true, LostRatePerSec: model.Some(2.1),
		Partitions: []model.GroupPartition{model.GroupPartition{Topic: "events", Status: model.StatusExpired}.With(model.PartitionDetail{Lost: model.Ptr(int64(57))})}}
	g.Partitions[0].Time = &model.PartitionTime{ConsumeRate: model.Some(0.9)}
	if got, want := LosingHeadline(&g), "LOSING NOW: 57 records deleted unread, +2.1/s; needs ≥ 3.0/s to stop"; got != want {
		t.Errorf("headline %q\nwant %q", got, want)
	}
	g.LostRatePerSec, g.Partitions[0].Time = model.Opt[float64]{}, nil
	if got, want := LosingHeadline(&g), "LOSING NOW: 57 records deleted unread (a live consumer is behind the log start)"; got != want {
		t.Errorf("headline %q\nwant %q", got, want)
	}
	g.LosingNow = false
	if got := LosingHeadline(&g); got != "" {
		t.Errorf("not losing: %q", got)
	}
}
