package serve

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// clusterView is what one read snapshot shows as series: built once per
// snapshot from the annotated snapshot, then read by every scrape until the
// next. It keeps only the numbers the series need (the snapshot itself, half a
// million partitions at fleet scale, is let go), and the strings it holds are
// the snapshot's own.
type clusterView struct {
	groups []groupView // the groups exported
	// all is how many groups the snapshot holds.
	all int
	// itemErrors counts the snapshot's errors by kind, in errorKinds order.
	itemErrors [len(errorKinds)]int
	// leftOut is how many partitions that are not ok got no series (the cap).
	leftOut int
	// kafkaVersion is the brokers' version line ("before-2.8" when older), "" when their
	// versions are not known; capabilities what they cannot be asked.
	kafkaVersion string
	capabilities []model.Capability
}

// errorKinds are the kinds of model.Error, in the order itemErrors counts them.
var errorKinds = [...]model.ErrorKind{model.KindDenied, model.KindTimeout, model.KindUnreachable,
	model.KindBroker, model.KindNotFound, model.KindUnsupported}

type groupView struct {
	name, typ, state string
	members          model.Opt[int]
	lag              model.Opt[int64]
	lagSeconds       model.Opt[float64]
	lost             model.Opt[int64]
	losingNow        bool
	consume, produce model.Opt[float64]
	lagRate          model.Opt[float64]
	eta              model.Opt[float64] // +Inf: never at this rate
	loss             *lossView
	// commitsExpire is the seconds until the first commit may go, with its basis
	// ("known" or "latest"); absent when none expires in the group's state.
	commitsExpire      model.Opt[float64]
	commitsExpireBasis string
	// counts holds how many partitions have each status, indexed by model.Status.
	counts     [numStatuses]int
	evaluation model.Evaluation
	parts      []partView
	// restores are a streams group's tasks with a restore lag.
	restores []restoreView
	// topics holds the lag of each topic exported (GranularityTopic), in name order.
	topics []topicView
}

// restoreView is one streams task a member reported a restore lag for.
type restoreView struct {
	member, subtopology, role string
	partition                 int32
	lag                       int64
}

// topicView is a group's lag on one topic, as its totals count it.
type topicView struct {
	topic      string
	lag        model.Opt[int64]
	lagSeconds model.Opt[float64]
}

// numStatuses is how many statuses there are: model.Status runs from
// StatusOK (0) to StatusUnknown.
const numStatuses = int(model.StatusUnknown) + 1

type lossView struct {
	topic     string
	partition int32
	seconds   float64
	needed    float64
}

type partView struct {
	topic      string
	partition  int32
	status     model.Status
	lag        model.Opt[int64]
	lagSeconds model.Opt[float64]
	lost       model.Opt[int64]
	expiresIn  model.Opt[float64]
	loss       model.Opt[float64]
	// deadline is the partition's deadline in seconds and its basis (model.DeadlineBasis).
	deadline      model.Opt[float64]
	deadlineBasis model.DeadlineBasis
	evaluation    model.Evaluation
}

// buildView turns an annotated snapshot into its series: those of the groups and topics
// sel chooses, split as finely as it says. Partitions that are not ok (notOK, with the
// loss horizon riskWindow) get series of their own, at most maxParts of them, the most
// severe first; the others are counted in leftOut. groups counts every group of the
// snapshot, exported or not.
func buildView(s *model.Snapshot, riskWindow time.Duration, maxParts int, sel *Selection) *clusterView {
	v := &clusterView{groups: make([]groupView, 0, len(s.Groups)), all: len(s.Groups), capabilities: s.Cluster.Capabilities}
	if s.Cluster.Capabilities != nil {
		v.kafkaVersion = "before-2.8"
		if l := s.Cluster.KafkaVersion; l != nil {
			v.kafkaVersion = *l
		}
	}
	for i := range s.Errors {
		if k := slices.Index(errorKinds[:], s.Errors[i].Kind); k >= 0 {
			v.itemErrors[k]++
		}
	}
	topics := map[string]bool{} // sel.topic, once per topic name
	chosen := func(topic string) bool {
		in, ok := topics[topic]
		if !ok {
			in = sel.topic(topic)
			topics[topic] = in
		}
		return in
	}
	var candidates []partRef
	for gi := range s.Groups {
		g := &s.Groups[gi]
		if !sel.group(g.Group) {
			continue
		}
		gv := groupOf(g, s.Cluster.TakenAt.Time)
		if sel.Granularity == GranularityTopic {
			gv.topics = topicsOf(g, chosen)
		}
		v.groups = append(v.groups, gv)
		for pi := range g.Partitions {
			if p := &g.Partitions[pi]; notOK(p, riskWindow.Milliseconds()) && chosen(p.Topic) {
				candidates = append(candidates, partRef{len(v.groups) - 1, partOf(p)})
			}
		}
	}
	if len(candidates) > maxParts {
		slices.SortStableFunc(candidates, func(a, b partRef) int { return moreSevere(&a.p, &b.p) })
		v.leftOut = len(candidates) - maxParts
		candidates = candidates[:maxParts]
	}
	for _, c := range candidates {
		v.groups[c.group].parts = append(v.groups[c.group].parts, c.p)
	}
	return v
}

