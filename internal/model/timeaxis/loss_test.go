package timeaxis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

func TestPredictLoss(t *testing.T) {
	// A backlog of 3600 records written evenly over the last hour (1/s); its
	// first record expires in 10 min, so retention is 70 min.
	const n, tl, e0 = 3600, 3_600_000, 600_000
	tests := []struct {
		name string
		lag  int64
		c, p float64
		next int64
		want *model.Loss
	}{
		{"not moving: the next record is the first lost", n, 0, 0, e0,
			&model.Loss{InMs: 600_000, NextExpiresInMs: e0, NeededRate: 0.8572}},
		{"already deletable", n, 5, 0, -1000,
			&model.Loss{InMs: 0, NextExpiresInMs: -1000, ConsumeRate: 5, NeededRate: 1.001}},
		{"too slow inside the backlog: overtaken at record 600 after 1200 s", n, 0.5, 0, e0,
			&model.Loss{InMs: 1_200_000, NextExpiresInMs: e0, ConsumeRate: 0.5, NeededRate: 0.8572}},
		{"catching up, but too slowly: overtaken at record 2400 after 3000 s", n, 0.8, 0.5, e0,
			&model.Loss{InMs: 3_000_000, NextExpiresInMs: e0, ConsumeRate: 0.8, NeededRate: 0.8572}},
		{"outruns the backlog, never catches up: overtaken among new records", n, 2, 3, e0,
			&model.Loss{InMs: 9_000_000, NextExpiresInMs: e0, ConsumeRate: 2, NeededRate: 3}},
		{"outruns retention and catches up", n, 2, 1, e0, nil},
		{"exactly as fast as arrivals, fast enough for the backlog", n, 1, 1, e0, nil},
		{"no lag", 0, 0, 0, e0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := predictLoss(tc.lag, tc.c, tc.p, tc.next, tl)
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPredictLossAgainstSimulation checks the closed form against a record by
// record simulation of the same model: each record may be deleted retention
// after its timestamp; the consumer reaches record k at k/c; the first loss is
// the deletion of the first record deleted before it is reached.
func TestPredictLossAgainstSimulation(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for i := 0; i < 300; i++ {
		lag := int64(100 + r.IntN(5000))
		tl := 1 + r.Float64()*7200 // seconds
		e0 := 1 + r.Float64()*3600
		c := r.Float64() * 3 * float64(lag) / tl
		p := r.Float64() * 3 * float64(lag) / tl
		got := predictLoss(lag, c, p, int64(e0*1000), int64(tl*1000))
		want, lost := simulateLoss(lag, c, p, e0, tl)
		if got != nil && float64(got.InMs)/1000*c > simRecords(lag) {
			continue // beyond what the simulation follows
		}
		spacing := math.Max(tl/float64(lag), 1/math.Max(p, 1e-9)) // one record's worth of time
		switch {
		case got == nil && lost && want < 1e6:
			t.Errorf("case %d (lag %d tl %.0f e0 %.0f c %.3f p %.3f): no loss predicted, simulation loses at %.0f s", i, lag, tl, e0, c, p, want)
		case got != nil && !lost:
			t.Errorf("case %d (lag %d tl %.0f e0 %.0f c %.3f p %.3f): loss predicted at %d ms, simulation loses nothing", i, lag, tl, e0, c, p, got.InMs)
		case got != nil && math.Abs(float64(got.InMs)/1000-want) > 0.01*want+2*spacing:
			t.Errorf("case %d (lag %d tl %.0f e0 %.0f c %.3f p %.3f): loss at %d ms, simulation %.0f s", i, lag, tl, e0, c, p, got.InMs, want)
		}
		if got != nil && c > 0 {
			// At the needed rate the simulation loses nothing.
			if _, lost := simulateLoss(lag, got.NeededRate*1.001, p, e0, tl); lost {
				t.Errorf("case %d: still loses at the needed rate %.3f", i, got.NeededRate)
			}
		}
	}
}

// simulateLoss returns when the first unread record is deleted, in seconds.
// It follows records until the consumer is caught up or far beyond.
func simulateLoss(lag int64, c, p, e0, tl float64) (float64, bool) {
	if c <= 0 {
		return e0, true
	}
	retention := e0 + tl
	for k := int64(0); float64(k) < simRecords(lag); k++ {
		var expires float64
		if k < lag {
			expires = e0 + float64(k)*tl/float64(lag)
		} else {
			if p <= 0 {
				return 0, false
			}
			expires = retention + float64(k-lag)/p
			if float64(k-lag)/p >= float64(k)/c && c > p {
				return 0, false // caught up with arrivals: nothing more to lose
			}
		}
		if float64(k)/c > expires {
			return expires, true
		}
	}
	return 0, false
}

func simRecords(lag int64) float64 { return float64(lag)*20 + 2e5 }

func TestLossSentences(t *testing.T) {
	loss := func(in, next int64, c, need float64) *model.Loss {
		return &model.Loss{InMs: in, NextExpiresInMs: next, ConsumeRate: c, NeededRate: need}
	}
	tp := model.TP{Topic: "orders", Partition: 3}
	tests := []struct {
		pt   model.PartitionTime
		want string
	}{
		{model.PartitionTime{ETA: model.ETACatchingUp, ETAMs: optI(12_000_000), Loss: loss(3_000_000, 600_000, 0.8, 0.858)},
			"orders-3: at this rate the group catches up in 3h20m, but retention deletes records it has not read in 50m " +
				"(its next record expires in 10m) → it will lose data unless it consumes ≥ 1.1× faster (≥ 0.86/s)"},
		{model.PartitionTime{ETA: model.ETANever, ProduceRate: optF(50), Loss: loss(3_120_000, 2_400_000, 40, 104.2)},
			"orders-3: at this rate the group never catches up (it consumes 40/s, 50/s arrive), but retention deletes records " +
				"it has not read in 52m (its next record expires in 40m) → it will lose data unless it consumes ≥ 2.7× faster (≥ 105/s)"},
		{model.PartitionTime{ETA: model.ETAStalled, Loss: loss(2_400_000, 2_400_000, 0, 2.04)},
			"orders-3: the group is stalled (it has members, but its committed offset does not move); retention deletes its " +
				"next record in 40m → it will lose data unless it resumes at ≥ 2.1/s"},
		{model.PartitionTime{ETA: model.ETANever, Loss: loss(0, -5, 0, 12)},
			"orders-3: the group's committed offset did not move; retention may already delete its next record → it will lose " +
				"data unless it resumes at ≥ 12/s"},
	}
	for _, tc := range tests {
		if got := LossSentence(tp, tc.pt); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	if got := LossSentence(tp, model.PartitionTime{}); got != "" {
		t.Errorf("no loss: %q", got)
	}
}

func TestFormatRate(t *testing.T) {
	for v, want := range map[float64]string{0: "0/s", 105.4: "105/s", 2.54: "2.5/s", 0.386: "0.39/s", -30: "-30/s",
		0.00002: "0.072/h", -0.00002: "-0.072/h", 0.0000001: "0.0086/d", 0.9996: "1.0/s", 9.96: "10/s"} {
		if got := text.FormatRate(v); got != want {
			t.Errorf("FormatRate(%v) = %s, want %s", v, got, want)
		}
	}
	for v, want := range map[float64]string{104.2: "105/s", 2.01: "2.1/s", 0.381: "0.39/s", 0.05: "0.05/s", 0.0000201: "0.073/h"} {
		if got := text.FormatRateUp(v); got != want {
			t.Errorf("text.FormatRateUp(%v) = %s, want %s", v, got, want)
		}
	}
}
