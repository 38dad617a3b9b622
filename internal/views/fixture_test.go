package views

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// fixtureNow is the injected clock of every test: the snapshot is 3s old.
var fixtureNow = time.Date(2026, 11, 29, 8, 53, 36, 0, time.UTC)

// The demo cluster (docs/demo.md) by hand: it started 10 minutes before the
// snapshot; record timestamps are relative to that start.
const (
	day      = 24 * time.Hour
	week     = 7 * day
	snapshot = 3 * time.Second
	uptime   = 10 * time.Minute
)

type fixtureTopic struct {
	model.Topic
	// at is the CreateTime of record k (the same on every partition).
	at func(start time.Time, k int64) time.Time
}

func fixtureTopics() map[string]fixtureTopic {
	step := func(first time.Duration, every time.Duration) func(time.Time, int64) time.Time {
		return func(start time.Time, k int64) time.Time { return start.Add(-first + time.Duration(k)*every) }
	}
	t := func(name string, parts int, policy string, ret time.Duration) model.Topic {
		return model.Topic{Topic: name, Partitions: parts, CleanupPolicy: model.Ptr(policy),
			RetentionMs: model.Ptr(ret.Milliseconds()), RetentionBytes: model.Ptr[int64](-1)}
	}
	return map[string]fixtureTopic{
		"outbox":    {t("outbox", 1, "delete", week), step(2*time.Hour, 3*time.Minute)},
		"shipments": {t("shipments", 1, "delete", week), step(50*time.Minute, 10*time.Minute)},
		"r11.trace": {t("r11.trace", 1, "delete", week), step(80*time.Minute, 10*time.Minute)},
		"orders":    {t("orders", 6, "delete", 72*time.Hour), step(70*time.Hour, 42*time.Minute)},
		"payments":  {t("payments", 3, "compact", week), step(6*time.Hour, 18*time.Minute)},
	}
}

// part is one group partition as the read path would classify it; the status
// is written by hand, the numbers that follow from it are filled in.
type part struct {
	topic     string
	p         int32
	low, high int64
	committed *int64
	status    model.Status
	member    *model.MemberRef
}

func c(n int64) *int64 { return &n }

func fixturePartition(pt part, topics map[string]fixtureTopic, now time.Time, timestamps bool) model.GroupPartition {
	gp := model.GroupPartition{Topic: pt.topic, Partition: pt.p, Low: c(pt.low), High: c(pt.high),
		Committed: pt.committed, Status: pt.status, Member: pt.member}
	if pt.committed == nil {
		return gp
	}
	cm := *pt.committed
	gp.Lag = c(pt.high - cm)
	switch pt.status {
	case model.StatusExpired:
		gp.SetLost(c(pt.low - cm))
		return gp
	case model.StatusAhead:
		gp.SetBeyond(c(cm - pt.high))
		return gp
	}
	if cm == pt.high {
		gp.TimeLagMs = c(0)
		return gp
	}
	if !timestamps {
		return gp
	}
	ft := topics[pt.topic]
	ts := ft.at(now.Add(-uptime), cm)
	gp.SetCommittedTimestamp(model.StampOf(ts))
	gp.TimeLagMs = c(now.Sub(ts).Milliseconds())
	if ft.Deletes() {
		gp.ExpiresInMs = c(ts.Add(time.Duration(*ft.RetentionMs) * time.Millisecond).Sub(now).Milliseconds())
	}
	return gp
}

type fixtureGroup struct {
	name, state string
	coordinator int32
	members     []model.Member
	parts       []part
}

func member(client string, topic string, ps ...int32) model.Member {
	return model.Member{
		MemberRef:    model.MemberRef{MemberID: client + "-6f1d0c2e", ClientID: client, Host: "/127.0.0.1"},
		Assignments:  []model.Assignment{{Topic: topic, Partitions: ps}},
		Subscription: &model.Subscription{Topics: []string{topic}}, // what a Stable group's coordinator holds
	}
}

