package timeaxis

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// predictLoss says when retention overtakes a consumer that reads at c offsets
// per second while p arrive, or nil when it never does at these rates. The
// record at the committed offset expires in nextMs (its timestamp plus
// retention.ms) and is timeLagMs old. The model (docs/timeaxis.md): the lag
// records behind the group were written evenly between that record and now,
// records keep arriving at p, and each record may be deleted retention.ms
// after its timestamp. Retention overtakes the group at the first record it
// would reach after that record's deletion.
func predictLoss(lag int64, c, p float64, nextMs, timeLagMs int64) *model.Loss {
	if lag <= 0 || timeLagMs < 0 {
		return nil
	}
	e0, tl, n := float64(nextMs)/1000, float64(timeLagMs)/1000, float64(lag)
	retention := e0 + tl
	if retention <= 0 {
		return nil
	}
	at := -1.0
	switch {
	case e0 <= 0:
		at = 0 // its next record may already be deleted
	case c <= 0:
		at = e0 // it reaches nothing: the next record is the first lost
	default:
		// Within the backlog, record k expires at e0 + k·tl/n and is reached at
		// k/c: retention wins where they meet, if that is within the backlog.
		if 1/c > tl/n {
			if k := e0 / (1/c - tl/n); k <= n {
				at = k / c
			}
		}
		// Beyond it, records written from now on at p expire retention later;
		// a consumer slower than p is overtaken there.
		if at < 0 && c < p {
			k := n + (retention-n/c)/(1/c-1/p)
			at = k / c
		}
	}
	if at < 0 {
		return nil
	}
	return &model.Loss{
		InMs:            int64(math.Floor(at * 1000)),
		NextExpiresInMs: nextMs,
		ConsumeRate:     roundRate(c),
		NeededRate:      roundRateUp(max(p, n/retention)),
	}
}

// LossSentence says a predicted loss in the words an incident ticket needs:
// how the group is doing, when retention overtakes it and what would avoid
// it. tp names the partition; pt is its time axis and must have a Loss.
func LossSentence(tp model.TP, pt model.PartitionTime) string {
	l := pt.Loss
	if l == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(tp.String() + ": ")
	b.WriteString(lossHow(pt))
	switch {
	case l.NextExpiresInMs <= 0:
		b.WriteString("; retention may already delete its next record")
	case l.InMs <= l.NextExpiresInMs:
		fmt.Fprintf(&b, "; retention deletes its next record in %s", text.HumanDuration(msDur(l.InMs)))
	default:
		fmt.Fprintf(&b, ", but retention deletes records it has not read in %s (its next record expires in %s)",
			text.HumanDuration(msDur(l.InMs)), text.HumanDuration(msDur(l.NextExpiresInMs)))
	}
	if l.ConsumeRate > 0 {
		fmt.Fprintf(&b, " → it will lose data unless it consumes ≥ %s× faster (≥ %s)",
			formatFactor(l.NeededRate/l.ConsumeRate), text.FormatRateUp(l.NeededRate))
	} else {
		fmt.Fprintf(&b, " → it will lose data unless it resumes at ≥ %s", text.FormatRateUp(l.NeededRate))
	}
	return b.String()
}

// LossHeadline says a group's predicted loss in one short line, what to act
// on first, for a screen with room for one line only: "events-0: loss in
// 19m19s, needs ≥ 3.0/s (next record expires in 9m44s)"; at 60 columns the
// needed rate still shows. LossSentence says the rest.
func LossHeadline(l model.GroupLoss) string {
	when := "in " + text.HumanDuration(msDur(l.InMs))
	if l.InMs <= 0 {
		when = "now"
	}
	next := "next record expires in " + text.HumanDuration(msDur(l.NextExpiresInMs))
	if l.NextExpiresInMs <= 0 {
		next = "next record may already be deleted"
	}
	return fmt.Sprintf("%s: loss %s, needs ≥ %s (%s)", model.TP{Topic: l.Topic, Partition: l.Partition}, when, text.FormatRateUp(l.NeededRate), next)
}

func lossHow(pt model.PartitionTime) string {
	switch pt.ETA {
	case model.ETAStalled:
		return "the group is stalled (it has members, but its committed offset does not move)"
	case model.ETAStopped:
		return "the group is stopped (no members, and its committed offset does not move)"
	case model.ETARewound:
		return "the group rewound its committed offset"
	case model.ETACatchingUp:
		if pt.ETAMs.OK {
			return "at this rate the group catches up in " + text.HumanDuration(msDur(pt.ETAMs.V))
		}
	}
	if pt.Loss.ConsumeRate <= 0 {
		return "the group's committed offset did not move"
	}
	if pt.ProduceRate.OK {
		return fmt.Sprintf("at this rate the group never catches up (it consumes %s, %s arrive)",
			text.FormatRate(pt.Loss.ConsumeRate), text.FormatRate(pt.ProduceRate.V))
	}
	return "at this rate the group never catches up"
}

// formatFactor rounds up to one decimal (within the same 0.1% as
// ceilShown), so that "≥ 2.1× faster" suffices.
func formatFactor(f float64) string {
	return fmt.Sprintf("%.1f", math.Ceil(f*(1-1e-3)*10)/10)
}

// roundRateUp rounds v up to rateDigits significant digits.
func roundRateUp(v float64) float64 {
	if v <= 0 {
		return v
	}
	unit := math.Pow(10, math.Floor(math.Log10(v))-rateDigits+1)
	return roundRate(math.Ceil(v/unit-1e-9) * unit)
}

func msDur(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
