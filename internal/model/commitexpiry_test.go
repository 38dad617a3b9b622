package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The clock of every group type and state, with and without the commit log: each
// partition's rule and time, the group's earliest time, what it could not know, and
// whether commits expire within the risk window. Rules from Kafka's group coordinator
// (docs/statuses.md names each source).
func TestCommitExpiryClock(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	a0, b0 := TP{"a", 0}, TP{"b", 0}
	committedAt := map[TP]time.Time{a0: now.Add(-time.Hour), b0: now.Add(-2 * time.Hour)}
	emptyAt := now.Add(-30 * time.Minute)
	read := func(classic *ClassicRecord) *CommitLog {
		l := &CommitLog{Status: CommitLogRead, Partition: 3, ReadAt: now}
		for _, tp := range []TP{a0, b0} {
			l.Commits = append(l.Commits, CommitRecord{TP: tp, Offset: 1, CommittedAt: committedAt[tp]})
		}
		l.Classic = classic
		return l
	}
	empty := &ClassicRecord{ProtocolType: "consumer", Generation: 3, StateAt: emptyAt, WrittenAt: emptyAt}
	denied := &CommitLog{Status: CommitLogDenied, Reason: "the principal may not read __consumer_offsets", Partition: -1}
	day := 24 * time.Hour
	subscribed := func(topics ...string) []Member { return []Member{{Subscription: &Subscription{Topics: topics}}} }
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	for _, c := range []struct {
		name     string
		g        GroupObservation
		minutes  *int64 // offsets.retention.minutes; nil: not read
		rule     ExpiryRule
		a, b     string // each partition's rule and time, "never", or "commit-time ?" when unknown
		earliest string
		unknown  ExpiryRule
		expiring int
	}{
		{name: "classic Empty, log read: Empty time + retention, one clock for every commit",
			g:    GroupObservation{Type: TypeClassic, State: "Empty", ProtocolType: "consumer", CommitLog: read(empty)},
			rule: ExpiryEmptyTime, a: "empty-time " + at(7*day-30*time.Minute), b: "empty-time " + at(7*day-30*time.Minute),
			earliest: at(7*day - 30*time.Minute)},
		{name: "classic Empty, log denied: the Empty time is unknown, at most 7d from now",
			g:    GroupObservation{Type: TypeClassic, State: "Empty", ProtocolType: "consumer", CommitLog: denied},
			rule: ExpiryEmptyTime, a: "empty-time ?", b: "empty-time ?", unknown: ExpiryEmptyTime},
		{name: "simple group (no protocol type): by commit time",
			g:    GroupObservation{Type: TypeClassic, State: "Empty", CommitLog: read(nil)},
			rule: ExpiryCommitTime, a: "commit-time " + at(7*day-time.Hour), b: "commit-time " + at(7*day-2*time.Hour),
			earliest: at(7*day - 2*time.Hour)},
		{name: "classic Stable consumer group: subscribed topic never, the other by commit time",
			g: GroupObservation{Type: TypeClassic, State: "Stable", ProtocolType: "consumer", Members: subscribed("a"),
				CommitLog: read(nil)},
			rule: ExpiryUnsubscribed, a: "never", b: "commit-time " + at(7*day-2*time.Hour), earliest: at(7*day - 2*time.Hour)},
		{name: "classic Stable, subscriptions Kafka cannot parse: nothing expires",
			g:    GroupObservation{Type: TypeClassic, State: "Stable", ProtocolType: "consumer", Members: []Member{{}}, CommitLog: read(nil)},
			rule: ExpiryNever, a: "never", b: "never"},
		{name: "classic rebalancing: nothing expires",
			g: GroupObservation{Type: TypeClassic, State: "PreparingRebalance", ProtocolType: "consumer",
				Members: subscribed("a"), CommitLog: read(nil)},
			rule: ExpiryNever, a: "never", b: "never"},
		{name: "consumer protocol Stable: unsubscribed by commit time, even with members",
			g:    GroupObservation{Type: TypeConsumer, State: "Stable", Members: subscribed("b"), CommitLog: read(nil)},
			rule: ExpiryUnsubscribed, a: "commit-time " + at(7*day-time.Hour), b: "never", earliest: at(7*day - time.Hour)},
		{name: "consumer protocol Empty: every commit by commit time",
			g:    GroupObservation{Type: TypeConsumer, State: "Empty", Members: []Member{}, CommitLog: read(nil)},
			rule: ExpiryCommitTime, a: "commit-time " + at(7*day-time.Hour), b: "commit-time " + at(7*day-2*time.Hour),
			earliest: at(7*day - 2*time.Hour)},
		{name: "consumer protocol, describe failed: subscriptions unknown",
			g:    GroupObservation{Type: TypeConsumer, State: "Stable", DescribeError: &Error{Kind: KindTimeout}, CommitLog: read(nil)},
			rule: ExpiryUnknown, a: "", b: ""},
		{name: "streams Stable: topology source topic never",
			g:    GroupObservation{Type: TypeStreams, State: "Stable", Topology: &Topology{Subtopologies: []Subtopology{{SourceTopics: []string{"a"}}}}, Members: []Member{}, CommitLog: read(nil)},
			rule: ExpiryUnsubscribed, a: "never", b: "commit-time " + at(7*day-2*time.Hour), earliest: at(7*day - 2*time.Hour)},
		{name: "admin-only group, retention 1 minute: expired an hour ago, due at the next sweep",
			g:       GroupObservation{Type: TypeClassic, State: "Empty", CommitLog: read(nil)},
			minutes: Ptr(int64(1)), rule: ExpiryCommitTime,
			a: "commit-time " + at(-time.Hour+time.Minute), b: "commit-time " + at(-2*time.Hour+time.Minute),
			earliest: at(-2*time.Hour + time.Minute), expiring: 2},
		{name: "retention shorter than the risk window, times unknown: expiring for sure",
			g:       GroupObservation{Type: TypeConsumer, State: "Empty", Members: []Member{}, CommitLog: denied},
			minutes: Ptr(int64(60)), rule: ExpiryCommitTime, a: "commit-time ?", b: "commit-time ?",
			unknown: ExpiryCommitTime, expiring: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := c.g
			g.Group = "g"
			if g.Type != TypeShare {
				g.Committed = map[TP]int64{a0: 1, b0: 1}
			}
			obs := Observation{TakenAt: now, RiskWindow: 24 * time.Hour, OffsetsRetentionMinutes: c.minutes,
				Topics:  map[string]Topic{"a": {Topic: "a", Partitions: 1}, "b": {Topic: "b", Partitions: 1}},
				Offsets: map[TP]PartitionOffsets{a0: {Low: Ptr(int64(0)), High: Ptr(int64(1))}, b0: {Low: Ptr(int64(0)), High: Ptr(int64(1))}},
				Groups:  []GroupObservation{g}}
			s := Assemble(obs, AssembleOptions{})
			grp := s.Groups[0]
			if grp.CommitsExpiry == nil {
				t.Fatalf("no clock")
			}
			e := grp.CommitsExpiry
			if e.Rule != c.rule {
				t.Errorf("rule %s, want %s", e.Rule, c.rule)
			}
			clock := func(p GroupPartition) string {
				switch {
				case p.CommitsExpireBy == ExpiryNever:
					return "never"
				case p.CommitsExpireAt == nil:
					return fmt.Sprintf("%s ?", p.CommitsExpireBy)
				}
				return fmt.Sprintf("%s %s", p.CommitsExpireBy, p.CommitsExpireAt.Format(time.RFC3339))
			}
			if c.a == "" {
				c.a, c.b = " ?", " ?"
			}
			if got := clock(grp.Partitions[0]); got != c.a {
				t.Errorf("a-0: %s, want %s", got, c.a)
			}
			if got := clock(grp.Partitions[1]); got != c.b {
				t.Errorf("b-0: %s, want %s", got, c.b)
			}
			earliest := ""
			if grp.CommitsExpireAt != nil {
				earliest = grp.CommitsExpireAt.Format(time.RFC3339)
			}
			if earliest != c.earliest {
				t.Errorf("commitsExpireAt %q, want %q", earliest, c.earliest)
			}
			if e.UnknownTime != c.unknown {
				t.Errorf("unknown time %q, want %q", e.UnknownTime, c.unknown)
			}
			if (e.Latest != nil) != (c.unknown != ExpiryNone) {
				t.Errorf("latest %v with unknown time %q", e.Latest, c.unknown)
			}
			if e.Expiring != c.expiring || grp.CommitsExpiring() != (c.expiring > 0) || (c.expiring > 0 && !grp.HasProblem()) {
				t.Errorf("expiring %d (problem %v), want %d", e.Expiring, grp.HasProblem(), c.expiring)
			}
			if (e.ExpiringInMs != nil) != (c.expiring > 0) || (c.expiring > 0) != (grp.Urgency() == UrgencySave) {
				t.Errorf("expiring in %v ms, urgency %v; want expiring %d", e.ExpiringInMs, grp.Urgency(), c.expiring)
			}
			if e.RetentionAssumed != (c.minutes == nil) {
				t.Errorf("retention assumed %v with offsets.retention.minutes %v", e.RetentionAssumed, c.minutes)
			}
			if e.CommitLog != g.CommitLog.Status {
				t.Errorf("commit log %q, want %q", e.CommitLog, g.CommitLog.Status)
			}
		})
	}
}

