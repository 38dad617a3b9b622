package model

import (
	"math"
	"strconv"
	"time"
)

// Sample is one reading of a group partition: when it was taken, where the
// group stood and where the log ended.
type Sample struct {
	At        time.Time
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

// TimeOptions tune the evaluation.
type TimeOptions struct {
	// StallAfter is how long a committed offset must stand still, with lag at
	// every sample, before the partition is stalled (members) or stopped (no
	// members). 0 means DefaultStallAfter.
	StallAfter time.Duration
}

func (o TimeOptions) stallAfter() time.Duration {
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
func EvaluatePartition(in PartitionSeries, opt TimeOptions) PartitionTime {
	var pt PartitionTime
	ss := in.Samples
	if len(ss) == 0 {
		return pt
	}
	last := ss[len(ss)-1]
	if v, ok := rate(ss, highOf); ok {
		pt.ProduceRate = Some(roundRate(v))
	}
	if last.Committed == NoCommit {
		return pt // nothing committed, nothing to evaluate: the status says missing
	}
	if in.GroupUnread || !last.known() {
		pt.Evaluation = EvalUnknown
		return pt
	}
	consume, cOK := rate(ss, committedOf)
	if cOK {
		pt.ConsumeRate = Some(roundRate(consume))
	}
	lagRate, lOK := lagRateOf(ss)
	if lOK {
		pt.LagRate = Some(roundRate(lagRate))
	}
	if countKnown(ss) < 2 {
		return pt
	}
	still := standsStill(ss, opt.stallAfter())
	pt.Evaluation = evaluate(ss, still, in.Members)
	pt.ETA, pt.ETAMs = eta(last.lag(), pt.Evaluation, lagRate, lOK)
	if in.NextExpiresInMs != nil && in.TimeLagMs != nil {
		if pt.Evaluation == EvalStalled || pt.Evaluation == EvalStopped {
			consume, cOK = 0, true // standing still: the rate now is zero
		}
		if p, ok := rate(ss, highOf); ok && cOK {
			pt.Loss = predictLoss(last.lag(), consume, p, *in.NextExpiresInMs, *in.TimeLagMs)
		}
	}
	return pt
}

// evaluate applies the rules in order; docs/timeaxis.md lists them.
func evaluate(ss []Sample, still, members bool) Evaluation {
	last := ss[len(ss)-1]
	switch {
	case last.lag() <= 0:
		return EvalOK // 1. caught up now: never a problem
	case decreased(ss, committedOf):
		return EvalRewound // 2. the committed offset went backwards
	case still && members:
		return EvalStalled // 3. members, but the commit stood still with lag
	case still:
		return EvalStopped // 4. no members and the commit stood still with lag
	case anyCaughtUp(ss):
		return EvalOK // 5. caught up at some sample of the window
	}
	first, ok := lagSegmentStart(ss)
	if ok && last.lag() >= ss[first].lag() {
		return EvalWarn // 6. lag did not fall over the window
	}
	return EvalOK
}

// eta mirrors the evaluation for stalled, stopped and rewound partitions and
// otherwise divides the lag by how fast it falls.
func eta(lag int64, ev Evaluation, lagRate float64, lagRateOK bool) (ETAState, Opt[int64]) {
	gaining := lagRateOK && lagRate < 0
	in := func() Opt[int64] {
		if !gaining {
			return Opt[int64]{}
		}
		return Some(int64(math.Ceil(float64(lag) / -lagRate * 1000)))
	}
	switch {
	case lag <= 0:
		return ETACaughtUp, Some(int64(0))
	case ev == EvalRewound:
		return ETARewound, in()
	case ev == EvalStalled:
		return ETAStalled, Opt[int64]{}
	case ev == EvalStopped:
		return ETAStopped, Opt[int64]{}
	case !lagRateOK:
		return ETANone, Opt[int64]{}
	case gaining:
		return ETACatchingUp, in()
	}
	return ETANever, Opt[int64]{}
}

// rate is how fast get(sample) moved per second, measured from the first
// sample after its last decrease to the last sample. The last sample must hold
// the value: a rate that does not reach now is not the current rate.
func rate(ss []Sample, get func(Sample) int64) (float64, bool) {
	if get(ss[len(ss)-1]) < 0 {
		return 0, false
	}
	first, prev := -1, -1
	for i, s := range ss {
		v := get(s)
		if v < 0 {
			continue
		}
		if first < 0 || v < get(ss[prev]) {
			first = i
		}
		prev = i
	}
	return perSecond(ss[first], ss[prev], get(ss[prev])-get(ss[first]))
}

// lagRateOf is how fast the lag changed per second since the last rewind of
// the committed offset or truncation of the log.
func lagRateOf(ss []Sample) (float64, bool) {
	first, ok := lagSegmentStart(ss)
	last := ss[len(ss)-1]
	if !ok || !last.known() {
		return 0, false
	}
	return perSecond(ss[first], last, last.lag()-ss[first].lag())
}

// lagSegmentStart is the first sample with a position after the last one at
// which the committed offset or the high watermark went down.
func lagSegmentStart(ss []Sample) (int, bool) {
	first, prev := -1, -1
	for i, s := range ss {
		if !s.known() {
			continue
		}
		if first < 0 || s.Committed < ss[prev].Committed || s.High < ss[prev].High {
			first = i
		}
		prev = i
	}
	return first, first >= 0
}

func perSecond(from, to Sample, delta int64) (float64, bool) {
	dt := to.At.Sub(from.At).Seconds()
	if dt <= 0 {
		return 0, false
	}
	return float64(delta) / dt, true
}

// decreased reports whether get went down between two samples that hold it.
func decreased(ss []Sample, get func(Sample) int64) bool {
	prev := int64(-1)
	for _, s := range ss {
		v := get(s)
		if v < 0 {
			continue
		}
		if prev >= 0 && v < prev {
			return true
		}
		prev = v
	}
	return false
}

// standsStill reports whether the committed offset was the same, with lag, at
// every sample of the last `after` — and the samples reach back that far.
func standsStill(ss []Sample, after time.Duration) bool {
	last := ss[len(ss)-1]
	cutoff := last.At.Add(-after)
	for i := len(ss) - 1; i >= 0; i-- {
		s := ss[i]
		if !s.known() {
			continue
		}
		if s.Committed != last.Committed || s.lag() <= 0 {
			return false
		}
		if i < len(ss)-1 && !s.At.After(cutoff) {
			return true
		}
	}
	return false
}

func anyCaughtUp(ss []Sample) bool {
	for _, s := range ss {
		if s.known() && s.lag() <= 0 {
			return true
		}
	}
	return false
}

func countKnown(ss []Sample) int {
	n := 0
	for _, s := range ss {
		if s.known() {
			n++
		}
	}
	return n
}

// rateDigits is how many significant digits rates keep in JSON: enough for
// any decision, without float noise (80.00000000001/s).
const rateDigits = 4

// roundRate rounds v to rateDigits significant digits.
func roundRate(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', rateDigits, 64), 64)
	return r
}