func fixtureGroups() []fixtureGroup {
	newSvc := member("new-svc-1", "outbox", 0)
	billing := member("billing-1", "orders", 0, 1, 2, 3, 4, 5)
	orders := func(committed [6]*int64, status [6]model.Status, m *model.MemberRef) []part {
		var ps []part
		for i := range 6 {
			low := int64(0)
			if i == 5 {
				low = 40
			}
			ps = append(ps, part{"orders", int32(i), low, 100, committed[i], status[i], m})
		}
		return ps
	}
	ok := model.StatusOK
	return []fixtureGroup{
		{"fanout", "Empty", 1, nil, []part{{"outbox", 0, 30, 40, c(12), model.StatusExpired, nil}}},
		{"new-svc", "Stable", 2, []model.Member{newSvc}, []part{{"outbox", 0, 30, 40, nil, model.StatusMissing, &newSvc.MemberRef}}},
		{"ship-svc", "Empty", 0, nil, []part{{"shipments", 0, 0, 5, c(3), ok, nil}}},
		{"r11-trace", "Empty", 2, nil, []part{{"r11.trace", 0, 0, 8, c(5), ok, nil}}},
		{"audit-export", "Empty", 0, nil, orders(
			[6]*int64{c(10), c(20), c(100), c(70), c(50), nil},
			[6]model.Status{model.StatusAtRisk, model.StatusAtRisk, ok, ok, ok, model.StatusMissing}, nil)},
		{"billing", "Stable", 2, []model.Member{billing}, orders(
			[6]*int64{c(95), c(96), c(97), c(98), c(99), c(100)}, [6]model.Status{ok, ok, ok, ok, ok, ok}, &billing.MemberRef)},
		{"replay", "Empty", 0, nil, orders(
			[6]*int64{c(100), c(100), c(150), c(100), c(100), c(100)},
			[6]model.Status{ok, ok, model.StatusAhead, ok, ok, ok}, nil)},
		{"ledger", "Empty", 1, nil, []part{
			{"payments", 0, 0, 20, c(10), ok, nil}, {"payments", 1, 0, 20, c(15), ok, nil}, {"payments", 2, 0, 20, c(20), ok, nil}}},
	}
}

// fixtureSnapshot mirrors the demo cluster. timestamps adds what a group
// snapshot with a fetch budget resolves: committed timestamps, time lag and
// expires-in (the record at fanout's commit is deleted, so it has none).
func fixtureSnapshot(now time.Time, timestamps bool) model.Snapshot {
	topics := fixtureTopics()
	retention := int64(10080)
	s := model.Snapshot{
		Cluster: model.Cluster{Bootstrap: "127.0.0.1:39092", Brokers: 3, AllTopicsVisible: model.Ptr(true), TakenAt: model.Stamp{Time: now.Add(-snapshot)},
			OffsetsRetentionMinutes: &retention},
		Groups: []model.Group{}, Topics: []model.Topic{}, Errors: []model.Error{},
	}
	for _, fg := range fixtureGroups() {
		g := model.Group{Group: fg.name, Type: "classic", State: fg.state, Coordinator: fg.coordinator,
			Members: fg.members, Counts: model.Counts{}, Partitions: []model.GroupPartition{}}
		if g.Members == nil {
			g.Members = []model.Member{}
		}
		if len(fg.members) > 0 {
			g.ProtocolType, g.Protocol = "consumer", "range"
		}
		if fg.state == "Empty" {
			g.OffsetsExpireAfterMs = c(retention * 60_000)
		}
		clock := fixtureClock(&g, now.Add(-snapshot), retention)
		var total int64
		anyLag := false
		for _, pt := range fg.parts {
			p := fixturePartition(pt, topics, now.Add(-snapshot), timestamps)
			clock(&p)
			g.Partitions = append(g.Partitions, p)
			g.Counts[p.Status]++
			g.WorstStatus = max(g.WorstStatus, p.Status)
			anyLag = anyLag || p.Lag != nil
			if p.Lag != nil && *p.Lag > 0 {
				total += *p.Lag
			}
		}
		if anyLag { // a group that never committed has no total lag (model.Group.TotalLag)
			g.TotalLag = model.Ptr(total)
		}
		s.Groups = append(s.Groups, g)
	}
	for _, name := range []string{"orders", "outbox", "payments", "r11.trace", "shipments"} {
		s.Topics = append(s.Topics, topics[name].Topic)
	}
	model.SortGroupsByUrgency(s.Groups)
	return s
}