type partRef struct {
	group int
	p     partView
}

// notOK says whether a partition gets series of its own: its status is not
// ok, a loss is predicted within the risk window (the horizon at-risk looks
// at), or its consumer is stalled or rewound. A partition that is only warn or
// stopped (an idle group with lag: common, and said by the group's series) is
// left to its group.
func notOK(p *model.GroupPartition, riskWindowMs int64) bool {
	if p.Status != model.StatusOK {
		return true
	}
	t := p.Time
	if t == nil {
		return false
	}
	return (t.Loss != nil && t.Loss.InMs <= riskWindowMs) || t.Evaluation == model.EvalStalled || t.Evaluation == model.EvalRewound
}

// moreSevere orders the worst status first, then the soonest loss, then the
// largest lag.
func moreSevere(a, b *partView) int {
	if c := cmp.Compare(b.status, a.status); c != 0 {
		return c
	}
	if c := cmp.Compare(lossKey(a), lossKey(b)); c != 0 {
		return c
	}
	return cmp.Compare(b.lag.V, a.lag.V)
}

func lossKey(p *partView) float64 {
	if !p.loss.OK {
		return math.Inf(1)
	}
	return p.loss.V
}

func groupOf(g *model.Group, takenAt time.Time) groupView {
	gv := groupView{name: g.Group, typ: g.Type, state: g.State, losingNow: g.LosingNow}
	gv.commitsExpire, gv.commitsExpireBasis = commitsExpire(g, takenAt)
	if g.Members != nil {
		gv.members = model.Some(len(g.Members))
	}
	for i := range g.Members {
		m := &g.Members[i]
		for _, t := range m.TaskOffsets {
			if t.RestoreLag != nil {
				gv.restores = append(gv.restores, restoreView{member: m.MemberID, subtopology: t.Subtopology, role: t.Role,
					partition: t.Partition, lag: *t.RestoreLag})
			}
		}
	}
	for i := range g.Partitions {
		if st := g.Partitions[i].Status; int(st) < len(gv.counts) {
			gv.counts[st]++
		}
	}
	if g.TotalLag != nil {
		gv.lag = model.Some(*g.TotalLag)
		gv.lagSeconds = groupLagSeconds(g)
		gv.lost = groupLost(g)
	}
	if t := g.Time; t != nil {
		gv.consume, gv.produce, gv.lagRate = t.ConsumeRate, t.ProduceRate, t.LagRate
		gv.evaluation = t.Evaluation
		gv.eta = etaSeconds(t.ETA, t.ETAMs)
		if l := t.Loss; l != nil {
			gv.loss = &lossView{topic: l.Topic, partition: l.Partition, seconds: ms(l.InMs), needed: l.NeededRate}
		}
	}
	return gv
}

