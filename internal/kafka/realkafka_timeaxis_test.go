package kafka_test

import (
	"math"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaTimeAxis reads positions a real broker reports over three
// snapshots: the group's commit moves 50 offsets between the first two (an
// admin commit, as a group without members), then stands still. The rates
// are the moves divided by the time between the snapshots; the group is
// catching up, then stopped (no members, --stall-after 1s); stopped, its loss
// is when its next record expires (the record's timestamp plus retention.ms).
func TestRealKafkaTimeAxis(t *testing.T) {
	addr := realkafka.Addr(t)
	seed := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("timeaxis"), realkafka.Name("timeaxis-g")
	hour := "3600000"
	seed.CreateTopic(topic, 1, map[string]*string{"retention.ms": &hour})
	start := time.Now().Add(-50 * time.Minute).Truncate(time.Millisecond)
	seed.ProduceN(topic, 0, 100, func(i int) time.Time { return start.Add(time.Duration(i) * 30 * time.Second) })
	tp := model.TP{Topic: topic, Partition: 0}
	seed.Commit(group, map[model.TP]int64{tp: 10})

	c := newClient(t, []string{addr}, time.Now)
	h := timeaxis.NewHistory(16, 0)
	opt := timeaxis.Options{StallAfter: time.Second}
	take := func() model.GroupPartition {
		t.Helper()
		s, err := c.Snapshot(realkafka.Ctx(t, 30*time.Second), model.Query{Groups: []string{group}, RiskWindow: 24 * time.Hour,
			FetchBudget: model.DefaultFetchBudget})
		if err != nil {
			t.Fatal(err)
		}
		h.Add(&s, true)
		h.Annotate(&s, opt)
		return findPartition(t, findGroup(t, s, group), topic, 0)
	}
	series := func() []timeaxis.Sample { return h.Series(group, tp) }

	take()
	time.Sleep(500 * time.Millisecond)
	seed.Commit(group, map[model.TP]int64{tp: 60})
	p := take()
	ss := series()
	want := 50 / (float64(ss[1].AtMs-ss[0].AtMs) / 1000)
	pt := p.Time
	if pt == nil || math.Abs(pt.ConsumeRate.V-want) > want*0.001 || pt.ProduceRate != model.Some(0.0) {
		t.Fatalf("rates %+v, want consume %.3f/s and produce 0", pt, want)
	}
	if pt.ETA != model.ETACatchingUp || math.Abs(float64(pt.ETAMs.V)-40/want*1000) > 2 || pt.Evaluation != model.EvalOK {
		t.Errorf("ETA %v %+v, evaluation %v; want catching up in %.0f ms, ok", pt.ETA, pt.ETAMs, pt.Evaluation, 40/want*1000)
	}

	time.Sleep(1200 * time.Millisecond)
	p = take()
	pt = p.Time
	if pt.Evaluation != model.EvalStopped || pt.ETA != model.ETAStopped {
		t.Fatalf("after standing still for %v with no members: %v / %v, want stopped", time.Duration(series()[2].AtMs-series()[1].AtMs)*time.Millisecond, pt.Evaluation, pt.ETA)
	}
	// Record 60 was written 30 minutes after start and is kept for 1h: it expires about 40
	// minutes after the test began, counted from this snapshot (seeding may be slow).
	expires := start.Add(60*30*time.Second + time.Hour).Sub(time.UnixMilli(series()[2].AtMs))
	if p.ExpiresInMs == nil || pt.Loss == nil || pt.Loss.InMs != *p.ExpiresInMs || pt.Loss.ConsumeRate != 0 ||
		math.Abs(float64(*p.ExpiresInMs)-float64(expires.Milliseconds())) > float64(5*time.Second/time.Millisecond) {
		t.Errorf("loss %+v, expires in %v ms; want the next record's expiry, in %v", pt.Loss, p.ExpiresInMs, expires)
	}
}
