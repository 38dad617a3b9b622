package timeaxis

import (
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Annotate fills the time axis of s (Window, Group.Time, GroupPartition.Time)
// from what h keeps; s must have been added to h. Groups with a single sample
// keep a nil Time: one snapshot alone shows no rates. s is modified in place,
// so call it on a snapshot no one else holds yet.
func (h *History) Annotate(s *model.Snapshot, opt Options) {
	s.Window = nil
	var buf []Sample
	for gi := range s.Groups {
		g := &s.Groups[gi]
		g.Time, g.LostRatePerSec, g.LosingNow = nil, model.Opt[float64]{}, g.LiveBehindLogStart()
		for pi := range g.Partitions {
			g.Partitions[pi].Time = nil
		}
		gh := h.groups[g.Group]
		if gh != nil {
			g.Committer = gh.committer(g, s.Cluster.TakenAt.Time)
		}
		if gh == nil || len(gh.at) < 2 {
			continue
		}
		buf = h.annotateGroup(g, gh, opt, buf)
		annotateLosing(g, gh)
		from, to := time.UnixMilli(gh.at[0]), time.UnixMilli(gh.at[len(gh.at)-1])
		if s.Window == nil {
			s.Window = &model.Window{Samples: len(gh.at), Snapshots: gh.snapshots(), From: model.Stamp{Time: from}, To: model.Stamp{Time: to}}
		} else {
			s.Window.Samples = max(s.Window.Samples, len(gh.at))
			s.Window.Snapshots = max(s.Window.Snapshots, gh.snapshots())
			if from.Before(s.Window.From.Time) {
				s.Window.From = model.Stamp{Time: from}
			}
		}
	}
}

func (h *History) annotateGroup(g *model.Group, gh *groupHistory, opt Options, buf []Sample) []Sample {
	times := make([]model.PartitionTime, len(g.Partitions)) // one allocation per group
	for pi := range g.Partitions {
		p := &g.Partitions[pi]
		// Add keeps the partitions in the snapshot's order: look there first.
		i, ok := pi, pi < len(gh.parts) && gh.parts[pi].tp == p.TP()
		if !ok {
			i, ok = slices.BinarySearchFunc(gh.parts, p.TP(), func(ph partHistory, t model.TP) int { return model.CompareTP(ph.tp, t) })
		}
		if !ok {
			continue
		}
		buf = gh.samples(&gh.parts[i], buf)
		times[pi] = EvaluatePartition(PartitionSeries{
			Samples: buf, Members: len(g.Members) > 0, GroupUnread: g.Error != nil,
			NextExpiresInMs: p.ExpiresInMs, TimeLagMs: p.TimeLagMs,
		}, opt)
		p.Time = &times[pi]
	}
	g.Time = rollupTime(g, gh)
	return buf
}

// rollupTime sums and ranks the partitions with a commit that a member subscribes to, or
// whose subscriptions are not known (docs/timeaxis.md).
func rollupTime(g *model.Group, gh *groupHistory) *model.GroupTime {
	gt := &model.GroupTime{Samples: len(gh.at), WindowMs: gh.at[len(gh.at)-1] - gh.at[0]}
	var consume, produce, lagRate float64
	// Every position known and every topic visible: the sums are whole (a
	// null TotalLag says they would not be).
	whole := g.Error == nil && g.TotalLag != nil
	etaKnown := true // and every partition has an ETA
	longest, counted := int64(0), 0
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.NotConsumed() {
			continue // nobody consumes it: outside the group's rollups, as outside its total lag
		}
		pt := p.Time
		if pt == nil || pt.Evaluation == model.EvalUnknown {
			whole = false // a position is unknown
		}
		if pt == nil {
			continue
		}
		gt.Evaluation = max(gt.Evaluation, pt.Evaluation)
		if p.Committed == nil && pt.Evaluation != model.EvalUnknown {
			continue // no commit: outside the sums, as outside the total lag
		}
		counted++
		gt.ETA = max(gt.ETA, pt.ETA)
		if !pt.ConsumeRate.OK || !pt.ProduceRate.OK || !pt.LagRate.OK {
			whole = false
		}
		consume += pt.ConsumeRate.V
		produce += pt.ProduceRate.V
		lagRate += pt.LagRate.V
		if pt.ETAMs.OK {
			longest = max(longest, pt.ETAMs.V)
		} else {
			etaKnown = false
		}
		if pt.Loss != nil && (gt.Loss == nil || pt.Loss.InMs < gt.Loss.InMs) {
			gt.Loss = &model.GroupLoss{Topic: p.Topic, Partition: p.Partition, Loss: *pt.Loss, Sentence: LossSentence(p.TP(), *pt)}
		}
	}
	if whole && counted > 0 {
		gt.ConsumeRate, gt.ProduceRate, gt.LagRate = model.Some(roundRate(consume)), model.Some(roundRate(produce)), model.Some(roundRate(lagRate))
		if etaKnown {
			gt.ETAMs = model.Some(longest)
		}
	} else if !whole && gt.ETA <= model.ETACatchingUp {
		// Partial sums: "caught up" or "catching up" cannot be claimed; a
		// partition that never catches up or stands still still says so.
		gt.ETA = model.ETANone
	}
	return gt
}
