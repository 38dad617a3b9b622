package serve

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// A cluster's group and partition series are built once per snapshot, in the
// form /metrics writes (client_model's metric families), and every scrape
// until the next snapshot writes those same families: at 10,000 groups a
// scrape then costs the encoding alone, not the building and checking of
// 100,000 series. The exporter's health series are built at each scrape.

// seriesSet gathers series by metric.
type seriesSet map[*metric][]*dto.Metric

func (s seriesSet) add(m *metric, v float64, labels []*dto.LabelPair) {
	x := &dto.Metric{Label: labels}
	if m.counter {
		x.Counter = &dto.Counter{Value: &v}
	} else {
		x.Gauge = &dto.Gauge{Value: &v}
	}
	s[m] = append(s[m], x)
}

func (s seriesSet) addOpt(m *metric, v model.Opt[float64], labels []*dto.LabelPair) {
	if v.OK {
		s.add(m, v.V, labels)
	}
}

// families returns the series by metric, in allMetrics order.
func (s seriesSet) families() []*dto.MetricFamily {
	var out []*dto.MetricFamily
	for _, m := range allMetrics {
		if ser := s[m]; len(ser) > 0 {
			out = append(out, m.family(ser))
		}
	}
	return out
}

func pair(name *string, value string) *dto.LabelPair {
	return &dto.LabelPair{Name: name, Value: &value}
}

// labels keeps its pairs in name order, as the exposition writes them.
func labels(pairs ...*dto.LabelPair) []*dto.LabelPair {
	slices.SortFunc(pairs, func(a, b *dto.LabelPair) int { return cmp.Compare(*a.Name, *b.Name) })
	return pairs
}

// viewFamilies builds the group, topic and partition series of one cluster's view,
// the lag split as gran says. Series with the same labels share one label list.
func viewFamilies(cluster string, v *clusterView, gran Granularity) []*dto.MetricFamily {
	s := seriesSet{}
	c := pair(&lCluster, cluster)
	if v.kafkaVersion != "" {
		s.add(mKafkaVersion, 1, labels(c, pair(&lKafkaVersion, v.kafkaVersion)))
	}
	for _, cp := range v.capabilities {
		s.add(mCapabilityMissing, 1, labels(c, pair(&lMissing, cp.Missing), pair(&lAPI, cp.API)))
	}
	for i := range v.groups {
		g := &v.groups[i]
		gp, tp := pair(&lGroup, g.name), pair(&lType, g.typ)
		base := labels(c, gp, tp)
		known := 0.0
		if g.lag.OK {
			s.add(mGroupLag, float64(g.lag.V), base)
			known = 1
		}
		s.add(mGroupLagKnown, known, base)
		s.addOpt(mGroupLagSeconds, g.lagSeconds, base)
		s.addOpt(mGroupConsumeRate, g.consume, base)
		s.addOpt(mGroupProduceRate, g.produce, base)
		s.addOpt(mGroupLagRate, g.lagRate, base)
		s.addOpt(mGroupETA, g.eta, base)
		if l := g.loss; l != nil {
			at := labels(c, gp, tp, pair(&lTopic, l.topic), pair(&lPartition, strconv.FormatInt(int64(l.partition), 10)))
			s.add(mGroupLoss, l.seconds, at)
			s.add(mGroupLossNeeded, l.needed, at)
		}
		if g.commitsExpire.OK {
			s.add(mGroupCommitsExpire, g.commitsExpire.V, labels(c, gp, tp, pair(&lBasis, g.commitsExpireBasis)))
		}
		s.add(mGroupLosingNow, boolValue(g.losingNow), base)
		if g.lost.OK {
			s.add(mGroupLost, float64(g.lost.V), base)
		}
		for st, n := range g.counts {
			if n > 0 {
				s.add(mGroupPartitions, float64(n), labels(c, gp, tp, pair(&lStatus, model.Status(st).String())))
			}
		}
		if g.evaluation != model.EvalNone {
			s.add(mGroupEvaluation, 1, labels(c, gp, tp, pair(&lEvaluation, g.evaluation.String())))
		}
		if g.state != "" {
			s.add(mGroupState, 1, labels(c, gp, tp, pair(&lState, g.state)))
		}
		if g.members.OK {
			s.add(mGroupMembers, float64(g.members.V), base)
		}
		for _, r := range g.restores {
			s.add(mStreamsRestoreLag, float64(r.lag), labels(c, gp, tp, pair(&lMember, r.member), pair(&lSubtopology, r.subtopology),
				pair(&lPartition, strconv.FormatInt(int64(r.partition), 10)), pair(&lRole, r.role)))
		}
		for j := range g.topics {
			t := &g.topics[j]
			at := labels(c, gp, pair(&lTopic, t.topic), tp)
			if t.lag.OK {
				s.add(mTopicLag, float64(t.lag.V), at)
			}
			s.addOpt(mTopicLagSeconds, t.lagSeconds, at)
		}
		for j := range g.parts {
			partitionSeries(s, c, gp, tp, &g.parts[j], gran == GranularityPartition)
		}
	}
	return s.families()
}