// commitAges is how long before the snapshot the Empty groups last committed (read from
// __consumer_offsets): audit-export's commits go within the risk window (after its
// at-risk record, so its place in the urgency order stays).
var commitAges = map[string]time.Duration{"fanout": 3 * 24 * time.Hour, "ship-svc": 2 * 24 * time.Hour,
	"r11-trace": 24 * time.Hour, "audit-export": 6*24*time.Hour + 12*time.Hour, "replay": 5 * time.Hour, "ledger": 20 * time.Minute}

// fixtureClock gives g the commit-expiry clock a snapshot with the commit log read has:
// an Empty group without a protocol type (offsets only) by commit time, a Stable group's
// subscribed topics never. It returns what sets each partition's clock.
func fixtureClock(g *model.Group, taken time.Time, retention int64) func(*model.GroupPartition) {
	e := &model.CommitExpiry{Rule: model.ExpiryCommitTime, RetentionMs: retention * 60_000, CheckIntervalMs: c(600_000),
		CommitLog: model.CommitLogRead}
	if g.State == "Stable" {
		e.Rule = model.ExpiryUnsubscribed
	}
	return func(p *model.GroupPartition) {
		if p.Committed == nil {
			return
		}
		g.CommitsExpiry = e // a group without commits has no clock
		if g.State == "Stable" {
			p.CommitsExpireBy = model.ExpiryNever
			return
		}
		at := taken.Add(-commitAges[g.Group]).Add(time.Duration(retention) * time.Minute)
		p.CommitsExpireBy, p.CommitsExpireAt = model.ExpiryCommitTime, &model.Stamp{Time: at}
		if g.CommitsExpireAt == nil || at.Before(g.CommitsExpireAt.Time) {
			g.CommitsExpireAt = &model.Stamp{Time: at}
		}
		if at.Sub(taken) <= 24*time.Hour {
			e.Expiring++
		}
	}
}

// onlyGroup narrows a snapshot to one group and its topics, as a group
// snapshot (q.Groups = [g]) comes back.
func onlyGroup(s model.Snapshot, name string) model.Snapshot {
	out := s
	out.Groups = nil
	used := map[string]bool{}
	for _, g := range s.Groups {
		if g.Group == name {
			out.Groups = append(out.Groups, g)
			for _, t := range g.Topics() {
				used[t] = true
			}
		}
	}
	out.Topics = slices.DeleteFunc(slices.Clone(s.Topics), func(t model.Topic) bool { return !used[t.Topic] })
	return out
}

// fixtureHistory is three full snapshots 10s apart, ending with the fixture:
// billing's lag shrinks, ship-svc's grows, so the sparklines have a shape.
func fixtureHistory(now time.Time) []model.Snapshot {
	var out []model.Snapshot
	for i, lags := range []map[string]int64{{"billing": 27, "ship-svc": 0}, {"billing": 21, "ship-svc": 1}} {
		s := fixtureSnapshot(now, false)
		s.Cluster.TakenAt = model.Stamp{Time: now.Add(-snapshot - time.Duration(2-i)*10*time.Second)}
		s.Groups = slices.Clone(s.Groups)
		for j := range s.Groups {
			if n, ok := lags[s.Groups[j].Group]; ok {
				s.Groups[j].TotalLag = model.Ptr(n)
			}
		}
		out = append(out, s)
	}
	return append(out, fixtureSnapshot(now, false))
}

// fakeSource serves the fixture (or whatever reply says) and records queries.
type fakeSource struct {
	mu      sync.Mutex
	queries []model.Query
	// reply overrides the fixture when set.
	reply func(q model.Query) (model.Snapshot, error)
	now   func() time.Time
}

func (f *fakeSource) Snapshot(_ context.Context, q model.Query) (model.Snapshot, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	reply := f.reply
	f.mu.Unlock()
	if reply != nil {
		return reply(q)
	}
	now := fixtureNow
	if f.now != nil {
		now = f.now()
	}
	s := fixtureSnapshot(now, q.FetchBudget > 0)
	if len(q.Groups) == 1 {
		return onlyGroup(s, q.Groups[0]), nil
	}
	return s, nil
}

func (f *fakeSource) seen() []model.Query {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queries)
}