// topicsOf is the group's lag on each topic chosen, by the rule of its totals
// (status.Rollup): the positive lags of the partitions with a commit that a member
// consumes; absent when a part of it could not be read or no such partition has a
// commit. Its time lag is the largest of those with lag, absent when one is unknown.
func topicsOf(g *model.Group, chosen func(string) bool) []topicView {
	var out []topicView
	partial := g.Error != nil
	var (
		cur             *topicView
		sum, most       int64
		lagged, seconds bool
		unknown         bool
	)
	flush := func() {
		if cur == nil {
			return
		}
		if !unknown && !partial && lagged {
			cur.lag = model.Some(sum)
			if seconds {
				cur.lagSeconds = model.Some(ms(most))
			}
		}
		out = append(out, *cur)
		cur = nil
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if cur == nil || cur.topic != p.Topic {
			flush()
			if !chosen(p.Topic) {
				continue
			}
			cur, sum, most, lagged, seconds, unknown = &topicView{topic: p.Topic}, 0, 0, false, true, false
		}
		if p.NotConsumed() {
			continue
		}
		if p.Lag == nil && (p.Status == model.StatusUnknown || p.StartOffset() != nil) {
			unknown = true
		}
		if p.Lag == nil {
			continue
		}
		lagged = true
		if *p.Lag > 0 {
			sum += *p.Lag
			if p.Position() != nil {
				if p.TimeLagMs == nil {
					seconds = false
				} else {
					most = max(most, *p.TimeLagMs)
				}
			}
		}
	}
	flush()
	return out
}

// commitsExpire is the time from takenAt until the broker may delete the group's first
// commit (0 when due), and its basis: "known" (commitsExpireAt) or "latest" (the time it
// counts from could not be read: the latest the first deletion can come); none when no
// commit expires in the group's state.
func commitsExpire(g *model.Group, takenAt time.Time) (model.Opt[float64], string) {
	var (
		at    time.Time
		basis string
	)
	if g.CommitsExpireAt != nil {
		at, basis = g.CommitsExpireAt.Time, "known"
	}
	if e := g.CommitsExpiry; e != nil && e.Latest != nil && (basis == "" || e.Latest.Before(at)) {
		at, basis = e.Latest.Time, "latest"
	}
	if basis == "" {
		return model.Opt[float64]{}, ""
	}
	return model.Some(max(0, at.Sub(takenAt).Seconds())), basis
}

// groupLagSeconds is the largest time lag among the partitions counted in the
// total lag; unknown when one of those with lag has none.
func groupLagSeconds(g *model.Group) model.Opt[float64] {
	var most int64
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.Lag == nil || *p.Lag <= 0 || p.Position() == nil {
			continue // caught up, or outside the total lag
		}
		if p.TimeLagMs == nil {
			return model.Opt[float64]{}
		}
		most = max(most, *p.TimeLagMs)
	}
	return model.Some(ms(most))
}

// groupLost is the group's lost count (model.Group.LostRecords), unknown when a part of
// it could not be read.
func groupLost(g *model.Group) model.Opt[int64] {
	if n, ok := g.LostRecords(); ok {
		return model.Some(n)
	}
	return model.Opt[int64]{}
}

// etaSeconds is the ETA as a number: the time to caught up when known, +Inf
// for a partition or group that does not catch up at this rate.
func etaSeconds(state model.ETAState, etaMs model.Opt[int64]) model.Opt[float64] {
	switch {
	case etaMs.OK:
		return model.Some(ms(etaMs.V))
	case state == model.ETANever, state == model.ETAStalled, state == model.ETAStopped:
		return model.Some(inf)
	}
	return model.Opt[float64]{}
}

func partOf(p *model.GroupPartition) partView {
	pv := partView{topic: p.Topic, partition: p.Partition, status: p.Status}
	if p.Lag != nil {
		pv.lag = model.Some(*p.Lag)
	}
	if p.TimeLagMs != nil {
		pv.lagSeconds = model.Some(ms(*p.TimeLagMs))
	}
	if p.Lost() != nil {
		pv.lost = model.Some(*p.Lost())
	}
	if p.ExpiresInMs != nil {
		pv.expiresIn = model.Some(ms(*p.ExpiresInMs))
	}
	if d, basis := p.Deadline(); basis != model.DeadlineNone {
		pv.deadline, pv.deadlineBasis = model.Some(ms(d)), basis
	}
	if t := p.Time; t != nil {
		pv.evaluation = t.Evaluation
		if t.Loss != nil {
			pv.loss = model.Some(ms(t.Loss.InMs))
		}
	}
	return pv
}
