package kafka_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRandomClusters builds random clusters whose truth is known by
// construction — partition counts, records and their timestamps, topic
// configs, DeleteRecords, commits below/in/at/above the watermarks or absent,
// live classic members that never commit — and checks every field of every
// group partition of a snapshot against expectations computed here from the
// construction parameters with docs/statuses.md's rules (re-implemented, not
// model.Classify). Seeds are fixed so a failure reproduces:
//
//	go test -run 'TestRandomClusters/seed=3$' ./internal/kafka/
//
// OFFSETTUI_RANDOM_SEEDS=7,8,9 runs other seeds.
func TestRandomClusters(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5, 6}
	if s := os.Getenv("OFFSETTUI_RANDOM_SEEDS"); s != "" {
		seeds = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("OFFSETTUI_RANDOM_SEEDS: %v", err)
			}
			seeds = append(seeds, n)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			w := newRandomWorld(seed, time.Now().Truncate(time.Millisecond))
			t.Logf("seed %d: %s", seed, w.summary())
			w.build(t)
			w.check(t)
		})
	}
}

// Rules and constants the expectations use (docs/statuses.md).
const (
	rwRiskWindowMs       = int64(24 * time.Hour / time.Millisecond)
	rwDefaultRetentionMs = int64(7 * 24 * time.Hour / time.Millisecond) // Kafka's and kfake's retention.ms default
	rwOffsetsRetentionMs = int64(10080 * 60_000)                        // offsets.retention.minutes default
	rwMarginMs           = int64(time.Minute / time.Millisecond)
	rwHourMs             = int64(time.Hour / time.Millisecond)
	rwDayMs              = 24 * rwHourMs
)

// rwSeverity ranks statuses worst last, in docs/statuses.md's order.
var rwSeverity = []model.Status{model.StatusOK, model.StatusAtRisk, model.StatusMissing,
	model.StatusAhead, model.StatusExpired, model.StatusUnknown}

func rwRank(s model.Status) int { return slices.Index(rwSeverity, s) }

// rTopic is one generated topic.
type rTopic struct {
	name string
	// policy and retention are the topic overrides; "" and nil mean none.
	policy    string
	retention *int64
	records   []int     // per partition
	low       []int64   // per partition, after DeleteRecords
	ts        [][]int64 // per partition, per record: CreateTime in unix ms
}

func (t *rTopic) effPolicy() string {
	if t.policy == "" {
		return "delete"
	}
	return t.policy
}

func (t *rTopic) effRetention() int64 {
	if t.retention == nil {
		return rwDefaultRetentionMs
	}
	return *t.retention
}

// timed reports whether retention can delete records by age.
func (t *rTopic) timed() bool {
	return slices.Contains(strings.Split(t.effPolicy(), ","), "delete") && t.effRetention() >= 0
}

// rGroup is one generated group.
type rGroup struct {
	name    string
	commits map[model.TP]int64
	// members live classic members join, subscribed to topics, with balancer.
	members  int
	topics   []string
	balancer string
}

// randomWorld is one random cluster and its truth.
type randomWorld struct {
	seed   uint64
	now    time.Time
	topics []*rTopic
	groups []*rGroup
	// kinds counts the generated commit kinds, for the log.
	kinds map[string]int

	k         *kfake.Cluster
	memberIDs map[string][]string // filled after the members joined
}

