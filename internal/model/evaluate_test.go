package model

import (
	"testing"
	"time"
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

func optF(v float64) Opt[float64] { return Some(v) }
func optI(v int64) Opt[int64]     { return Some(v) }

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
		want    PartitionTime
	}{
		{"gaining: 80/s consumed, 50/s produced, lag 540 falls 30/s → 18 s",
			series(sec, [2]int64{0, 600}, [2]int64{80, 650}, [2]int64{160, 700}), true, false,
			PartitionTime{ConsumeRate: optF(80), ProduceRate: optF(50), LagRate: optF(-30), ETA: ETACatchingUp, ETAMs: optI(18000), Evaluation: EvalOK}},
		{"losing: lag grows 10/s → never, warn",
			series(sec, [2]int64{0, 100}, [2]int64{40, 150}, [2]int64{80, 200}), true, false,
			PartitionTime{ConsumeRate: optF(40), ProduceRate: optF(50), LagRate: optF(10), ETA: ETANever, Evaluation: EvalWarn}},
		{"flat: consumes exactly what arrives → never, warn (lag did not fall)",
			series(sec, [2]int64{0, 100}, [2]int64{50, 150}, [2]int64{100, 200}), true, false,
			PartitionTime{ConsumeRate: optF(50), ProduceRate: optF(50), LagRate: optF(0), ETA: ETANever, Evaluation: EvalWarn}},
		{"stalled: members, commit still with lag for 40 s ≥ 30 s",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{10, 70}, [2]int64{10, 80}, [2]int64{10, 90}), true, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(1), LagRate: optF(1), ETA: ETAStalled, Evaluation: EvalStalled}},
		{"stopped: no members, commit still with lag for 30 s",
			series(ten, [2]int64{10, 50}, [2]int64{10, 50}, [2]int64{10, 50}, [2]int64{10, 50}), false, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0), LagRate: optF(0), ETA: ETAStopped, Evaluation: EvalStopped}},
		{"rewound: committed went back; ETA from the samples after it",
			series(sec, [2]int64{100, 200}, [2]int64{120, 200}, [2]int64{50, 200}, [2]int64{70, 200}), true, false,
			PartitionTime{ConsumeRate: optF(20), ProduceRate: optF(0), LagRate: optF(-20), ETA: ETARewound, ETAMs: optI(6500), Evaluation: EvalRewound}},
		{"rewound at the last sample: no rate after it, no ETA",
			series(sec, [2]int64{100, 200}, [2]int64{120, 200}, [2]int64{50, 200}), true, false,
			PartitionTime{ProduceRate: optF(0), ETA: ETARewound, Evaluation: EvalRewound}},
		{"idle topic with no lag: caught up, nothing moves",
			series(ten, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 100}), false, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0), LagRate: optF(0), ETA: ETACaughtUp, ETAMs: optI(0), Evaluation: EvalOK}},
		{"rule 1: lag 0 now is ok even after a rewind",
			series(sec, [2]int64{100, 200}, [2]int64{50, 200}, [2]int64{200, 200}), true, false,
			PartitionTime{ConsumeRate: optF(150), ProduceRate: optF(0), LagRate: optF(-150), ETA: ETACaughtUp, ETAMs: optI(0), Evaluation: EvalOK}},
		{"rule 3 needs the whole --stall-after: still for 20 s only → warn, never",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{10, 70}), true, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(1), LagRate: optF(1), ETA: ETANever, Evaluation: EvalWarn}},
		{"rule 3 is not fooled by a commit inside the window",
			series(ten, [2]int64{10, 50}, [2]int64{10, 60}, [2]int64{20, 70}, [2]int64{20, 80}, [2]int64{20, 90}), true, false,
			PartitionTime{ConsumeRate: optF(0.25), ProduceRate: optF(1), LagRate: optF(0.75), ETA: ETANever, Evaluation: EvalWarn}},
		{"rule 5: caught up inside the window, a new record since → ok (Burrow rule 1)",
			series(20*time.Second, [2]int64{100, 100}, [2]int64{100, 100}, [2]int64{100, 105}), true, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0.125), LagRate: optF(0.125), ETA: ETANever, Evaluation: EvalOK}},
		{"rule 3 looks through an unread sample",
			[]Sample{{ms(0), 10, 50}, {ms(10), Unread, Unread}, {ms(20), 10, 60}, {ms(40), 10, 70}}, true, false,
			PartitionTime{ConsumeRate: optF(0), ProduceRate: optF(0.5), LagRate: optF(0.5), ETA: ETAStalled, Evaluation: EvalStalled}},
		{"unknown: the high watermark cannot be read now",
			series(sec, [2]int64{0, 100}, [2]int64{10, Unread}), true, false,
			PartitionTime{Evaluation: EvalUnknown}},
		{"unknown: the group cannot be read now",
			series(sec, [2]int64{0, 100}, [2]int64{10, 110}), true, true,
			PartitionTime{ProduceRate: optF(10), Evaluation: EvalUnknown}},
		{"one snapshot alone: no rate, no ETA, no evaluation",
			series(sec, [2]int64{0, 100}), true, false,
			PartitionTime{}},
		{"no commit now: only the produce rate",
			series(sec, [2]int64{NoCommit, 100}, [2]int64{NoCommit, 130}), true, false,
			PartitionTime{ProduceRate: optF(30)}},
		{"first commit in the last sample: one position, no evaluation",
			series(sec, [2]int64{NoCommit, 100}, [2]int64{90, 130}), true, false,
			PartitionTime{ProduceRate: optF(30)}},
		{"log truncated (topic recreated): rates start after it",
			series(sec, [2]int64{500, 900}, [2]int64{0, 10}, [2]int64{10, 20}, [2]int64{20, 30}), true, false,
			PartitionTime{ConsumeRate: optF(10), ProduceRate: optF(10), LagRate: optF(0), ETA: ETARewound, Evaluation: EvalRewound}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EvaluatePartition(PartitionSeries{Samples: tc.samples, Members: tc.members, GroupUnread: tc.unread}, TimeOptions{})
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
		want  Evaluation
	}{{2 * time.Second, EvalStalled}, {3 * time.Second, EvalWarn}, {0, EvalWarn}} {
		got := EvaluatePartition(PartitionSeries{Samples: ss, Members: true}, TimeOptions{StallAfter: tc.after}).Evaluation
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
	got := EvaluatePartition(PartitionSeries{Samples: ss, NextExpiresInMs: &next, TimeLagMs: &age}, TimeOptions{})
	want := &Loss{InMs: 600_000, NextExpiresInMs: 600_000, ConsumeRate: 0, NeededRate: 0.8572}
	if got.Evaluation != EvalStopped || got.Loss == nil || *got.Loss != *want {
		t.Fatalf("got %v %+v, want stopped %+v", got.Evaluation, got.Loss, want)
	}
	if s := LossSentence(TP{"orders", 3}, got); s != "orders-3: the group is stopped (no members, and its committed offset does not move); "+
		"retention deletes its next record in 10m → it will lose data unless it resumes at ≥ 0.86/s" {
		t.Errorf("sentence: %s", s)
	}
	// The same partition caught up has nothing to lose.
	caught := series(time.Second, [2]int64{10, 10}, [2]int64{20, 20})
	if got := EvaluatePartition(PartitionSeries{Samples: caught, NextExpiresInMs: &next, TimeLagMs: &age}, TimeOptions{}); got.Loss != nil {
		t.Errorf("caught up: loss %+v", got.Loss)
	}
}
