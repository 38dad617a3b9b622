package timeaxis

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// groupAt is a group's snapshot at `at` with one partition committed at c while retention has
// moved the log start to low (c < low: expired, lost low − c). members makes it live; sub is
// the partition's Subscribed (nil: not known).
func groupAt(at time.Duration, c, low int64, members bool, sub *bool) *model.Snapshot {
	s := &model.Snapshot{Cluster: model.Cluster{TakenAt: model.Stamp{Time: t0.Add(at)}}}
	p := model.GroupPartition{Topic: "t", Partition: 0, Low: model.Ptr(low), High: model.Ptr(int64(1000)), Committed: model.Ptr(c),
		Status: model.StatusOK, Subscribed: sub}
	if c < low {
		p.Status = model.StatusExpired
		p.SetLost(model.Ptr(low - c))
	}
	g := model.Group{Group: "g", Members: []model.Member{}, Partitions: []model.GroupPartition{p}}
	if members {
		g.Members = []model.Member{{}}
	}
	s.Groups = []model.Group{g}
	return s
}

// unreadable is groupAt with the partition's status unknown.
func unreadable(at time.Duration) *model.Snapshot {
	s := groupAt(at, 100, 0, false, nil)
	p := &s.Groups[0].Partitions[0]
	p.Status, p.Low, p.Committed = model.StatusUnknown, nil, nil
	return s
}

// annotatedLast adds the snapshots to a history and annotates the last.
func annotatedLast(snaps ...*model.Snapshot) model.Group {
	h := NewHistory(16, 0)
	for _, s := range snaps {
		h.Add(s, true)
	}
	s := snaps[len(snaps)-1]
	h.Annotate(s, Options{})
	return s.Groups[0]
}

// TestLostCountThatGrowsIsLosingNow: an idle group is losing now from the first snapshot its
// lost count is above one of the last 5 minutes, at the rate it grows from the sample before
// it began to rise (earlier flat samples left out); a count that stands still is a past loss;
// one that fell is not growing; retention's steps (the log start moves once per check
// interval) do not make it flap between snapshots.
func TestLostCountThatGrowsIsLosingNow(t *testing.T) {
	idle := func(lows ...int64) []*model.Snapshot {
		var out []*model.Snapshot
		for i, low := range lows {
			out = append(out, groupAt(time.Duration(i)*10*time.Second, 100, low, false, nil))
		}
		return out
	}
	cases := []struct {
		name   string
		snaps  []*model.Snapshot
		losing bool
		rate   float64
	}{
		{"before any loss", idle(50, 60), false, 0},
		{"the first snapshot after the first deletion, flat before", idle(60, 70, 80, 90, 100, 130), true, 3},
		{"growing for a while", idle(100, 120, 140, 160), true, 2},
		{"lost long ago, standing still", idle(118, 118, 118), false, 0},
		{"a step of retention, then flat within 5 minutes", idle(100, 130, 130, 130), true, 1},
		{"fell: the consumer moved", append(idle(130, 140), groupAt(20*time.Second, 120, 140, false, nil)), false, 0},
	}
	for _, c := range cases {
		g := annotatedLast(c.snaps...)
		if g.LosingNow != c.losing || !g.LostRatePerSec.OK || g.LostRatePerSec.V != c.rate {
			t.Errorf("%s: losingNow %v rate %+v, want %v %v", c.name, g.LosingNow, g.LostRatePerSec, c.losing, c.rate)
		}
	}
}

// TestLostCountThatDoesNotGrow: what changes a sum of lost counts without retention deleting
// anything is no loss now — a stale topic's expired commit the members stopped subscribing to
// counted again once the group is Empty, and a partition unreadable for one snapshot; a
// partition that cannot be read now leaves the rate unknown.
func TestLostCountThatDoesNotGrow(t *testing.T) {
	no := false
	hidden := annotatedLast(groupAt(0, 100, 600, true, &no), groupAt(10*time.Second, 100, 600, false, nil))
	if hidden.LosingNow {
		t.Errorf("a stale topic counted again after the group went Empty reads as losing now: %+v", hidden.LostRatePerSec)
	}
	flicker := annotatedLast(groupAt(0, 100, 130, false, nil), unreadable(10*time.Second), groupAt(20*time.Second, 100, 130, false, nil))
	if flicker.LosingNow {
		t.Error("a partition unreadable for one snapshot reads as losing now")
	}
	if now := annotatedLast(groupAt(0, 100, 130, false, nil), unreadable(10*time.Second)); now.LostRatePerSec.OK {
		t.Errorf("an unreadable partition's rate: %+v, want unknown", now.LostRatePerSec)
	}
}

// TestOneSnapshotHasNoLostRate: one snapshot alone has no rate, and an idle group is losing
// now only once a second snapshot shows its count grow.
func TestOneSnapshotHasNoLostRate(t *testing.T) {
	if g := annotatedLast(groupAt(0, 100, 130, false, nil)); g.LosingNow || g.LostRatePerSec.OK {
		t.Fatalf("one snapshot: losingNow %v rate %+v", g.LosingNow, g.LostRatePerSec)
	}
}

// TestWriteIsNoLoss: a reset this process wrote moves the commit, not the log start: the lost
// count before it is forgotten, and what follows is no loss now.
func TestWriteIsNoLoss(t *testing.T) {
	h := NewHistory(16, 0)
	h.Add(groupAt(0, 140, 130, false, nil), true) // caught up
	h.RecordWrite("g", []model.TP{{Topic: "t", Partition: 0}}, t0.Add(5*time.Second))
	s := groupAt(10*time.Second, 100, 130, false, nil) // restored below the log start
	h.Add(s, true)
	h.Annotate(s, Options{})
	if g := s.Groups[0]; g.LosingNow {
		t.Errorf("the restore this process wrote reads as losing now: %+v", g.LostRatePerSec)
	}
}