// Share-group start offsets never expire; a group without commits has no clock.
func TestCommitExpiryShareAndNoCommits(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tp := TP{"a", 0}
	obs := Observation{TakenAt: now, RiskWindow: time.Hour, Topics: map[string]Topic{"a": {Topic: "a", Partitions: 1}},
		Offsets: map[TP]PartitionOffsets{tp: {Low: Ptr(int64(0)), High: Ptr(int64(5))}},
		Groups: []GroupObservation{
			{Group: "share", Type: TypeShare, State: "Stable", StartOffsets: map[TP]int64{tp: 2}},
			{Group: "none", Type: TypeClassic, State: "Empty", ProtocolType: "consumer"},
		}}
	s := Assemble(obs, AssembleOptions{})
	for _, g := range s.Groups {
		switch g.Group {
		case "share":
			if g.CommitsExpiry == nil || g.CommitsExpiry.Rule != ExpiryNever || g.Partitions[0].CommitsExpireBy != ExpiryNever || g.CommitsExpireAt != nil {
				t.Errorf("share group: %+v, partition %q", g.CommitsExpiry, g.Partitions[0].CommitsExpireBy)
			}
		case "none":
			if g.CommitsExpiry != nil || g.CommitsExpireAt != nil {
				t.Errorf("a group without commits has a clock: %+v", g.CommitsExpiry)
			}
		}
	}
}

