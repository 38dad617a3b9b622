package timeaxis

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/offsettui/offsettui/internal/model"
)

// snapAt is a snapshot at t0+at of groups given as name → partition → committed, high.
func snapAt(at time.Duration, groups map[string]map[model.TP][2]int64) *model.Snapshot {
	s := &model.Snapshot{Cluster: model.Cluster{TakenAt: model.Stamp{Time: t0.Add(at)}}}
	for name, parts := range groups {
		g := model.Group{Group: name, Members: []model.Member{{}}, TotalLag: model.Ptr(int64(0))}
		for tp, v := range parts {
			p := model.GroupPartition{Topic: tp.Topic, Partition: tp.Partition, High: model.Ptr(v[1]), Status: model.StatusOK}
			if v[0] >= 0 {
				p.Committed = model.Ptr(v[0])
			} else {
				p.Status = model.StatusMissing
			}
			g.Partitions = append(g.Partitions, p)
		}
		slices.SortFunc(g.Partitions, func(a, b model.GroupPartition) int { return model.CompareTP(a.TP(), b.TP()) })
		s.Groups = append(s.Groups, g)
	}
	return s
}

func committedSeries(h *History, g string, tp model.TP) []int64 {
	var out []int64
	for _, s := range h.Series(g, tp) {
		out = append(out, s.Committed)
	}
	return out
}

func TestHistoryKeepsAtMostKeep(t *testing.T) {
	h := NewHistory(4, 0)
	tp := model.TP{Topic: "t", Partition: 0}
	for i := range 10 {
		h.Add(snapAt(time.Duration(i)*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {int64(i), 100}}}), true)
	}
	if got := fmt.Sprint(committedSeries(h, "g", tp)); got != "[6 7 8 9]" {
		t.Errorf("kept %s, want the last 4", got)
	}
	ss := h.Series("g", tp)
	if !time.UnixMilli(ss[0].AtMs).Equal(t0.Add(6*time.Second)) || !time.UnixMilli(ss[3].AtMs).Equal(t0.Add(9*time.Second)) {
		t.Errorf("times %v … %v", time.UnixMilli(ss[0].AtMs), time.UnixMilli(ss[3].AtMs))
	}
}

func TestHistoryThinsFastSamples(t *testing.T) {
	// One sample a second with a 4 s gap: every other kept sample is ≥ 4 s
	// from the one before the newest, so 5 samples span ≥ 8 s.
	h := NewHistory(5, 4*time.Second)
	tp := model.TP{Topic: "t", Partition: 0}
	for i := range 30 {
		h.Add(snapAt(time.Duration(i)*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {int64(i), 100}}}), true)
	}
	ss := h.Series("g", tp)
	if len(ss) != 5 || ss[4].Committed != 29 {
		t.Fatalf("series %+v", ss)
	}
	for i := 2; i < len(ss); i++ {
		if d := time.UnixMilli(ss[i].AtMs).Sub(time.UnixMilli(ss[i-2].AtMs)); d < 4*time.Second {
			t.Errorf("samples %d and %d only %v apart", i-2, i, d)
		}
	}
	if span := time.UnixMilli(ss[4].AtMs).Sub(time.UnixMilli(ss[0].AtMs)); span < 8*time.Second {
		t.Errorf("window %v, want ≥ 8s", span)
	}
}

func TestHistoryOrderAndMembership(t *testing.T) {
	h := NewHistory(8, 0)
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
	h.Add(snapAt(2*time.Second, map[string]map[model.TP][2]int64{"g": {a: {1, 10}}, "gone": {a: {1, 10}}}), true)
	h.Add(snapAt(1*time.Second, map[string]map[model.TP][2]int64{"g": {a: {0, 10}}}), false) // older: ignored
	h.Add(snapAt(2*time.Second, map[string]map[model.TP][2]int64{"g": {a: {2, 10}}}), false) // same time: replaces
	h.Add(snapAt(3*time.Second, map[string]map[model.TP][2]int64{"g": {a: {3, 10}, b: {-1, 5}}}), false)
	if got := fmt.Sprint(committedSeries(h, "g", a)); got != "[2 3]" {
		t.Errorf("g/a %s", got)
	}
	if got := fmt.Sprint(committedSeries(h, "g", b)); got != fmt.Sprint([]int64{Unread, NoCommit}) {
		t.Errorf("g/b (new, no commit) %s", got)
	}
	if h.Series("gone", a) == nil {
		t.Error("a partial snapshot forgot a group it did not list")
	}
	h.Add(snapAt(4*time.Second, map[string]map[model.TP][2]int64{"g": {b: {4, 5}}}), true)
	if h.Series("gone", a) != nil || h.Series("g", a) != nil {
		t.Error("a complete snapshot kept a group or partition it does not list")
	}
}