func newRandomWorld(seed uint64, now time.Time) *randomWorld {
	r := rand.New(rand.NewPCG(seed, 0x0ff5e7))
	w := &randomWorld{seed: seed, now: now, kinds: map[string]int{}}
	nowMs := now.UnixMilli()
	retentions := []int64{-1, rwHourMs, 12 * rwHourMs, 3 * rwDayMs, rwDefaultRetentionMs, 30 * rwDayMs}
	policies := []string{"delete", "compact", "compact,delete"}
	for i := range 4 + r.IntN(5) {
		t := &rTopic{name: fmt.Sprintf("t%d", i)}
		if r.IntN(4) > 0 {
			t.policy = policies[r.IntN(len(policies))]
		}
		if r.IntN(5) > 0 {
			t.retention = model.Ptr(retentions[r.IntN(len(retentions))])
		}
		// Timestamps spread over 30 minutes, 2 hours, 12 hours or 2 days either side of the
		// at-risk threshold now − retention + window (dense near it, so a rule
		// off by minutes shows), never in the future, never within a minute of
		// the threshold.
		ret := t.effRetention()
		if ret < 0 {
			ret = rwDefaultRetentionMs
		}
		threshold := nowMs - ret + rwRiskWindowMs
		spread := []int64{rwHourMs / 2, 2 * rwHourMs, 12 * rwHourMs, 2 * rwDayMs}[r.IntN(4)]
		hi := min(threshold+spread, nowMs)
		lo := min(threshold, hi) - spread
		parts := 1 + r.IntN(6)
		for range parts {
			n := r.IntN(61)
			ts := make([]int64, n)
			for j := range ts {
				for {
					ts[j] = lo + r.Int64N(hi-lo+1)
					if d := ts[j] - threshold; d >= rwMarginMs || d <= -rwMarginMs {
						break
					}
				}
			}
			slices.Sort(ts)
			low := int64(0)
			if n > 0 && r.IntN(3) == 0 {
				low = 1 + r.Int64N(int64(n)) // 1..n: n deletes everything
			}
			t.records = append(t.records, n)
			t.ts = append(t.ts, ts)
			t.low = append(t.low, low)
		}
		w.topics = append(w.topics, t)
	}
	for i := range 5 + r.IntN(5) {
		g := &rGroup{name: fmt.Sprintf("g%d", i), commits: map[model.TP]int64{}}
		live := r.IntN(3) == 0
		// Commits on 1..3 topics (a live group may have none), each partition
		// one of: absent, expired, in range, at high, ahead.
		nt := 1 + r.IntN(3)
		if live {
			nt = r.IntN(3)
		}
		for _, ti := range r.Perm(len(w.topics))[:min(nt, len(w.topics))] {
			t := w.topics[ti]
			for p, n := range t.records {
				tp := model.TP{Topic: t.name, Partition: int32(p)}
				high, low := int64(n), t.low[p]
				kinds := []string{"absent", "high", "ahead"}
				if low > 0 {
					kinds = append(kinds, "expired")
				}
				if high > low {
					kinds = append(kinds, "in-range", "in-range")
				}
				kind := kinds[r.IntN(len(kinds))]
				w.kinds[kind]++
				switch kind {
				case "expired":
					g.commits[tp] = r.Int64N(low)
				case "in-range":
					g.commits[tp] = low + r.Int64N(high-low)
				case "high":
					g.commits[tp] = high
				case "ahead":
					g.commits[tp] = high + 1 + r.Int64N(10)
				}
			}
		}
		if !live && len(g.commits) == 0 {
			// An offsets-only group exists only through its commits.
			t := w.topics[r.IntN(len(w.topics))]
			g.commits[model.TP{Topic: t.name, Partition: 0}] = int64(t.records[0])
			w.kinds["high"]++
		}
		if live {
			g.members = 1 + r.IntN(2)
			g.balancer = []string{"range", "cooperative-sticky"}[r.IntN(2)]
			for _, ti := range r.Perm(len(w.topics))[:1+r.IntN(2)] {
				g.topics = append(g.topics, w.topics[ti].name)
			}
			slices.Sort(g.topics)
		}
		w.groups = append(w.groups, g)
	}
	return w
}

func (w *randomWorld) summary() string {
	var ts []string
	for _, t := range w.topics {
		ret := "default"
		if t.retention != nil {
			ret = strconv.FormatInt(*t.retention, 10)
		}
		pol := t.policy
		if pol == "" {
			pol = "default"
		}
		ts = append(ts, fmt.Sprintf("%s[policy=%s retention=%s records=%v low=%v]", t.name, pol, ret, t.records, t.low))
	}
	var gs []string
	for _, g := range w.groups {
		s := fmt.Sprintf("%s[%d commits", g.name, len(g.commits))
		if g.members > 0 {
			s += fmt.Sprintf(", %d live %s members on %v", g.members, g.balancer, g.topics)
		}
		gs = append(gs, s+"]")
	}
	return fmt.Sprintf("now=%s topics: %s; groups: %s; commit kinds %v",
		w.now.UTC().Format(time.RFC3339Nano), strings.Join(ts, " "), strings.Join(gs, " "), w.kinds)
}

