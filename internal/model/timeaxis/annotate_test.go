package timeaxis

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// annotated adds each snapshot of steps (taken `every` apart) to a history
// and annotates the last one.
func annotated(every time.Duration, steps ...map[string]map[model.TP][2]int64) *model.Snapshot {
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i, st := range steps {
		s = snapAt(time.Duration(i)*every, st)
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	return s
}

func TestAnnotateOneSnapshotShowsNoRates(t *testing.T) {
	s := annotated(time.Second, map[string]map[model.TP][2]int64{"g": {{Topic: "t", Partition: 0}: {5, 10}}})
	if s.Window != nil || s.Groups[0].Time != nil || s.Groups[0].Partitions[0].Time != nil {
		t.Fatalf("one snapshot has a time axis: %+v", s.Groups[0])
	}
	b, _ := json.Marshal(s)
	for _, want := range []string{`"window":null`, `"time":null`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
}

func TestAnnotateGroupRollup(t *testing.T) {
	a, b, m := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}, model.TP{Topic: "t", Partition: 2}
	s := annotated(time.Second,
		map[string]map[model.TP][2]int64{"g": {a: {0, 100}, b: {0, 40}, m: {-1, 10}}},
		map[string]map[model.TP][2]int64{"g": {a: {30, 110}, b: {20, 50}, m: {-1, 20}}},
	)
	g := s.Groups[0]
	want := model.GroupTime{Samples: 2, WindowMs: 1000, ConsumeRate: optF(50), ProduceRate: optF(20), LagRate: optF(-30),
		ETA: model.ETACatchingUp, ETAMs: optI(4000), Evaluation: model.EvalOK}
	if g.Time == nil || *g.Time != want {
		t.Fatalf("group time %+v\nwant %+v", g.Time, want)
	}
	// a: lag 80 falling 20/s → 4 s; b: lag 30 falling 10/s → 3 s; the group
	// is caught up when its slowest partition is.
	if pt := g.Partitions[0].Time; pt.ETAMs != optI(4000) {
		t.Errorf("a ETA %+v", pt.ETAMs)
	}
	if pt := g.Partitions[2].Time; pt.Evaluation != model.EvalNone || pt.ProduceRate != optF(10) {
		t.Errorf("missing partition %+v", pt)
	}
	if s.Window == nil || s.Window.Samples != 2 || !s.Window.From.Equal(t0) || !s.Window.To.Equal(t0.Add(time.Second)) {
		t.Errorf("window %+v", s.Window)
	}
}

func TestAnnotatePartialGroupIsNotWhole(t *testing.T) {
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
	steps := []map[string]map[model.TP][2]int64{
		{"g": {a: {0, 100}, b: {0, 40}}},
		{"g": {a: {30, 110}, b: {20, 50}}},
	}
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i, st := range steps {
		s = snapAt(time.Duration(i)*time.Second, st)
		if i == 1 {
			s.Groups[0].Partitions[1].High, s.Groups[0].Partitions[1].Status = nil, model.StatusUnknown // b unreadable now
		}
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	gt := s.Groups[0].Time
	if gt.ConsumeRate.OK || gt.ProduceRate.OK || gt.LagRate.OK || gt.ETAMs.OK || gt.ETA != model.ETANone {
		t.Errorf("a group with an unknown partition shows a whole number: %+v", gt)
	}
	if gt.Evaluation != model.EvalUnknown {
		t.Errorf("evaluation %v, want unknown", gt.Evaluation)
	}
}

func TestAnnotateWorstETAAndSoonestLoss(t *testing.T) {
	a, b := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i := range 4 {
		s = snapAt(time.Duration(i)*10*time.Second, map[string]map[model.TP][2]int64{"g": {
			a: {int64(i) * 100, 1000}, // catching up
			b: {10, 3610},             // stalled: members, not moving
		}})
		p := &s.Groups[0].Partitions[1]
		if p.TP() != b {
			p = &s.Groups[0].Partitions[0]
		}
		p.ExpiresInMs = model.Ptr(int64(600_000))
		p.TimeLagMs = model.Ptr(int64(3_600_000))
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	gt := s.Groups[0].Time
	if gt.ETA != model.ETAStalled || gt.ETAMs.OK || gt.Evaluation != model.EvalStalled {
		t.Errorf("group %+v", gt)
	}
	if gt.Loss == nil || gt.Loss.Topic != "t" || gt.Loss.Partition != 1 || gt.Loss.InMs != 600_000 ||
		!strings.HasPrefix(gt.Loss.Sentence, "t-1: the group is stalled") {
		t.Errorf("loss %+v", gt.Loss)
	}
}

func TestTimeAxisJSONRoundTrip(t *testing.T) {
	s := annotated(time.Second,
		map[string]map[model.TP][2]int64{"g": {{Topic: "t", Partition: 0}: {0, 100}}},
		map[string]map[model.TP][2]int64{"g": {{Topic: "t", Partition: 0}: {30, 110}}},
	)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"consumeRate":30`, `"eta":"catching-up"`, `"etaMs":4000`, `"evaluation":"ok"`, `"loss":null`, `"samples":2`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
	var back model.Snapshot
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if *back.Groups[0].Time != *s.Groups[0].Time || *back.Groups[0].Partitions[0].Time != *s.Groups[0].Partitions[0].Time {
		t.Errorf("round trip changed the time axis: %+v", back.Groups[0].Time)
	}
}

// A partition nobody consumes stands still with lag while the group's members read another
// topic: its own evaluation says so, the group's rates and evaluation leave it out.
func TestAnnotateLeavesOutNotConsumed(t *testing.T) {
	active, stale := model.TP{Topic: "active", Partition: 0}, model.TP{Topic: "stale", Partition: 0}
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i := range 5 {
		s = snapAt(time.Duration(i)*10*time.Second, map[string]map[model.TP][2]int64{"g": {active: {int64(10 * i), int64(10 * i)}, stale: {20, 100}}})
		s.Groups[0].Partitions[1].Subscribed = model.Ptr(false)
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	g := s.Groups[0]
	if pt := g.Partitions[1].Time; pt == nil || pt.Evaluation != model.EvalStalled {
		t.Fatalf("stale partition %+v, want stalled (its commit stands still with lag)", pt)
	}
	want := model.GroupTime{Samples: 5, WindowMs: 40000, ConsumeRate: optF(1), ProduceRate: optF(1), LagRate: optF(0),
		ETA: model.ETACaughtUp, ETAMs: optI(0), Evaluation: model.EvalOK}
	if g.Time == nil || *g.Time != want {
		t.Errorf("group time %+v\nwant %+v (the active partition alone)", g.Time, want)
	}
}

// A read_committed consumer that committed "last record + 1" before the last commit marker
// stands still one offset below high: with the marker known, it is caught up, never stalled.
func TestAnnotateMarkersCaughtUp(t *testing.T) {
	tp := model.TP{Topic: "t", Partition: 0}
	h := NewHistory(16, 0)
	var s *model.Snapshot
	for i := range 5 {
		s = snapAt(time.Duration(i)*10*time.Second, map[string]map[model.TP][2]int64{"g": {tp: {59, 60}}})
		s.Groups[0].Partitions[0].Lag = model.Ptr(int64(0))
		s.Groups[0].Partitions[0].SetTransactionMarkers(&model.TransactionMarkers{ControlRecords: 1, KafkaLag: 1})
		h.Add(s, true)
	}
	h.Annotate(s, Options{})
	pt, gt := s.Groups[0].Partitions[0].Time, s.Groups[0].Time
	if pt == nil || pt.Evaluation != model.EvalOK || pt.ETA != model.ETACaughtUp || gt == nil || gt.Evaluation != model.EvalOK || gt.ETA != model.ETACaughtUp {
		t.Errorf("partition %+v, group %+v: want ok and caught up", pt, gt)
	}
}