// partitionSeries adds the series of a partition that is not ok; its lag and time lag
// only with lag (GranularityPartition).
func partitionSeries(s seriesSet, c, gp, tp *dto.LabelPair, p *partView, lag bool) {
	topic, part := pair(&lTopic, p.topic), pair(&lPartition, strconv.FormatInt(int64(p.partition), 10))
	base := labels(c, gp, part, topic, tp)
	s.add(mPartStatus, 1, labels(c, gp, part, topic, tp, pair(&lStatus, p.status.String())))
	if lag && p.lag.OK {
		s.add(mPartLag, float64(p.lag.V), base)
	}
	if lag {
		s.addOpt(mPartLagSeconds, p.lagSeconds, base)
	}
	if p.lost.OK {
		s.add(mPartLost, float64(p.lost.V), base)
	}
	s.addOpt(mPartExpiresIn, p.expiresIn, base)
	s.addOpt(mPartLoss, p.loss, base)
	if p.deadline.OK {
		s.add(mPartDeadline, p.deadline.V, labels(c, gp, part, topic, tp, pair(&lBasis, p.deadlineBasis.String())))
	}
	if p.evaluation != model.EvalNone {
		s.add(mPartEvaluation, 1, labels(c, gp, part, topic, tp, pair(&lEvaluation, p.evaluation.String())))
	}
}

// healthSeries adds one cluster's health series to s.
func healthSeries(s seriesSet, cluster string, st *clusterState) {
	base := []*dto.LabelPair{pair(&lCluster, cluster)}
	s.add(mSnapshots, float64(st.snapshots), base)
	for i, r := range failureReasons {
		s.add(mFailures, float64(st.failures[i]), labels(base[0], pair(&lReason, r)))
	}
	if !st.lastSuccess.IsZero() {
		s.add(mLastSuccess, float64(st.lastSuccess.UnixMilli())/1000, base)
	}
	if !st.attempted {
		return // nothing is known yet, not even up: /readyz says so
	}
	s.add(mSnapshotDuration, st.duration.Seconds(), base)
	if !st.up {
		s.add(mUp, 0, base)
		return
	}
	s.add(mUp, 1, base)
	for i, k := range errorKinds {
		s.add(mItemErrors, float64(st.itemErrors[i]), labels(base[0], pair(&lKind, string(k))))
	}
	s.add(mGroups, float64(st.groups), base)
	s.add(mLeftOut, float64(st.leftOut), base)
}

// gatherer is what /metrics writes: every cluster's health, the group and
// partition series of the clusters whose last snapshot was read, and the Go
// runtime's and the process's series.
type gatherer struct {
	pollers []*poller
	runtime prometheus.Gatherer
}

// Gather implements prometheus.Gatherer.
func (g *gatherer) Gather() ([]*dto.MetricFamily, error) {
	health := seriesSet{}
	var clusters [][]*dto.MetricFamily
	for _, p := range g.pollers {
		st := p.state.Load()
		healthSeries(health, p.target.Cluster, st)
		if st.up {
			clusters = append(clusters, st.families)
		}
	}
	out := append(health.families(), mergeFamilies(clusters)...)
	rt, err := g.runtime.Gather()
	out = append(out, rt...)
	slices.SortStableFunc(out, func(a, b *dto.MetricFamily) int { return cmp.Compare(a.GetName(), b.GetName()) })
	return out, err
}

// mergeFamilies joins the clusters' families of each metric into one, as the
// exposition wants; the cached families are never modified.
func mergeFamilies(clusters [][]*dto.MetricFamily) []*dto.MetricFamily {
	if len(clusters) == 1 {
		return clusters[0]
	}
	byName := map[string][]*dto.MetricFamily{}
	for _, fams := range clusters {
		for _, f := range fams {
			byName[f.GetName()] = append(byName[f.GetName()], f)
		}
	}
	var out []*dto.MetricFamily
	for _, m := range allMetrics {
		fams := byName[m.name]
		if len(fams) == 0 {
			continue
		}
		var series []*dto.Metric
		for _, f := range fams {
			series = append(series, f.Metric...)
		}
		out = append(out, m.family(series))
	}
	return out
}

// boolValue is 1 for true, 0 for false.
func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ms converts milliseconds to seconds.
func ms(v int64) float64 { return float64(v) / 1000 }

// inf is +Inf, the ETA of a group that does not catch up.
var inf = math.Inf(1)
