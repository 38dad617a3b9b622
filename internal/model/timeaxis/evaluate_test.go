package timeaxis

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

var t0 = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// series scripts samples every `every` from t0: each pair is committed, high.
func series(every time.Duration, pairs ...[2]int64) []Sample {
	out := make([]Sample, len(pairs))
	for i, p := range pairs {
		out[i] = Sample{AtMs: t0.Add(time.Duration(i) * every).UnixMilli(), Committed: p[0], High: p[1]}
	}
	return out
}

// ms is t0 plus sec seconds, in Unix milliseconds.
func ms(sec int) int64 { return t0.Add(time.Duration(sec) * time.Second).UnixMilli() }

func optF(v float64) model.Opt[float64] { return model.Some(v) }
func optI(v int64) model.Opt[int64]     { return model.Some(v) }

// TestEvaluatePartition covers every ETA case (gaining, losing, flat,
// stalled, stopped, rewound, idle topic with no lag) and every evaluation rule
// of docs/timeaxis.md, with a scripted clock and scripted offsets.
func TestEvaluatePartition(t *testing.T) {
	sec, ten := time.Second, 10*time.Second
	tests := []struct {
		name    string
		samples []Sample
		members bool
		unread  bool
		want    model.PartitionTime
	}{
		{"gaining: 80/s consumed, 50/s produced, lag 540 falls 30/s → 18 s",
			series(sec, [2]int64{0, 600}, [2]int64{80, 650}, [2]int64{160, 700}), true, false,
			model.PartitionTime{ConsumeRate: optF(80), ProduceRate: optF(50), LagRate: optF(-30), ETA: model.ETACatchingUp, ETAMs: optI(18000), Evaluation: model.EvalOK}},
		{"losing: lag grows 10/s → never, warn",
			series(sec, [2]int64{0, 100}, [2]int64{40, 150}, [2]int64{80, 200}), true, false,
			model.PartitionTime{ConsumeRate: optF(40), ProduceRate: optF(50), LagRate: optF(10), ETA: model.ETANever, Evaluation: model.EvalWarn}},
		{"flat: consumes exactly what arrives → keeps pace: no ETA, warn (lag did not fall)",
			series(sec, [2]int64{0, 100}, [2]int64{50, 150}, [2]int64{100, 200}), true, false,
			model.PartitionTime{ConsumeRate: optF(50), ProduceRate: optF(50), LagRate: optF(0), ETA: model.ETANone, Evaluation: model.EvalWarn}},
		{"keeps pace: 19.92/s consumed, 20/s produced, the lag grows 0.08/s (under 0.5/s, the step 20/s is shown at) → no ETA",
			series(37500*time.Millisecond, [2]int64{994, 1000}, [2]int64{1741, 1750}, [2]int64{2488, 2500}), true, false,
			model.PartitionTime{ConsumeRate: optF(19.92), ProduceRate: optF(20), LagRate: optF(0.08), ETA: model.ETANone, Evaluation: model.EvalWarn}},
		{"falls behind: 19/s consumed, 20/s produced (5%) → never",
			series(sec, [2]int64{0, 100}, [2]int64{19, 120}, [2]int64{38, 140}), true, false,
			model.PartitionTime{ConsumeRate: optF(19), ProduceRate: optF(20), LagRate: optF(1), ETA: model.ETANever, Evaluation: model.EvalWarn}},
		{"catches up slowly: 1,010/s consumed, 1,000/s produced (1%, above the step of 1/s) → an ETA",
			series(sec, [2]int64{0, 20000}, [2]int64{1010, 21000}, [2]int64{2020, 22000}), true, false,
			model.PartitionTime{ConsumeRate: optF(1010), ProduceRate: optF(1000), LagRate: optF(-10), ETA: model.ETACatchingUp, ETAMs: optI(1998000), Evaluation: model.EvalOK}},
		{"stalled: members, commit still with lag for 40 s ≥ 30 s",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{10, 70}, [2]int64{10, 80}, [2]int64{10, 90}), true, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(1), LagRate: optF(1), ETA: model.ETAStalled, Evaluation: model.EvalStalled}},
		{"stopped: no members, commit still with lag for 30 s",
			series(ten, [2]int64{10, 50}, [2]int64{10, 50}, [2]int64{10, 50}, [2]int64{10, 50}), false, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0), LagRate: optF(0), ETA: model.ETAStopped, Evaluation: model.EvalStopped}},
		{"rewound: committed went back; ETA from the samples after it",
			series(sec, [2]int64{100, 200}, [2]int64{120, 200}, [2]int64{50, 200}, [2]int64{70, 200}), true, false,
			model.PartitionTime{ConsumeRate: optF(20), ProduceRate: optF(0), LagRate: optF(-20), ETA: model.ETARewound, ETAMs: optI(6500), Evaluation: model.EvalRewound}},
		{"rewound at the last sample: no rate after it, no ETA",
			series(sec, [2]int64{100, 200}, [2]int64{120, 200}, [2]int64{50, 200}), true, false,
			model.PartitionTime{ProduceRate: optF(0), ETA: model.ETARewound, Evaluation: model.EvalRewound}},
		{"idle topic with no lag: caught up, nothing moves",
			series(ten, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}), false, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0), LagRate: optF(0), ETA: model.ETACaughtUp, ETAMs: optI(0), Evaluation: model.EvalOK}},
		{"rule 1: lag 0 now is ok even after a rewind",
			series(sec, [2]int64{100, 200}, [2]int64{50, 200}, [2]int64{200, 200}), true, false,
			model.PartitionTime{ConsumeRate: optF(150), ProduceRate: optF(0), LagRate: optF(-150), ETA: model.ETACaughtUp, ETAMs: optI(0), Evaluation: model.EvalOK}},
		{"rule 3 needs the whole --stall-after: still for 20 s only → warn, never",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{10, 70}), true, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(1), LagRate: optF(1), ETA: model.ETANever, Evaluation: model.EvalWarn}},
		{"rule 3 is not fooled by a commit inside the window",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{20, 70}, [2]int64{20, 80}, [2]int64{20, 90}), true, false,
			model.PartitionTime{ConsumeRate: optF(0.25), ProduceRate: optF(1), LagRate: optF(0.75), ETA: model.ETANever, Evaluation: model.EvalWarn}},
		{"rule 5: caught up inside the window, a new record since → ok (Burrow rule 1)",
			series(20*time.Second, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 105}), true, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0.125), LagRate: optF(0.125), ETA: model.ETANever, Evaluation: model.EvalOK}},
		{"rule 3 looks through an unread sample",
			[]Sample{{ms(0), 10, 50}, {ms(10), Unread, Unread}, {ms(20), 10, 60}, {ms(40), 10, 70}}, true, false,
			model.PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0.5), LagRate: optF(0.5), ETA: model.ETAStalled, Evaluation: model.EvalStalled}},
		{"unknown: the high watermark cannot be read now",
			series(sec, [2]int64{0, 100}, [2]int64{10, Unread}), true, false,
			model.PartitionTime{Evaluation: model.EvalUnknown}},
		{"unknown: the group cannot be read now",
			series(sec, [2]int64{0, 100}, [2]int64{10, 110}), true, true,
			model.PartitionTime{ProduceRate: optF(10), Evaluation: model.EvalUnknown}},
		{"one snapshot alone: no rate, no ETA, no evaluation",
			series(sec, [2]int64{0, 100}), true, false,
			model.PartitionTime{}},
		{"no commit now: only the produce rate",
			series(sec, [2]int64{NoCommit, 100}, [2]int64{NoCommit, 130}), true, false,
			model.PartitionTime{ProduceRate: optF(30)}},
		{"first commit in the last sample: one position, no evaluation",
			series(sec, [2]int64{NoCommit, 100}, [2]int64{90, 130}), true, false,
			model.PartitionTime{ProduceRate: optF(30)}},
		{"log truncated (topic recreated): rates start after it",
			series(sec, [2]int64{500, 900}, [2]int64{0, 10}, [2]int64{10, 20}, [2]int64{20, 30}), true, false,
			model.PartitionTime{ConsumeRate: optF(10), ProduceRate: optF(10), LagRate: optF(0), ETA: model.ETARewound, Evaluation: model.EvalRewound}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EvaluatePartition(PartitionSeries{Samples: tc.samples, Members: tc.members, GroupUnread: tc.unread}, Options{})
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestStallAfterOption shows the window is the option, not a constant.
func TestStallAfterOption(t *testing.T) {
	ss := series(time.Second, [2]int64{10, 50}, [2]int64{10, 51}, [2]int64{10, 52})
	for _, tc := range []struct {
		after time.Duration
		want  model.Evaluation
	}{{2 * time.Second, model.EvalStalled}, {3 * time.Second, model.EvalWarn}, {0, model.EvalWarn}} {
		got := EvaluatePartition(PartitionSeries{Samples: ss, Members: true}, Options{StallAfter: tc.after}).Evaluation
		if got != tc.want {
			t.Errorf("StallAfter %v: %v, want %v", tc.after, got, tc.want)
		}
	}
}

// TestEvaluatePartitionLoss feeds the committed record's timestamp in: a
// stopped group loses data when its next record expires.
func TestEvaluatePartitionLoss(t *testing.T) {
	ss := series(10*time.Second, [2]int64{10, 3610}, [2]int64{10, 3610}, [2]int64{10, 3610}, [2]int64{10, 3610})
	next, age := int64(600_000), int64(3_600_000)
	got := EvaluatePartition(PartitionSeries{Samples: ss, NextExpiresInMs: &next, TimeLagMs: &age}, Options{})
	want := &model.Loss{InMs: 600_000, NextExpiresInMs: 600_000, ConsumeRate: 0, NeededRate: 0.8572}
	if got.Evaluation != model.EvalStopped || got.Loss == nil || *got.Loss != *want {
		t.Fatalf("got %v %+v, want stopped %+v", got.Evaluation, got.Loss, want)
	}
	if s := LossSentence(model.TP{Topic: "orders", Partition: 3}, got); s != "orders-3: the group is stopped (no members, and its committed offset does not move); "+
		"retention deletes its next record in 10m → it will lose data unless it resumes at ≥ 0.86/s" {
		t.Errorf("sentence: %s", s)
	}
	// A group that keeps pace, a few records behind on a week's retention, loses nothing at
	// these rates: at 19.92/s against 20/s it was predicted to lose data in 1752 days.
	pace := series(37500*time.Millisecond, [2]int64{994, 1000}, [2]int64{1741, 1750}, [2]int64{2488, 2500})
	week, lag := (7*24*time.Hour).Milliseconds()-600, int64(600)
	if got := EvaluatePartition(PartitionSeries{Samples: pace, Members: true, NextExpiresInMs: &week, TimeLagMs: &lag}, Options{}); got.Loss != nil || got.ETA != model.ETANone {
		t.Errorf("keeping pace: ETA %v, loss %+v; want none of either", got.ETA, got.Loss)
	}
	// One that keeps pace further behind than the retention still loses its backlog.
	behind := series(10*time.Second, [2]int64{0, 7200}, [2]int64{10, 7210}, [2]int64{20, 7220})
	gone, old := int64(-60_000), int64(3_660_000)
	if got := EvaluatePartition(PartitionSeries{Samples: behind, Members: true, NextExpiresInMs: &gone, TimeLagMs: &old}, Options{}); got.Loss == nil || got.Loss.InMs != 0 {
		t.Errorf("keeping pace 2h behind on 1h retention: loss %+v; want a loss now", got.Loss)
	}
	// The same partition caught up has nothing to lose.
	caught := series(time.Second, [2]int64{10, 10}, [2]int64{20, 20})
	if got := EvaluatePartition(PartitionSeries{Samples: caught, NextExpiresInMs: &next, TimeLagMs: &age}, Options{}); got.Loss != nil {
		t.Errorf("caught up: loss %+v", got.Loss)
	}
}