func (w *randomWorld) topic(name string) *rTopic {
	for _, t := range w.topics {
		if t.name == name {
			return t
		}
	}
	return nil
}

// build creates the cluster: topics, records, DeleteRecords, admin commits,
// then the live members (an admin commit is refused once a group has members).
func (w *randomWorld) build(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	w.k = kafkatest.Cluster(t)
	for _, tp := range w.topics {
		cfg := map[string]string{}
		if tp.policy != "" {
			cfg["cleanup.policy"] = tp.policy
		}
		if tp.retention != nil {
			cfg["retention.ms"] = strconv.FormatInt(*tp.retention, 10)
		}
		if err := w.k.CreateTopic(tp.name, int32(len(tp.records)), cfg); err != nil {
			t.Fatalf("create %s: %v", tp.name, err)
		}
	}
	s := kafkatest.NewSeed(t, w.k.ListenAddrs())
	var recs []*kgo.Record
	for _, tp := range w.topics {
		for p, ts := range tp.ts {
			for i, ms := range ts {
				// Keys: compacted topics refuse records without one.
				recs = append(recs, &kgo.Record{Topic: tp.name, Partition: int32(p), Key: fmt.Appendf(nil, "k%d-%d", p, i),
					Value: []byte("v"), Timestamp: time.UnixMilli(ms)})
			}
		}
	}
	if err := s.Client.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("produce: %v", err)
	}
	for _, tp := range w.topics {
		for p, low := range tp.low {
			if low > 0 {
				if err := w.k.DeleteRecords(tp.name, int32(p), low); err != nil {
					t.Fatalf("delete records %s-%d to %d: %v", tp.name, p, low, err)
				}
			}
		}
	}
	for _, g := range w.groups {
		if len(g.commits) > 0 {
			s.Commit(g.name, g.commits)
		}
	}
	w.startMembers(t)
}

