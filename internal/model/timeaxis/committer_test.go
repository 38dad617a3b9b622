package timeaxis

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// committerAfter adds snapshots of one group taken every 5 s, with members as given per
// snapshot and the committed offsets of its one partition, and returns the last one
// annotated.
func committerAfter(members []bool, committed []int64) *model.Group {
	h := NewWatchHistory(20 * time.Second) // samples at least 5 s apart are all kept
	tp := model.TP{Topic: "t", Partition: 0}
	var s *model.Snapshot
	for i, c := range committed {
		s = snapAt(time.Duration(i)*5*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {c, 1000}}})
		if !members[i] {
			s.Groups[0].Members = nil
		}
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	return &s.Groups[0]
}

func TestCommitterAcrossSnapshots(t *testing.T) {
	no := func(n int) []bool { return make([]bool, n) }
	cases := []struct {
		name      string
		members   []bool
		committed []int64
		want      bool
		rate      float64
	}{
		{"no members, moving at every snapshot", no(5), []int64{0, 100, 200, 300, 400}, true, 20},
		{"no members, set once (a reset) and still", no(5), []int64{400, 0, 0, 0, 0}, false, 0},
		{"no members, a reset and its undo", no(5), []int64{400, 0, 0, 400, 400}, false, 0},
		{"no members, never moving", no(5), []int64{7, 7, 7, 7, 7}, false, 0},
		{"members moving it: a consumer, not a committer", []bool{true, true, true, true, true}, []int64{0, 100, 200, 300, 400}, false, 0},
		{"the members' last moves before they left do not count", []bool{true, true, true, false, false}, []int64{0, 100, 200, 300, 300}, false, 0},
		{"members came and went: their moves do not count", []bool{false, false, false, true, true, true, false}, []int64{0, 100, 200, 300, 400, 500, 500}, false, 0},
		{"moving again after the members left", []bool{true, false, false, false, false, false}, []int64{0, 100, 200, 300, 400, 500}, true, 20},
		{"moved, then stopped long ago", no(12), []int64{0, 100, 200, 300, 300, 300, 300, 300, 300, 300, 300, 300}, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := committerAfter(c.members, c.committed)
			if (g.Committer != nil) != c.want {
				t.Fatalf("committer %+v, want flagged %v", g.Committer, c.want)
			}
			if g.Committer == nil {
				return
			}
			if g.Committer.Rate != c.rate || len(g.Committer.Seen) != 1 || g.Committer.Seen[0] != model.SeenTimeAxis || g.Committer.IntervalMs.OK {
				t.Errorf("committer %+v: want rate %.0f, seen on the time axis only, no interval", *g.Committer, c.rate)
			}
		})
	}
}

func TestCommitterIgnoresShareGroups(t *testing.T) {
	h := NewHistory(16, 0)
	tp := model.TP{Topic: "t", Partition: 0}
	var s *model.Snapshot
	for i := range 5 {
		s = snapAt(time.Duration(i)*5*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {int64(i * 100), 1000}}})
		s.Groups[0].Members, s.Groups[0].Type = nil, model.TypeShare
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	if s.Groups[0].Committer != nil {
		t.Fatalf("a share group's start offsets moved by the broker were read as a committer: %+v", *s.Groups[0].Committer)
	}
}

// TestCommitterFromTheLogAcrossSnapshots: a consumer-protocol group's commit records count
// from the first snapshot that showed it without members (its members' commits before do
// not); with the moves they are one committer, seen both ways.
func TestCommitterFromTheLogAcrossSnapshots(t *testing.T) {
	tp := model.TP{Topic: "t", Partition: 0}
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i, c := range []int64{0, 100, 100, 100} { // a member until 5 s, then none; the offsets stand still
		s = snapAt(time.Duration(i)*5*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {c, 1000}}})
		g := &s.Groups[0]
		g.Type = model.TypeConsumer
		if i >= 1 {
			g.Members = nil
		}
		l := &model.CommitLog{Status: model.CommitLogRead}
		for _, sec := range []int{1, 3, 6, 8, 10, 12, 14} { // every 2 s; the first two by the member
			if sec <= i*5 {
				l.Recent = append(l.Recent, model.CommitRecord{TP: tp, Offset: 100, CommittedAt: t0.Add(time.Duration(sec) * time.Second)})
			}
		}
		g.CommitLog = l
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	c := s.Groups[0].Committer
	if c == nil || c.Commits != 5 || c.IntervalMs.V != 2000 || c.Rate != 0 || len(c.Seen) != 1 || c.Seen[0] != model.SeenCommitLog {
		t.Fatalf("committer %+v: want the 5 commits after 5 s, every 2 s, the same offset again, from the log", c)
	}
}
