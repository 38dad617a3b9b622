package expiry_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// The clock of every group type and state, with and without the commit log: each
// partition's rule and time, the group's earliest time, what it could not know, and
// whether commits expire within the risk window. Rules from Kafka's group coordinator
// (docs/statuses.md names each source).
func TestCommitExpiryClock(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	a0, b0 := model.TP{Topic: "a", Partition: 0}, model.TP{Topic: "b", Partition: 0}
	committedAt := map[model.TP]time.Time{a0: now.Add(-time.Hour), b0: now.Add(-2 * time.Hour)}
	emptyAt := now.Add(-30 * time.Minute)
	read := func(classic *model.ClassicRecord) *model.CommitLog {
		l := &model.CommitLog{Status: model.CommitLogRead, Partition: 3, ReadAt: now}
		for _, tp := range []model.TP{a0, b0} {
			l.Commits = append(l.Commits, model.CommitRecord{TP: tp, Offset: 1, CommittedAt: committedAt[tp]})
		}
		l.Classic = classic
		return l
	}
	empty := &model.ClassicRecord{ProtocolType: "consumer", Generation: 3, StateAt: emptyAt, WrittenAt: emptyAt}
	denied := &model.CommitLog{Status: model.CommitLogDenied, Reason: "the principal may not read __consumer_offsets", Partition: -1}
	day := 24 * time.Hour
	subscribed := func(topics ...string) []model.Member {
		return []model.Member{{Subscription: &model.Subscription{Topics: topics}}}
	}
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	for _, c := range []struct {
		name     string
		g        model.GroupObservation
		minutes  *int64 // offsets.retention.minutes; nil: not read
		rule     model.ExpiryRule
		a, b     string // each partition's rule and time, "never", or "commit-time ?" when unknown
		earliest string
		unknown  model.ExpiryRule
		expiring int
	}{
		{name: "classic Empty, log read: Empty time + retention, one clock for every commit",
			g:    model.GroupObservation{Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", CommitLog: read(empty)},
			rule: model.ExpiryEmptyTime, a: "empty-time " + at(7*day-30*time.Minute), b: "empty-time " + at(7*day-30*time.Minute),
			earliest: at(7*day - 30*time.Minute)},
		{name: "classic Empty, log denied: the Empty time is unknown, at most 7d from now",
			g:    model.GroupObservation{Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", CommitLog: denied},
			rule: model.ExpiryEmptyTime, a: "empty-time ?", b: "empty-time ?", unknown: model.ExpiryEmptyTime},
		{name: "simple group (no protocol type): by commit time",
			g:    model.GroupObservation{Type: model.TypeClassic, State: "Empty", CommitLog: read(nil)},
			rule: model.ExpiryCommitTime, a: "commit-time " + at(7*day-time.Hour), b: "commit-time " + at(7*day-2*time.Hour),
			earliest: at(7*day - 2*time.Hour)},
		{name: "classic Stable consumer group: subscribed topic never, the other by commit time",
			g: model.GroupObservation{Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer", Members: subscribed("a"),
				CommitLog: read(nil)},
			rule: model.ExpiryUnsubscribed, a: "never", b: "commit-time " + at(7*day-2*time.Hour), earliest: at(7*day - 2*time.Hour)},
		{name: "classic Stable, subscriptions Kafka cannot parse: nothing expires",
			g:    model.GroupObservation{Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer", Members: []model.Member{{}}, CommitLog: read(nil)},
			rule: model.ExpiryNever, a: "never", b: "never"},
		{name: "classic rebalancing: nothing expires",
			g: model.GroupObservation{Type: model.TypeClassic, State: "PreparingRebalance", ProtocolType: "consumer",
				Members: subscribed("a"), CommitLog: read(nil)},
			rule: model.ExpiryNever, a: "never", b: "never"},
		{name: "consumer protocol Stable: unsubscribed by commit time, even with members",
			g:    model.GroupObservation{Type: model.TypeConsumer, State: "Stable", Members: subscribed("b"), CommitLog: read(nil)},
			rule: model.ExpiryUnsubscribed, a: "commit-time " + at(7*day-time.Hour), b: "never", earliest: at(7*day - time.Hour)},
		{name: "consumer protocol Empty: every commit by commit time",
			g:    model.GroupObservation{Type: model.TypeConsumer, State: "Empty", Members: []model.Member{}, CommitLog: read(nil)},
			rule: model.ExpiryCommitTime, a: "commit-time " + at(7*day-time.Hour), b: "commit-time " + at(7*day-2*time.Hour),
			earliest: at(7*day - 2*time.Hour)},
		{name: "consumer protocol, describe failed: subscriptions unknown",
			g:    model.GroupObservation{Type: model.TypeConsumer, State: "Stable", DescribeError: &model.Error{Kind: model.KindTimeout}, CommitLog: read(nil)},
			rule: model.ExpiryUnknown, a: "", b: ""},
		{name: "streams Stable: topology source topic never",
			g:    model.GroupObservation{Type: model.TypeStreams, State: "Stable", Topology: &model.Topology{Subtopologies: []model.Subtopology{{SourceTopics: []string{"a"}}}}, Members: []model.Member{}, CommitLog: read(nil)},
			rule: model.ExpiryUnsubscribed, a: "never", b: "commit-time " + at(7*day-2*time.Hour), earliest: at(7*day - 2*time.Hour)},
		{name: "admin-only group, retention 1 minute: expired an hour ago, due at the next sweep",
			g:       model.GroupObservation{Type: model.TypeClassic, State: "Empty", CommitLog: read(nil)},
			minutes: model.Ptr(int64(1)), rule: model.ExpiryCommitTime,
			a: "commit-time " + at(-time.Hour+time.Minute), b: "commit-time " + at(-2*time.Hour+time.Minute),
			earliest: at(-2*time.Hour + time.Minute), expiring: 2},
		{name: "retention shorter than the risk window, times unknown: expiring for sure",
			g:       model.GroupObservation{Type: model.TypeConsumer, State: "Empty", Members: []model.Member{}, CommitLog: denied},
			minutes: model.Ptr(int64(60)), rule: model.ExpiryCommitTime, a: "commit-time ?", b: "commit-time ?",
			unknown: model.ExpiryCommitTime, expiring: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := c.g
			g.Group = "g"
			if g.Type != model.TypeShare {
				g.Committed = map[model.TP]int64{a0: 1, b0: 1}
			}
			obs := model.Observation{TakenAt: now, RiskWindow: 24 * time.Hour, OffsetsRetentionMinutes: c.minutes,
				Topics:  map[string]model.Topic{"a": {Topic: "a", Partitions: 1}, "b": {Topic: "b", Partitions: 1}},
				Offsets: map[model.TP]model.PartitionOffsets{a0: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(1))}, b0: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(1))}},
				Groups:  []model.GroupObservation{g}}
			s := assemble.Snapshot(obs, assemble.Options{})
			grp := s.Groups[0]
			if grp.CommitsExpiry == nil {
				t.Fatalf("no clock")
			}
			e := grp.CommitsExpiry
			if e.Rule != c.rule {
				t.Errorf("rule %s, want %s", e.Rule, c.rule)
			}
			clock := func(p model.GroupPartition) string {
				switch {
				case p.CommitsExpireBy == model.ExpiryNever:
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
			if (e.Latest != nil) != (c.unknown != model.ExpiryNone) {
				t.Errorf("latest %v with unknown time %q", e.Latest, c.unknown)
			}
			if e.Expiring != c.expiring || grp.CommitsExpiring() != (c.expiring > 0) || (c.expiring > 0 && !grp.HasProblem()) {
				t.Errorf("expiring %d (problem %v), want %d", e.Expiring, grp.HasProblem(), c.expiring)
			}
			if (e.ExpiringInMs != nil) != (c.expiring > 0) || (c.expiring > 0) != (grp.Urgency() == model.UrgencySave) {
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
	tp := model.TP{Topic: "a", Partition: 0}
	obs := model.Observation{TakenAt: now, RiskWindow: time.Hour, Topics: map[string]model.Topic{"a": {Topic: "a", Partitions: 1}},
		Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(5))}},
		Groups: []model.GroupObservation{
			{Group: "share", Type: model.TypeShare, State: "Stable", StartOffsets: map[model.TP]int64{tp: 2}},
			{Group: "none", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer"},
		}}
	s := assemble.Snapshot(obs, assemble.Options{})
	for _, g := range s.Groups {
		switch g.Group {
		case "share":
			if g.CommitsExpiry == nil || g.CommitsExpiry.Rule != model.ExpiryNever || g.Partitions[0].CommitsExpireBy != model.ExpiryNever || g.CommitsExpireAt != nil {
				t.Errorf("share group: %+v, partition %q", g.CommitsExpiry, g.Partitions[0].CommitsExpireBy)
			}
		case "none":
			if g.CommitsExpiry != nil || g.CommitsExpireAt != nil {
				t.Errorf("a group without commits has a clock: %+v", g.CommitsExpiry)
			}
		}
	}
}