// startMembers starts every live member (kgo, auto-commit off, never
// committing) and waits until each live group is Stable with every subscribed
// partition assigned.
func (w *randomWorld) startMembers(t *testing.T) {
	t.Helper()
	var live []string
	for _, g := range w.groups {
		for m := range g.members {
			bal := kgo.RangeBalancer()
			if g.balancer == "cooperative-sticky" {
				bal = kgo.CooperativeStickyBalancer()
			}
			cl, err := kgo.NewClient(kgo.SeedBrokers(w.k.ListenAddrs()...), kgo.ClientID(fmt.Sprintf("%s-m%d", g.name, m)),
				kgo.ConsumerGroup(g.name), kgo.ConsumeTopics(g.topics...), kgo.Balancers(bal), kgo.DisableAutoCommit(),
				kgo.SessionTimeout(10*time.Second), kgo.HeartbeatInterval(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cl.Close)
		}
		if g.members > 0 {
			live = append(live, g.name)
		}
	}
	w.memberIDs = map[string][]string{}
	if len(live) == 0 {
		return
	}
	adm := kafkatest.NewSeed(t, w.k.ListenAddrs()).Adm
	deadline := time.Now().Add(20 * time.Second)
	for {
		described, err := adm.DescribeGroups(context.Background(), live...)
		settled := err == nil
		for _, name := range live {
			if !settled {
				break
			}
			g, d := w.group(name), described[name]
			want := 0
			for _, tn := range g.topics {
				want += len(w.topic(tn).records)
			}
			got := 0
			for _, ps := range d.AssignedPartitions() {
				got += len(ps)
			}
			if d.Err != nil || d.State != "Stable" || len(d.Members) != g.members || got != want {
				settled = false
				break
			}
			w.memberIDs[name] = nil
			for _, m := range d.Members {
				w.memberIDs[name] = append(w.memberIDs[name], m.MemberID)
			}
		}
		if settled {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("live groups %v did not settle: %v %+v", live, err, described)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (w *randomWorld) group(name string) *rGroup {
	for _, g := range w.groups {
		if g.name == name {
			return g
		}
	}
	return nil
}

// wantPartition is the truth of one group partition.
type wantPartition struct {
	low, high, lastStable           int64
	committed, lag, lost, beyond    *int64
	status                          model.Status
	committedTs, timeLag, expiresIn *int64
	assigned                        bool
}

// expect computes a group partition from the construction alone.
// fetched says whether committed-record timestamps were fetched (a fetch
// budget); without them, time lag is known only at the high watermark and
// expires-in not at all, while the status is the same.
func (w *randomWorld) expect(g *rGroup, tp model.TP, fetched bool) wantPartition {
	t := w.topic(tp.Topic)
	high, low := int64(t.records[tp.Partition]), t.low[tp.Partition]
	e := wantPartition{low: low, high: high, lastStable: high, assigned: slices.Contains(g.topics, tp.Topic)}
	c, ok := g.commits[tp]
	if !ok {
		e.status = model.StatusMissing
		return e
	}
	nowMs := w.now.UnixMilli()
	e.committed, e.lag = model.Ptr(c), model.Ptr(high-c)
	switch {
	case c < low:
		e.status, e.lost = model.StatusExpired, model.Ptr(low-c)
	case c > high:
		e.status, e.beyond = model.StatusAhead, model.Ptr(c-high)
	case c == high:
		e.status, e.timeLag = model.StatusOK, model.Ptr(int64(0))
	default: // low ≤ c < high: the record at c exists
		ts := t.ts[tp.Partition][c]
		if fetched {
			e.committedTs, e.timeLag = model.Ptr(ts), model.Ptr(max(0, nowMs-ts))
		}
		e.status = model.StatusOK
		if t.timed() {
			// Retention may delete the record at c from ts + retention on.
			deletableAt := ts + t.effRetention()
			if fetched {
				e.expiresIn = model.Ptr(deletableAt - nowMs)
			}
			if deletableAt-nowMs < rwRiskWindowMs {
				e.status = model.StatusAtRisk
			}
		}
	}
	return e
}

// partitionsOf is a group's partition set: committed ∪ assigned ∪ the other
// partitions of every topic it has a commit on.
func (w *randomWorld) partitionsOf(g *rGroup) []model.TP {
	set := map[model.TP]bool{}
	for tp := range g.commits {
		for p := range w.topic(tp.Topic).records {
			set[model.TP{Topic: tp.Topic, Partition: int32(p)}] = true
		}
	}
	for _, tn := range g.topics {
		for p := range w.topic(tn).records {
			set[model.TP{Topic: tn, Partition: int32(p)}] = true
		}
	}
	out := make([]model.TP, 0, len(set))
	for tp := range set {
		out = append(out, tp)
	}
	slices.SortFunc(out, model.CompareTP)
	return out
}

// check takes snapshots through internal/kafka with the world's clock and
// compares them with the truth: all groups, then a few named groups plus one
// that does not exist.
func (w *randomWorld) check(t *testing.T) {
	t.Helper()
	c := newClient(t, w.k.ListenAddrs(), func() time.Time { return w.now })
	snap, err := c.Snapshot(context.Background(), model.Query{FetchBudget: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}
	if !snap.Cluster.TakenAt.Equal(w.now) || snap.Cluster.Brokers != 3 {
		t.Errorf("cluster = %+v", snap.Cluster)
	}
	var names []string
	for _, g := range snap.Groups {
		names = append(names, g.Group)
	}
	var want []string
	for _, g := range w.groups {
		want = append(want, g.name)
	}
	slices.Sort(want)
	if got := slices.Sorted(slices.Values(names)); !slices.Equal(got, want) {
		t.Fatalf("groups = %v, want %v", got, want)
	}
	usedTopics := map[string]bool{}
	seen := model.Counts{}
	for _, g := range snap.Groups {
		for _, tp := range w.partitionsOf(w.group(g.Group)) {
			seen[w.expect(w.group(g.Group), tp, true).status]++
		}
		w.checkGroup(t, g, true)
		for _, p := range g.Partitions {
			usedTopics[p.Topic] = true
		}
	}
	t.Logf("seed %d: group partitions by expected status: %v", w.seed, seen)
	w.checkOrder(t, snap.Groups)
	w.checkTopics(t, snap.Topics, usedTopics)

	// The --group path: a subset, named, plus a group nobody knows.
	sub := []string{want[0], want[len(want)-1], "no-such-group"}
	snap, err = c.Snapshot(context.Background(), model.Query{Groups: sub, FetchBudget: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 3 || len(snap.Errors) != 1 {
		t.Fatalf("--group %v: %d groups, errors %+v; want one, no-such-group not found", sub, len(snap.Groups), snap.Errors)
	}
	for _, g := range snap.Groups {
		if g.Group == "no-such-group" {
			if len(g.Partitions) != 0 || g.Error == nil || g.Error.Kind != model.KindNotFound {
				t.Errorf("no-such-group: state %s, %d partitions, error %v", g.State, len(g.Partitions), g.Error)
			}
			continue
		}
		w.checkGroup(t, g, true)
	}

	// Without a fetch budget, on a new client (no cached timestamps): the same
	// statuses, timestamps unresolved (null), never guessed.
	c = newClient(t, w.k.ListenAddrs(), func() time.Time { return w.now })
	snap, err = c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != len(want) || len(snap.Errors) != 0 {
		t.Fatalf("no fetch budget: %d groups, errors %+v", len(snap.Groups), snap.Errors)
	}
	for _, g := range snap.Groups {
		w.checkGroup(t, g, false)
	}
}

func (w *randomWorld) checkGroup(t *testing.T, got model.Group, fetched bool) {
	t.Helper()
	g := w.group(got.Group)
	if got.Error != nil {
		t.Errorf("%s: error %+v", g.name, got.Error)
	}
	wantState, wantPT, wantProto := "Empty", "", ""
	wantExpire := model.Ptr(rwOffsetsRetentionMs)
	if g.members > 0 {
		wantState, wantPT, wantProto, wantExpire = "Stable", "consumer", g.balancer, nil
	}
	if got.State != wantState || got.ProtocolType != wantPT || got.Protocol != wantProto || got.Type != "classic" ||
		fmt.Sprint(val(got.OffsetsExpireAfterMs)) != fmt.Sprint(val(wantExpire)) || got.Coordinator < 0 {
		t.Errorf("%s: state %q protocolType %q protocol %q type %q offsetsExpireAfterMs %v coordinator %d; want %q %q %q classic %v",
			g.name, got.State, got.ProtocolType, got.Protocol, got.Type, val(got.OffsetsExpireAfterMs), got.Coordinator,
			wantState, wantPT, wantProto, val(wantExpire))
	}
	// Members: ids as the broker reported them to kadm, assignments covering
	// the subscribed topics exactly once.
	var ids []string
	owned := map[model.TP]string{}
	for _, m := range got.Members {
		ids = append(ids, m.MemberID)
		if !strings.HasPrefix(m.ClientID, g.name+"-m") || m.Host == "" {
			t.Errorf("%s: member %+v: want client id %s-mN and a host", g.name, m.MemberRef, g.name)
		}
		// Its subscription, read from its JoinGroup metadata: the topics it was started with.
		if m.Subscription == nil || !slices.Equal(m.Subscription.Topics, g.topics) || m.Subscription.Regex != nil {
			t.Errorf("%s: member %s subscription %+v, want topics %v", g.name, m.MemberID, m.Subscription, g.topics)
		}
		for _, a := range m.Assignments {
			for _, p := range a.Partitions {
				tp := model.TP{Topic: a.Topic, Partition: p}
				if prev, dup := owned[tp]; dup {
					t.Errorf("%s: %s assigned to %s and %s", g.name, tp, prev, m.MemberID)
				}
				owned[tp] = m.MemberID
			}
		}
	}
	slices.Sort(ids)
	if wantIDs := slices.Sorted(slices.Values(w.memberIDs[g.name])); !slices.Equal(ids, wantIDs) {
		t.Errorf("%s: members %v, want %v", g.name, ids, wantIDs)
	}
	var wantOwned []model.TP
	for _, tn := range g.topics {
		for p := range w.topic(tn).records {
			wantOwned = append(wantOwned, model.TP{Topic: tn, Partition: int32(p)})
		}
	}
	if len(owned) != len(wantOwned) {
		t.Errorf("%s: %d partitions assigned, want %d (%v)", g.name, len(owned), len(wantOwned), wantOwned)
	}

	wantTPs := w.partitionsOf(g)
	var gotTPs []model.TP
	var totalLag int64
	anyLag := false // a group without a commit anywhere has no total lag (null), not 0
	worst := model.StatusOK
	counts := model.Counts{}
	var unsubscribed []string
	for _, p := range got.Partitions {
		tp := p.TP()
		gotTPs = append(gotTPs, tp)
		if w.topic(tp.Topic) == nil || int(tp.Partition) >= len(w.topic(tp.Topic).records) {
			t.Errorf("%s: partition %s does not exist", g.name, tp)
			continue
		}
		e := w.expect(g, tp, fetched)
		// A live group's members subscribe to g.topics: its commits on other topics are not
		// consumed, shown but left out of its rollups. An Empty group's are all judged.
		var wantSub *bool
		if g.members > 0 {
			wantSub = model.Ptr(slices.Contains(g.topics, tp.Topic))
			if !*wantSub && !slices.Contains(unsubscribed, tp.Topic) {
				unsubscribed = append(unsubscribed, tp.Topic)
			}
		}
		if fmt.Sprint(val(p.Subscribed)) != fmt.Sprint(val(wantSub)) {
			t.Errorf("%s %s: subscribed %v, want %v (members subscribe to %v)", g.name, tp, val(p.Subscribed), val(wantSub), g.topics)
		}
		if wantSub != nil && !*wantSub {
			continue
		}
		anyLag = anyLag || e.lag != nil
		if e.lag != nil && *e.lag > 0 {
			totalLag += *e.lag
		}
		if rwRank(e.status) > rwRank(worst) {
			worst = e.status
		}
		counts[e.status]++
		gotF := []any{val(p.Low), val(p.High), val(p.LastStable), val(p.Committed), val(p.Lag), p.Status, val(p.Lost()), val(p.Beyond()),
			rwStampMs(p.CommittedTimestamp()), val(p.TimeLagMs), val(p.ExpiresInMs), p.Error == nil}
		wantF := []any{e.low, e.high, e.lastStable, val(e.committed), val(e.lag), e.status, val(e.lost), val(e.beyond),
			val(e.committedTs), val(e.timeLag), val(e.expiresIn), true}
		if !slices.Equal(gotF, wantF) {
			t.Errorf("%s %s (fetched %v): got  low,high,lastStable,committed,lag,status,lost,beyond,committedTs,timeLagMs,expiresInMs,noError = %v\n"+
				"\t\t\t\twant %v (topic %s)", g.name, tp, fetched, gotF, wantF, w.topicDesc(tp.Topic))
		}
		switch owner, assigned := owned[tp]; {
		case assigned && (p.Member == nil || p.Member.MemberID != owner):
			t.Errorf("%s %s: member %+v, want %s", g.name, tp, p.Member, owner)
		case !assigned && p.Member != nil:
			t.Errorf("%s %s: member %+v, want none", g.name, tp, p.Member)
		}
		if e.assigned != (p.Member != nil) {
			t.Errorf("%s %s: member %+v; subscribed topics %v", g.name, tp, p.Member, g.topics)
		}
	}
	if !slices.EqualFunc(gotTPs, wantTPs, func(a, b model.TP) bool { return a == b }) {
		t.Errorf("%s: partitions %v, want %v", g.name, gotTPs, wantTPs)
	}
	wantTotal := text.Num(&totalLag)
	if !anyLag && len(got.Partitions) > 0 {
		wantTotal = "-"
	}
	if text.Num(got.TotalLag) != wantTotal || got.TotalLagAtLeast != nil || got.WorstStatus != worst || fmt.Sprint(got.Counts) != fmt.Sprint(counts) {
		t.Errorf("%s: totalLag %s worst %v counts %v; want %s %v %v", g.name, text.Num(got.TotalLag), got.WorstStatus, got.Counts, wantTotal, worst, counts)
	}
	if g.members > 0 && unsubscribed == nil {
		unsubscribed = []string{}
	}
	if fmt.Sprintf("%#v", got.UnsubscribedTopics) != fmt.Sprintf("%#v", unsubscribed) {
		t.Errorf("%s: unsubscribed topics %#v, want %#v", g.name, got.UnsubscribedTopics, unsubscribed)
	}
}

// checkOrder: the urgency order of one snapshot (docs/tui.md), written out
// here, not asked of the model: at-risk groups first, the soonest expiry of an
// at-risk commit first; then expired ones, most records lost first; then the
// rest; within each, the worst status, a total that is not known before whole
// ones (no commit is known: no lag), the larger total lag, then the name.
func (w *randomWorld) checkOrder(t *testing.T, gs []model.Group) {
	t.Helper()
	type key struct {
		tier       int
		soon, lost int64
		rank       int
		whole      bool
		lag        int64
	}
	keyOf := func(g model.Group) key {
		// A group without a commit has no lag: known, after every lag.
		noCommit := !slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Committed != nil && !p.NotConsumed() })
		k := key{soon: math.MaxInt64, rank: rwRank(g.WorstStatus), whole: g.TotalLag != nil || noCommit, lag: -1}
		if g.TotalLag != nil {
			k.lag = *g.TotalLag
		}
		for _, p := range g.Partitions {
			if p.NotConsumed() { // shown, not the group's
				continue
			}
			if p.Status == model.StatusAtRisk {
				k.tier = 2
				if p.ExpiresInMs != nil {
					k.soon = min(k.soon, *p.ExpiresInMs)
				}
			}
			if p.Status == model.StatusExpired {
				k.lost += *p.Lost()
			}
		}
		if k.tier == 0 && k.lost > 0 {
			k.tier = 1
		}
		return k
	}
	for i := 1; i < len(gs); i++ {
		a, b := keyOf(gs[i-1]), keyOf(gs[i])
		before := func() bool { // b must not come before a
			switch {
			case a.tier != b.tier:
				return b.tier > a.tier
			case a.tier == 2 && a.soon != b.soon:
				return b.soon < a.soon
			case a.tier == 1 && a.lost != b.lost:
				return b.lost > a.lost
			case a.rank != b.rank:
				return b.rank > a.rank
			case a.whole != b.whole:
				return !b.whole
			case a.lag != b.lag:
				return b.lag > a.lag
			}
			return gs[i].Group < gs[i-1].Group
		}
		if before() {
			t.Errorf("groups out of order: %s %+v before %s %+v", gs[i-1].Group, a, gs[i].Group, b)
		}
	}
}

// checkTopics: the topics of the groups' partitions, with their effective
// configs (defaults where the topic has no override).
func (w *randomWorld) checkTopics(t *testing.T, got []model.Topic, used map[string]bool) {
	t.Helper()
	if len(got) != len(used) {
		t.Errorf("snapshot lists %d topics, the groups use %d", len(got), len(used))
	}
	for _, gt := range got {
		rt := w.topic(gt.Topic)
		if rt == nil || !used[gt.Topic] {
			t.Errorf("unexpected topic %s", gt.Topic)
			continue
		}
		if gt.Partitions != len(rt.records) || gt.CleanupPolicy == nil || *gt.CleanupPolicy != rt.effPolicy() || val(gt.RetentionMs) != any(rt.effRetention()) || gt.Error != nil {
			t.Errorf("topic %s: partitions %d policy %q retention %v error %v; want %d %q %d", gt.Topic, gt.Partitions, model.Deref(gt.CleanupPolicy),
				val(gt.RetentionMs), gt.Error, len(rt.records), rt.effPolicy(), rt.effRetention())
		}
	}
}

func (w *randomWorld) topicDesc(name string) string {
	t := w.topic(name)
	return fmt.Sprintf("policy %s retention %d timed %v", t.effPolicy(), t.effRetention(), t.timed())
}

func rwStampMs(s *model.Stamp) any {
	if s == nil {
		return nil
	}
	return s.UnixMilli()
}