// TestHistoryIsCompact: in steady state, adding a group of 1,000 partitions
// allocates per group, not per partition, and keeps the snapshot's strings
// instead of copying them.
func TestHistoryIsCompact(t *testing.T) {
	parts := map[model.TP][2]int64{}
	for i := range 1000 {
		parts[model.TP{Topic: "topic", Partition: int32(i)}] = [2]int64{int64(i), 2000}
	}
	h := NewHistory(16, 0)
	for i := range 16 {
		h.Add(snapAt(time.Duration(i)*time.Second, map[string]map[model.TP][2]int64{"g": parts}), true)
	}
	s := snapAt(100*time.Second, map[string]map[model.TP][2]int64{"g": parts})
	for k := range s.Groups[0].Partitions {
		p := &s.Groups[0].Partitions[k]
		p.Topic = strings.Clone(p.Topic) // this snapshot's own string
	}
	i := 100
	allocs := testing.AllocsPerRun(20, func() {
		i++
		s.Cluster.TakenAt = model.Stamp{Time: t0.Add(time.Duration(i) * time.Second)}
		h.Add(s, false)
	})
	if allocs > 3 {
		t.Errorf("%.0f allocations per Add of a 1,000-partition group", allocs)
	}
	shared := map[*byte]bool{}
	for _, p := range s.Groups[0].Partitions {
		shared[unsafe.StringData(p.Topic)] = true
	}
	for _, ph := range h.groups["g"].parts {
		if !shared[unsafe.StringData(ph.tp.Topic)] {
			t.Fatal("the history holds a topic name that is not the newest snapshot's")
		}
	}
	if n := len(h.groups["g"].at); n != 16 {
		t.Errorf("%d samples kept, want 16", n)
	}
}

// TestHistoryUnsortedPartitions: a group whose partitions are not in order is
// recorded all the same.
func TestHistoryUnsortedPartitions(t *testing.T) {
	h := NewHistory(4, 0)
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
	for i := range 2 {
		s := snapAt(time.Duration(i)*time.Second, map[string]map[model.TP][2]int64{"g": {a: {int64(i), 10}, b: {int64(10 + i), 20}}})
		slices.Reverse(s.Groups[0].Partitions)
		h.Add(s, true)
	}
	if got := fmt.Sprint(committedSeries(h, "g", a), committedSeries(h, "g", b)); got != "[0 1] [10 11]" {
		t.Errorf("series %s", got)
	}
}

// TestWatchHistoryWindow pins the window docs/tui.md and docs/timeaxis.md state for the TUI
// and --watch (16 samples, --stall-after 30s): 75 s at the default 5 s refresh (every sample
// kept); at 1 s refreshes at least 1.9 × --stall-after; and a group not read for a while (a
// TUI with another group's screen open) spans the gap until new samples replace the old.
func TestWatchHistoryWindow(t *testing.T) {
	tp := model.TP{Topic: "t", Partition: 0}
	span := func(h *History, g string) time.Duration {
		ss := h.Series(g, tp)
		return time.UnixMilli(ss[len(ss)-1].AtMs).Sub(time.UnixMilli(ss[0].AtMs))
	}
	both := func(at time.Duration) *model.Snapshot {
		return snapAt(at, map[string]map[model.TP][2]int64{"list": {tp: {1, 2}}, "open": {tp: {1, 2}}})
	}
	h := NewWatchHistory(30 * time.Second)
	for i := range 30 {
		h.Add(both(time.Duration(i)*5*time.Second), true)
	}
	if got := span(h, "list"); got != 75*time.Second {
		t.Errorf("5 s refreshes: window %v, want 75s", got)
	}
	fast := NewWatchHistory(30 * time.Second)
	for i := range 300 {
		fast.Add(both(time.Duration(i)*time.Second), true)
	}
	if got := span(fast, "list"); got < 57*time.Second || got > 2*time.Minute {
		t.Errorf("1 s refreshes: window %v, want 1.9 × 30s to 2m", got)
	}
	// A group's screen open for 4 minutes: only "open" is read (not a full snapshot), then
	// the list again, three refreshes.
	at := 29 * 5 * time.Second
	for range 48 {
		at += 5 * time.Second
		h.Add(snapAt(at, map[string]map[model.TP][2]int64{"open": {tp: {1, 2}}}), false)
	}
	for range 3 {
		at += 5 * time.Second
		h.Add(both(at), true)
	}
	if got := span(h, "list"); got != 5*time.Minute+15*time.Second {
		t.Errorf("after 4 minutes on another group: window %v, want 5m15s (the gap spanned)", got)
	}
	if got := span(h, "open"); got != 75*time.Second {
		t.Errorf("the group kept open: window %v, want 75s", got)
	}
}
