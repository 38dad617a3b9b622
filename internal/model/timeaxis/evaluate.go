package timeaxis

import (
	"math"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Sample is one reading of a group partition: when it was taken (Unix
// milliseconds, as Kafka keeps time), where the group stood and where the log
// ended.
type Sample struct {
	AtMs      int64
	Committed int64 // NoCommit or Unread when there is no position
	High      int64 // Unread when it could not be read
}

// Markers for a Sample that holds no offset. Kafka offsets are never negative.
const (
	// Unread marks a value that could not be read.
	Unread int64 = math.MinInt64
	// NoCommit marks a partition the group had no commit on.
	NoCommit int64 = -1
)

func (s Sample) known() bool { return s.Committed >= 0 && s.High >= 0 }
func (s Sample) lag() int64  { return s.High - s.Committed }

func committedOf(s Sample) int64 { return s.Committed }
func highOf(s Sample) int64      { return s.High }

// DefaultStallAfter is the --stall-after default: twice the Java consumer's
// auto-commit interval would be 10 s, but Kafka Streams commits every 30 s by
// default, and a healthy consumer must not read as stalled between commits.
const DefaultStallAfter = 30 * time.Second

// Options tune the evaluation.
type Options struct {
	// StallAfter is how long a committed offset must stand still, with lag at
	// every sample, before the partition is stalled (members) or stopped (no
	// members). 0 means DefaultStallAfter.
	StallAfter time.Duration
}

func (o Options) stallAfter() time.Duration {
	if o.StallAfter <= 0 {
		return DefaultStallAfter
	}
	return o.StallAfter
}

// PartitionSeries is what the time axis of one group partition is computed
// from.
type PartitionSeries struct {
	// Samples are oldest first; the last one is the snapshot being described.
	Samples []Sample
	// Members is whether the group has members now.
	Members bool
	// GroupUnread is set when the group itself could not be read now.
	GroupUnread bool
	// NextExpiresInMs and TimeLagMs come from the timestamp of the record at
	// the committed offset now (GroupPartition.ExpiresInMs and TimeLagMs); nil
	// when unknown or when the topic does not delete by time.
	NextExpiresInMs, TimeLagMs *int64
}

// EvaluatePartition computes rates, ETA, evaluation and time to loss of one
// partition by the rules of docs/timeaxis.md. Nothing is computed from fewer
// than two samples that both hold a position.
func EvaluatePartition(in PartitionSeries, opt Options) model.PartitionTime {
	var pt model.PartitionTime
	ss := in.Samples
	if len(ss) == 0 {
		return pt
	}
	sc := scanSamples(ss)
	last := ss[len(ss)-1]
	produce, pOK := sc.rate(ss, sc.high, highOf)
	if pOK {
		pt.ProduceRate = model.Some(roundRate(produce))
	}
	if last.Committed == NoCommit {
		return pt // nothing committed, nothing to evaluate: the status says missing
	}
	if in.GroupUnread || !last.known() {
		pt.Evaluation = model.EvalUnknown
		return pt
	}
	consume, cOK := sc.rate(ss, sc.committed, committedOf)
	if cOK {
		pt.ConsumeRate = model.Some(roundRate(consume))
	}
	lagRate, lOK := sc.lagRate(ss)
	if lOK {
		pt.LagRate = model.Some(roundRate(lagRate))
	}
	if sc.known < 2 {
		return pt
	}
	still := standsStill(ss, opt.stallAfter())
	pt.Evaluation = evaluate(ss, sc, still, in.Members)
	pace := pOK && lOK && keepsPace(lagRate, produce)
	pt.ETA, pt.ETAMs = eta(last.lag(), pt.Evaluation, lagRate, lOK, pace)
	if in.NextExpiresInMs != nil && in.TimeLagMs != nil {
		if pt.Evaluation == model.EvalStalled || pt.Evaluation == model.EvalStopped {
			consume, cOK, pace = 0, true, false // standing still: the rate now is zero
		}
		if pace && cOK {
			// The lag does not grow: arrivals are taken at the consume rate, so only the
			// backlog's own records can expire before they are read (a consumer that keeps
			// pace further behind than the retention still loses them), never the records
			// of a far future at a difference of rates within their precision.
			produce = consume
		}
		if pOK && cOK {
			pt.Loss = predictLoss(last.lag(), consume, produce, *in.NextExpiresInMs, *in.TimeLagMs)
		}
	}
	return pt
}

// keepsPace reports whether a lag changing at lagRate, on a partition produced to at
// produce, neither grows nor falls within the precision of the rates (docs/timeaxis.md):
// by less than 1% of the produce rate, or than half the step the produce rate is shown at
// (0.5/s at 20/s). Such a group has no ETA (it never catches up, nor falls behind) and no
// time to loss from the rates' difference: dividing by a difference that small gave
// "LOSS-IN 9391d15h". A partition nothing is produced to does not keep pace: its commit
// stands still (stalled, stopped) or it catches up.
func keepsPace(lagRate, produce float64) bool {
	if produce <= 0 {
		return false
	}
	return math.Abs(lagRate) < max(produce/100, text.RateStep(produce)/2)
}

// scan is what one pass over the samples finds. Segments start at the first
// sample holding the value after its last decrease: a rate that spans a
// rewind or a truncated log would mean nothing.
type scan struct {
	known        int  // samples with both committed and high
	rewound      bool // committed went down between two samples holding it
	anyCaughtUp  bool // lag ≤ 0 at some sample with both values
	committed    int  // start of the committed offset's segment, -1 when none
	high         int  // start of the high watermark's segment, -1 when none
	lag          int  // start of the lag's segment (either went down), -1 when none
	lastBoth     int  // the last sample with both values, -1 when none
	prevC, prevH int  // the last sample holding each value, -1 when none
}

func scanSamples(ss []Sample) scan {
	sc := scan{committed: -1, high: -1, lag: -1, lastBoth: -1, prevC: -1, prevH: -1}
	for i, s := range ss {
		downC := s.Committed >= 0 && sc.prevC >= 0 && s.Committed < ss[sc.prevC].Committed
		downH := s.High >= 0 && sc.prevH >= 0 && s.High < ss[sc.prevH].High
		if s.Committed >= 0 {
			if sc.committed < 0 || downC {
				sc.committed = i
			}
			sc.rewound = sc.rewound || downC
			sc.prevC = i
		}
		if s.High >= 0 {
			if sc.high < 0 || downH {
				sc.high = i
			}
			sc.prevH = i
		}
		if !s.known() {
			continue
		}
		sc.known++
		sc.anyCaughtUp = sc.anyCaughtUp || s.lag() <= 0
		if sc.lag < 0 || (sc.lastBoth >= 0 && (s.Committed < ss[sc.lastBoth].Committed || s.High < ss[sc.lastBoth].High)) {
			sc.lag = i
		}
		sc.lastBoth = i
	}
	return sc
}

// rate is how fast get(sample) moved per second over its segment, which
// must reach the last sample: a rate that does not reach now is not the
// current rate.
func (sc scan) rate(ss []Sample, from int, get func(Sample) int64) (float64, bool) {
	last := ss[len(ss)-1]
	if from < 0 || get(last) < 0 {
		return 0, false
	}
	return perSecond(ss[from], last, get(last)-get(ss[from]))
}

// lagRate is how fast the lag changed per second since the last rewind of
// the committed offset or truncation of the log.
func (sc scan) lagRate(ss []Sample) (float64, bool) {
	last := ss[len(ss)-1]
	if sc.lag < 0 || !last.known() {
		return 0, false
	}
	return perSecond(ss[sc.lag], last, last.lag()-ss[sc.lag].lag())
}

// evaluate applies the rules in order; docs/timeaxis.md lists them.
func evaluate(ss []Sample, sc scan, still, members bool) model.Evaluation {
	last := ss[len(ss)-1]
	switch {
	case last.lag() <= 0:
		return model.EvalOK // 1. caught up now: never a problem
	case sc.rewound:
		return model.EvalRewound // 2. the committed offset went backwards
	case still && members:
		return model.EvalStalled // 3. members, but the commit stood still with lag
	case still:
		return model.EvalStopped // 4. no members and the commit stood still with lag
	case sc.anyCaughtUp:
		return model.EvalOK // 5. caught up at some sample of the window
	case sc.lag >= 0 && last.lag() >= ss[sc.lag].lag():
		return model.EvalWarn // 6. lag did not fall over the window
	}
	return model.EvalOK
}

// eta mirrors the evaluation for stalled, stopped and rewound partitions and
// otherwise divides the lag by how fast it falls; a partition that keeps pace (the lag
// neither grows nor falls) has none.
func eta(lag int64, ev model.Evaluation, lagRate float64, lagRateOK, pace bool) (model.ETAState, model.Opt[int64]) {
	gaining := lagRateOK && lagRate < 0
	in := func() model.Opt[int64] {
		if !gaining {
			return model.Opt[int64]{}
		}
		return model.Some(int64(math.Ceil(float64(lag) / -lagRate * 1000)))
	}
	switch {
	case lag <= 0:
		return model.ETACaughtUp, model.Some(int64(0))
	case ev == model.EvalRewound:
		return model.ETARewound, in()
	case ev == model.EvalStalled:
		return model.ETAStalled, model.Opt[int64]{}
	case ev == model.EvalStopped:
		return model.ETAStopped, model.Opt[int64]{}
	case !lagRateOK, pace:
		return model.ETANone, model.Opt[int64]{}
	case gaining:
		return model.ETACatchingUp, in()
	}
	return model.ETANever, model.Opt[int64]{}
}

func perSecond(from, to Sample, delta int64) (float64, bool) {
	dt := float64(to.AtMs-from.AtMs) / 1000
	if dt <= 0 {
		return 0, false
	}
	return float64(delta) / dt, true
}

// standsStill reports whether the committed offset was the same, with lag, at
// every sample of the last `after` — and the samples reach back that far.
func standsStill(ss []Sample, after time.Duration) bool {
	last := ss[len(ss)-1]
	cutoff := last.AtMs - after.Milliseconds()
	for i := len(ss) - 1; i >= 0; i-- {
		s := ss[i]
		if !s.known() {
			continue
		}
		if s.Committed != last.Committed || s.lag() <= 0 {
			return false
		}
		if i < len(ss)-1 && s.AtMs <= cutoff {
			return true
		}
	}
	return false
}

// rateDigits is how many significant digits rates keep in JSON: enough for
// any decision, without float noise (80.00000000001/s).
const rateDigits = 4

// roundRate rounds v to rateDigits significant digits.
func roundRate(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	// Scaling by an exact power of ten and back gives the double nearest the
	// rounded decimal, which prints as that decimal.
	k := rateDigits - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	if k >= 0 {
		p := math.Pow10(k)
		return math.Round(v*p) / p
	}
	p := math.Pow10(-k)
	return math.Round(v/p) * p
}