// A group whose commits go within the risk window ranks with the records that can still
// be saved, soonest first: ahead of a group that already lost records.
func TestCommitExpiryUrgency(t *testing.T) {
	soon, later := &CommitExpiry{Expiring: 1, ExpiringInMs: Ptr(int64(60_000))}, &CommitExpiry{Expiring: 1, ExpiringInMs: Ptr(int64(3_600_000))}
	gs := []Group{
		{Group: "lost", WorstStatus: StatusExpired, Counts: Counts{StatusExpired: 1}, Members: []Member{}},
		{Group: "later", CommitsExpiry: later, Members: []Member{}},
		{Group: "soon", CommitsExpiry: soon, Members: []Member{}},
		{Group: "idle", Members: []Member{}},
	}
	SortGroupsByUrgency(gs)
	var got []string
	for _, g := range gs {
		got = append(got, g.Group)
	}
	if fmt.Sprint(got) != "[soon later lost idle]" {
		t.Errorf("order %v, want [soon later lost idle]", got)
	}
}

// The clock's walk over the commit log finds what a search finds, for rows in partition
// order and for rows out of it.
func TestExpiryClockLastWalksTheLog(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		log := &CommitLog{}
		for _, topic := range []string{"a", "b", "c"} {
			for p := range int32(6) {
				if r.IntN(2) == 0 {
					log.Commits = append(log.Commits, CommitRecord{TP: TP{topic, p}, Offset: r.Int64N(100)})
				}
			}
		}
		var rows []TP
		for range 12 {
			rows = append(rows, TP{[]string{"a", "b", "c", "d"}[r.IntN(4)], r.Int32N(7)})
		}
		if r.IntN(2) == 0 {
			slices.SortFunc(rows, CompareTP)
		}
		c := &expiryClock{log: log}
		for _, tp := range rows {
			got, gotOK := c.last(tp)
			want, wantOK := log.Last(tp)
			if got != want || gotOK != wantOK {
				t.Fatalf("rows %v, log %v: last(%v) = %v %v, the search %v %v", rows, log.Commits, tp, got, gotOK, want, wantOK)
			}
		}
	}
	if _, ok := (&expiryClock{}).last(TP{"a", 0}); ok {
		t.Fatal("a clock without a log found a commit")
	}
}
