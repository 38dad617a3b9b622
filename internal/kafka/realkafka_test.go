package kafka_test

// Tests against a real Apache Kafka broker (scripts/kafka.sh), with Kafka's own
// ConsumerGroupCommand as the oracle where it defines an answer. They run when
// OFFSETTUI_IT_BOOTSTRAP is set and skip otherwise; OFFSETTUI_REQUIRE_KAFKA=1 turns
// the skip into a failure. Every topic and group name carries a random suffix.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// realClient connects internal/kafka to the real broker.
func realClient(t *testing.T, addr string) *kafka.Client {
	t.Helper()
	return newClient(t, strings.Split(addr, ","), nil)
}

// realSnapshot takes a snapshot of the named groups.
func realSnapshot(t *testing.T, c *kafka.Client, q model.Query) model.Snapshot {
	t.Helper()
	if q.FetchBudget == 0 {
		q.FetchBudget = model.DefaultFetchBudget
	}
	snap, err := c.Snapshot(realkafka.Ctx(t, 30*time.Second), q)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return snap
}

func tpOf(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

// stableWith reports whether a group is Stable with exactly one member that is
// assigned exactly the partitions want of topic.
func stableWith(snap model.Snapshot, group, topic string, want []int32) (bool, string) {
	for _, g := range snap.Groups {
		if g.Group != group {
			continue
		}
		if g.State != "Stable" || len(g.Members) != 1 {
			return false, fmt.Sprintf("group %s: state %s, %d members", group, g.State, len(g.Members))
		}
		var got []int32
		for _, a := range g.Members[0].Assignments {
			if a.Topic == topic {
				got = append(got, a.Partitions...)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return false, fmt.Sprintf("group %s: member assigned %v of %s, want %v", group, got, topic, want)
		}
		return true, ""
	}
	return false, fmt.Sprintf("group %s not in snapshot", group)
}

// TestRealKafkaDescribeParity: for every partition ConsumerGroupCommand --describe
// shows, offsettui's committed, high and lag are Kafka's CURRENT-OFFSET,
// LOG-END-OFFSET and LAG — for an Empty group with commits, a group with partial
// commits on a multi-partition topic, a live classic member with partial commits,
// and a group with an expired and an ahead commit.
func TestRealKafkaDescribeParity(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	ta, tb, tc := realkafka.Name("parity-a"), realkafka.Name("parity-b"), realkafka.Name("parity-c")
	s.CreateTopic(ta, 3, nil)
	s.CreateTopic(tb, 1, nil)
	s.CreateTopic(tc, 1, nil)
	now := time.Now()
	at := func(int) time.Time { return now }
	s.ProduceN(ta, 0, 10, at)
	s.ProduceN(ta, 1, 7, at) // partition 2 stays empty
	s.ProduceN(tb, 0, 5, at)
	s.ProduceN(tc, 0, 8, at)
	if err := s.DeleteRecords(tc, 0, 5); err != nil {
		t.Fatalf("delete records of %s-0 before 5: %v", tc, err)
	}

	gEmpty, gPartial, gLive, gOdd := realkafka.Name("parity-empty"), realkafka.Name("parity-partial"), realkafka.Name("parity-live"), realkafka.Name("parity-odd")
	s.Commit(gEmpty, map[model.TP]int64{tpOf(ta, 0): 4, tpOf(ta, 1): 7, tpOf(ta, 2): 0, tpOf(tb, 0): 2})
	s.Commit(gPartial, map[model.TP]int64{tpOf(ta, 0): 10})
	s.Commit(gOdd, map[model.TP]int64{tpOf(tc, 0): 2, tpOf(tb, 0): 50})
	s.Commit(gLive, map[model.TP]int64{tpOf(ta, 1): 3}) // before the member joins: admin commits need an empty group
	realkafka.ClassicMember(t, addr, gLive, realkafka.Name("classic-client"), ta)

	c := realClient(t, addr)
	groups := []string{gEmpty, gPartial, gLive, gOdd}
	realkafka.WaitUntil(t, 30*time.Second, "live classic member assigned", func() (bool, string) {
		return stableWith(realSnapshot(t, c, model.Query{Groups: []string{gLive}}), gLive, ta, []int32{0, 1, 2})
	})

	rows := cgcDescribe(t, addr, groups...)
	snap := realSnapshot(t, c, model.Query{Groups: groups})
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}

	// What Kafka's CLI shows: committed partitions, plus the assigned ones of a live group.
	wantRows := map[string]int{gEmpty: 4, gPartial: 1, gLive: 3, gOdd: 2}
	gotRows := map[string]int{}
	n := 0
	for _, r := range rows {
		gotRows[r.group]++
		g := findGroup(t, snap, r.group)
		p := findPartition(t, g, r.topic, r.partition)
		n++
		if !sameInt64(p.Committed, r.current) || !sameInt64(p.High, r.logEnd) || !sameInt64(p.Lag, r.lag) {
			t.Errorf("%s %s: offsettui committed/high/lag = %s/%s/%s, ConsumerGroupCommand CURRENT-OFFSET/LOG-END-OFFSET/LAG = %s/%s/%s",
				r.group, r.tp(), fmtInt64(p.Committed), fmtInt64(p.High), fmtInt64(p.Lag), fmtInt64(r.current), fmtInt64(r.logEnd), fmtInt64(r.lag))
		}
	}
	for g, want := range wantRows {
		if gotRows[g] != want {
			t.Errorf("ConsumerGroupCommand showed %d rows for %s, want %d", gotRows[g], g, want)
		}
	}
	t.Logf("compared %d partitions", n)

	// What offsettui adds on the same partitions.
	odd := findGroup(t, snap, gOdd)
	if p := findPartition(t, odd, tc, 0); p.Status != model.StatusExpired || val(p.Lost()) != int64(3) {
		t.Errorf("%s %s-0: status %s lost %v, want expired lost 3", gOdd, tc, p.Status, val(p.Lost()))
	}
	if p := findPartition(t, odd, tb, 0); p.Status != model.StatusAhead || val(p.Beyond()) != int64(45) {
		t.Errorf("%s %s-0: status %s beyond %v, want ahead beyond 45", gOdd, tb, p.Status, val(p.Beyond()))
	}
	partial := findGroup(t, snap, gPartial)
	for _, i := range []int32{1, 2} {
		if p := findPartition(t, partial, ta, i); p.Status != model.StatusMissing {
			t.Errorf("%s %s-%d: status %s, want missing (no commit beside a committed partition)", gPartial, ta, i, p.Status)
		}
	}
	live := findGroup(t, snap, gLive)
	if live.Type != "classic" || live.State != "Stable" {
		t.Errorf("%s: type %s state %s, want classic Stable", gLive, live.Type, live.State)
	}
	for _, i := range []int32{0, 1, 2} {
		if p := findPartition(t, live, ta, i); p.Member == nil {
			t.Errorf("%s %s-%d: no member, want the live member", gLive, ta, i)
		}
	}
	if e := findGroup(t, snap, gEmpty); e.State != "Empty" || len(e.Members) != 0 {
		t.Errorf("%s: state %s with %d members, want Empty without members", gEmpty, e.State, len(e.Members))
	}
}

// TestRealKafkaOutboxExpired is the outbox story with real retention: a group
// committed at an early offset and stopped; retention deleted the old records; fresh
// records came after. offsettui says expired with lost = low − committed, while
// Kafka's CLI shows only a lag.
func TestRealKafkaOutboxExpired(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("outbox"), realkafka.Name("outbox-fanout")
	s.CreateTopic(topic, 1, nil)
	old := time.Now().Add(-2 * time.Hour)
	s.ProduceN(topic, 0, 10, func(i int) time.Time { return old.Add(time.Duration(i) * time.Second) })
	s.Commit(group, map[model.TP]int64{tpOf(topic, 0): 3})

	// A tiny retention.ms: the broker (log.retention.check.interval.ms=1000) rolls
	// the active segment and deletes it, moving the log start offset to 10.
	s.SetTopicConfig(topic, "retention.ms", kadm.StringPtr("1000"))
	start := time.Now()
	realkafka.WaitUntil(t, 30*time.Second, "retention moves the log start offset", func() (bool, string) {
		low, err := s.StartOffset(topic, 0)
		if err != nil {
			return false, err.Error()
		}
		return low == 10, fmt.Sprintf("start offset %d", low)
	})
	t.Logf("retention deleted the old records after %s", time.Since(start).Round(10*time.Millisecond))
	s.SetTopicConfig(topic, "retention.ms", nil) // back to the broker default (7 days)
	s.ProduceN(topic, 0, 5, func(int) time.Time { return time.Now() })

	rows := cgcDescribe(t, addr, group)
	if len(rows) != 1 {
		t.Fatalf("ConsumerGroupCommand rows: %+v, want one", rows)
	}
	r := rows[0]
	if r.topic != topic || r.partition != 0 || val(r.current) != int64(3) || val(r.logEnd) != int64(15) || val(r.lag) != int64(12) {
		t.Errorf("ConsumerGroupCommand: %s current %s log-end %s lag %s, want %s-0 3 15 12",
			r.tp(), fmtInt64(r.current), fmtInt64(r.logEnd), fmtInt64(r.lag), topic)
	}

	snap := realSnapshot(t, realClient(t, addr), model.Query{Groups: []string{group}})
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}
	p := findPartition(t, findGroup(t, snap, group), topic, 0)
	if p.Status != model.StatusExpired || val(p.Low) != int64(10) || val(p.High) != int64(15) ||
		val(p.Committed) != int64(3) || val(p.Lag) != int64(12) || val(p.Lost()) != int64(7) {
		t.Errorf("offsettui: status %s low %v high %v committed %v lag %v lost %v, want expired 10 15 3 12 lost 7",
			p.Status, val(p.Low), val(p.High), val(p.Committed), val(p.Lag), val(p.Lost()))
	}
	if p.Lost() == nil || r.lag == nil || *p.Lost() >= *r.lag {
		t.Errorf("lost %s must be less than Kafka's lag %s", fmtInt64(p.Lost()), fmtInt64(r.lag))
	}
	if !sameInt64(p.Committed, r.current) || !sameInt64(p.High, r.logEnd) || !sameInt64(p.Lag, r.lag) {
		t.Errorf("offsettui committed/high/lag = %s/%s/%s, ConsumerGroupCommand %s/%s/%s",
			fmtInt64(p.Committed), fmtInt64(p.High), fmtInt64(p.Lag), fmtInt64(r.current), fmtInt64(r.logEnd), fmtInt64(r.lag))
	}
	t.Logf("compared 1 partition: Kafka's CLI lag %s; offsettui expired, lost %s, lag %s", fmtInt64(r.lag), fmtInt64(p.Lost()), fmtInt64(p.Lag))
}

// TestRealKafkaBothProtocols: a classic member (franz-go) and a consumer-protocol
// member (Kafka's ConsoleConsumer, group.protocol=consumer, joining a group that an
// admin commit created as classic) both show as Stable with their member — member
// id, client id, host and partition count as ConsumerGroupCommand --members shows
// them — and their committed, high and lag equal ConsumerGroupCommand --describe.
func TestRealKafkaBothProtocols(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("protocols")
	s.CreateTopic(topic, 2, nil)
	s.ProduceN(topic, 0, 3, func(int) time.Time { return time.Now() })
	s.ProduceN(topic, 1, 2, func(int) time.Time { return time.Now() })
	gClassic, gConsumer := realkafka.Name("classic"), realkafka.Name("consumer")
	idClassic, idConsumer := realkafka.Name("classic-client"), realkafka.Name("consumer-client")
	// Commits made while the groups are empty: the classic group keeps its protocol;
	// the other group is created classic by the commit and converted to the consumer
	// protocol when the ConsoleConsumer joins (Kafka's default migration policy).
	s.Commit(gClassic, map[model.TP]int64{tpOf(topic, 1): 1})
	s.Commit(gConsumer, map[model.TP]int64{tpOf(topic, 0): 2})
	realkafka.ClassicMember(t, addr, gClassic, idClassic, topic)
	stopConsole := realkafka.ConsoleConsumer(t, addr, gConsumer, idConsumer, topic)

	c := realClient(t, addr)
	groups := []string{gClassic, gConsumer}
	var snap model.Snapshot
	realkafka.WaitUntil(t, 60*time.Second, "both members Stable with their assignment", func() (bool, string) {
		snap = realSnapshot(t, c, model.Query{Groups: groups})
		for _, g := range groups {
			if ok, why := stableWith(snap, g, topic, []int32{0, 1}); !ok {
				return false, why
			}
		}
		return true, ""
	})
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}

	members := realkafka.TableRows(realkafka.DescribeOutput(t, addr, []string{"--members"}, groups...), "GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS")
	rows := cgcDescribe(t, addr, groups...)
	snap = realSnapshot(t, c, model.Query{Groups: groups}) // after Kafka's CLI read, as in the parity test
	if len(rows) != 4 {
		t.Errorf("ConsumerGroupCommand --describe: %d rows, want 2 per group: %+v", len(rows), rows)
	}
	for _, r := range rows {
		p := findPartition(t, findGroup(t, snap, r.group), r.topic, r.partition)
		if !sameInt64(p.Committed, r.current) || !sameInt64(p.High, r.logEnd) || !sameInt64(p.Lag, r.lag) {
			t.Errorf("%s %s: offsettui committed/high/lag = %s/%s/%s, ConsumerGroupCommand CURRENT-OFFSET/LOG-END-OFFSET/LAG = %s/%s/%s",
				r.group, r.tp(), fmtInt64(p.Committed), fmtInt64(p.High), fmtInt64(p.Lag), fmtInt64(r.current), fmtInt64(r.logEnd), fmtInt64(r.lag))
		}
	}
	t.Logf("compared %d partitions", len(rows))
	for _, tc := range []struct {
		group, typ, clientID string
		committed            [2]*int64
	}{
		{gClassic, "classic", idClassic, [2]*int64{nil, model.Ptr[int64](1)}},
		{gConsumer, "consumer", idConsumer, [2]*int64{model.Ptr[int64](2), nil}},
	} {
		g := findGroup(t, snap, tc.group)
		if g.Type != tc.typ || g.State != "Stable" || g.Error != nil {
			t.Errorf("%s: type %s state %s error %v, want %s Stable", tc.group, g.Type, g.State, g.Error, tc.typ)
		}
		m := g.Members[0]
		if m.ClientID != tc.clientID || m.Host == "" || m.MemberID == "" {
			t.Errorf("%s: member %+v, want client id %s and a host", tc.group, m.MemberRef, tc.clientID)
		}
		var cli map[string]string
		for _, row := range members {
			if row["GROUP"] == tc.group {
				if cli != nil {
					t.Errorf("%s: ConsumerGroupCommand shows more than one member", tc.group)
				}
				cli = row
			}
		}
		if cli == nil {
			t.Errorf("%s: ConsumerGroupCommand --members shows no member", tc.group)
			continue
		}
		if cli["CONSUMER-ID"] != m.MemberID || cli["HOST"] != m.Host || cli["CLIENT-ID"] != m.ClientID || cli["#PARTITIONS"] != "2" {
			t.Errorf("%s: offsettui member id %s host %s client %s (2 partitions), ConsumerGroupCommand %v",
				tc.group, m.MemberID, m.Host, m.ClientID, cli)
		}
		t.Logf("%s (%s): member host %q, client %s, assigned %v", tc.group, g.Type, m.Host, m.ClientID, m.Assignments)
		for _, i := range []int32{0, 1} {
			p := findPartition(t, g, topic, i)
			if p.Member == nil || p.Member.MemberID != m.MemberID {
				t.Errorf("%s %s-%d: member %+v, want %s", tc.group, topic, i, p.Member, m.MemberID)
			}
			if want := tc.committed[i]; !sameInt64(p.Committed, want) || (want == nil) != (p.Status == model.StatusMissing) {
				t.Errorf("%s %s-%d: committed %s status %s, want committed %s (missing when none)", tc.group, topic, i, fmtInt64(p.Committed), p.Status, fmtInt64(want))
			}
		}
	}

	// The consumer-protocol member leaves: the group is Empty (from ListGroups), still
	// of type consumer, with its commits and the offsets-retention clock running.
	stopConsole()
	realkafka.WaitUntil(t, 30*time.Second, "consumer-protocol group Empty after its member left", func() (bool, string) {
		g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{gConsumer}}), gConsumer)
		return g.State == "Empty", fmt.Sprintf("state %s, %d members", g.State, len(g.Members))
	})
	g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{gConsumer}}), gConsumer)
	if g.Type != "consumer" || len(g.Members) != 0 || g.Error != nil || g.OffsetsExpireAfterMs == nil {
		t.Errorf("%s after leaving: type %s, %d members, error %v, offsetsExpireAfterMs %s; want consumer, 0, none, set",
			gConsumer, g.Type, len(g.Members), g.Error, fmtInt64(g.OffsetsExpireAfterMs))
	}
	if p := findPartition(t, g, topic, 0); val(p.Committed) != int64(2) {
		t.Errorf("%s %s-0 after leaving: committed %s, want 2", gConsumer, topic, fmtInt64(p.Committed))
	}
}

// TestRealKafkaUnknownGroup: Kafka answers OffsetFetch for a group that does not
// exist with no offsets (kfake: GROUP_ID_NOT_FOUND). offsettui shows the group
// with a not-found error and nothing in it; Kafka's CLI shows no rows.
func TestRealKafkaUnknownGroup(t *testing.T) {
	addr := realkafka.Addr(t)
	group := realkafka.Name("nobody")
	snap := realSnapshot(t, realClient(t, addr), model.Query{Groups: []string{group}})
	if len(snap.Errors) != 1 || snap.Errors[0].Kind != model.KindNotFound {
		t.Errorf("snapshot errors: %+v; want one not-found", snap.Errors)
	}
	g := findGroup(t, snap, group)
	if g.Error == nil || g.Error.Kind != model.KindNotFound || len(g.Partitions) != 0 || len(g.Members) != 0 {
		t.Errorf("unknown group: error %v, %d partitions, %d members; want not-found and nothing else", g.Error, len(g.Partitions), len(g.Members))
	}
	if g.State != "Dead" {
		t.Errorf("unknown group: state %q, want Dead", g.State)
	}
	if rows := cgcDescribe(t, addr, group); len(rows) != 0 {
		t.Errorf("ConsumerGroupCommand rows for an unknown group: %+v", rows)
	}
}

// TestRealKafkaBrokerDefaults: a topic without overrides gets retention.ms from the
// broker's log.retention.hours=168 (kfake never reports log.retention.hours), and
// offsets.retention.minutes is read from the broker.
func TestRealKafkaBrokerDefaults(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("defaults"), realkafka.Name("defaults")
	s.CreateTopic(topic, 1, nil)
	s.ProduceN(topic, 0, 2, func(int) time.Time { return time.Now() })
	s.Commit(group, map[model.TP]int64{tpOf(topic, 0): 1})

	snap := realSnapshot(t, realClient(t, addr), model.Query{Groups: []string{group}})
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}
	if val(snap.Cluster.OffsetsRetentionMinutes) != int64(10080) {
		t.Errorf("offsetsRetentionMinutes = %v, want 10080", val(snap.Cluster.OffsetsRetentionMinutes))
	}
	var top *model.Topic
	for i := range snap.Topics {
		if snap.Topics[i].Topic == topic {
			top = &snap.Topics[i]
		}
	}
	if top == nil {
		t.Fatalf("topic %s not in snapshot", topic)
	}
	if top.Error != nil || model.Deref(top.CleanupPolicy) != "delete" || val(top.RetentionMs) != int64(604800000) || val(top.RetentionBytes) != int64(-1) || top.Partitions != 1 {
		t.Errorf("topic: %+v (retentionMs %v retentionBytes %v), want delete, 604800000, -1, 1 partition",
			*top, val(top.RetentionMs), val(top.RetentionBytes))
	}
	g := findGroup(t, snap, group)
	if g.State != "Empty" || g.ProtocolType != "" || g.Type != "classic" || val(g.OffsetsExpireAfterMs) != int64(10080*60_000) {
		t.Errorf("group: state %q protocolType %q type %q offsetsExpireAfterMs %v, want Empty, \"\", classic, %d",
			g.State, g.ProtocolType, g.Type, val(g.OffsetsExpireAfterMs), 10080*60_000)
	}
	p := findPartition(t, g, topic, 0)
	if p.Status != model.StatusOK || val(p.Lag) != int64(1) || p.CommittedTimestamp() == nil {
		t.Errorf("partition: status %s lag %v committedTimestamp %v, want ok, 1, set", p.Status, val(p.Lag), p.CommittedTimestamp())
	}
}

// TestRealKafkaAtRisk: the at-risk lookup (ListOffsets by timestamp, batched) and
// the committed-record timestamp (Fetch) on a real broker: with retention.ms 3h,
// a commit on a record written 2.5h ago expires in about 30 minutes — at-risk in a
// 1h window; a commit on a fresh record is ok. Both groups commit on the same
// partition, each must get its own record's timestamp (see
// TestCommittedTimestampsSharedPartition).
func TestRealKafkaAtRisk(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, gRisk, gFresh := realkafka.Name("risk"), realkafka.Name("risk-old"), realkafka.Name("risk-fresh")
	s.CreateTopic(topic, 1, map[string]*string{"retention.ms": kadm.StringPtr("10800000")})
	now := time.Now().Truncate(time.Millisecond)
	old := now.Add(-150 * time.Minute)
	s.ProduceN(topic, 0, 5, func(i int) time.Time { return old.Add(time.Duration(i) * time.Second) })
	s.ProduceN(topic, 0, 5, func(int) time.Time { return now })
	s.Commit(gRisk, map[model.TP]int64{tpOf(topic, 0): 2})
	s.Commit(gFresh, map[model.TP]int64{tpOf(topic, 0): 6})

	snap := realSnapshot(t, realClient(t, addr), model.Query{Groups: []string{gRisk, gFresh}, RiskWindow: time.Hour})
	if len(snap.Errors) != 0 {
		t.Errorf("snapshot errors: %+v", snap.Errors)
	}
	p := findPartition(t, findGroup(t, snap, gRisk), topic, 0)
	wantTS := old.Add(2 * time.Second)
	if p.Status != model.StatusAtRisk || p.CommittedTimestamp() == nil || !p.CommittedTimestamp().Equal(wantTS) {
		t.Errorf("old commit: status %s committedTimestamp %v, want at-risk %v", p.Status, p.CommittedTimestamp(), wantTS)
	}
	if p.ExpiresInMs == nil || *p.ExpiresInMs < (29*time.Minute).Milliseconds() || *p.ExpiresInMs > (31*time.Minute).Milliseconds() {
		t.Errorf("old commit: expiresInMs %s, want about 30 minutes", fmtInt64(p.ExpiresInMs))
	}
	if p := findPartition(t, findGroup(t, snap, gFresh), topic, 0); p.Status != model.StatusOK || p.CommittedTimestamp() == nil || !p.CommittedTimestamp().Equal(now) {
		t.Errorf("fresh commit: status %s committedTimestamp %v, want ok %v", p.Status, p.CommittedTimestamp(), now)
	}
}

// TestRealKafkaOpenTransaction: an open transaction holds the last stable offset
// back while the high watermark (Kafka's LOG-END-OFFSET, and offsettui's lag) counts
// its records; after an abort the marker takes an offset too. A commit at the marker
// has no record to take a timestamp from and nothing left to read (lag 0, where
// ConsumerGroupCommand says 1). Lag parity with ConsumerGroupCommand at both moments
// for the group with data left.
func TestRealKafkaOpenTransaction(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group, gMarker := realkafka.Name("txn"), realkafka.Name("txn"), realkafka.Name("txn-marker")
	s.CreateTopic(topic, 1, nil)
	s.ProduceN(topic, 0, 3, func(int) time.Time { return time.Now() })
	s.Commit(group, map[model.TP]int64{tpOf(topic, 0): 1})

	// A long transaction timeout: on a loaded machine Kafka's CLI (a JVM each call) can take
	// longer than kgo's default 40 s, and the broker would abort the open transaction.
	txn, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.TransactionalID(realkafka.Name("txn-id")),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0), kgo.TransactionTimeout(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(txn.Close)
	if err := txn.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	recs := []*kgo.Record{{Topic: topic, Partition: 0, Value: []byte("t")}, {Topic: topic, Partition: 0, Value: []byte("t")}}
	if err := txn.ProduceSync(realkafka.Ctx(t, 30*time.Second), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}

	c := realClient(t, addr)
	check := func(high, lastStable, lag int64) {
		t.Helper()
		rows := cgcDescribe(t, addr, group)
		snap := realSnapshot(t, c, model.Query{Groups: []string{group}})
		p := findPartition(t, findGroup(t, snap, group), topic, 0)
		if val(p.High) != high || val(p.LastStable) != lastStable || val(p.Lag) != lag || p.Status != model.StatusOK {
			t.Errorf("offsettui: high %v lastStable %v lag %v status %s, want %d %d %d ok", val(p.High), val(p.LastStable), val(p.Lag), p.Status, high, lastStable, lag)
		}
		if len(rows) != 1 || !sameInt64(rows[0].logEnd, p.High) || !sameInt64(rows[0].lag, p.Lag) || !sameInt64(rows[0].current, p.Committed) {
			t.Errorf("ConsumerGroupCommand rows %+v, offsettui committed/high/lag %s/%s/%s", rows, fmtInt64(p.Committed), fmtInt64(p.High), fmtInt64(p.Lag))
		}
	}
	check(5, 3, 4) // records 3 and 4 are in the open transaction

	if err := txn.EndTransaction(realkafka.Ctx(t, 30*time.Second), kgo.TryAbort); err != nil {
		t.Fatal(err)
	}
	// The coordinator writes the abort marker after EndTxn has answered.
	realkafka.WaitUntil(t, 30*time.Second, "abort marker written", func() (bool, string) {
		lso, err := s.StableOffset(topic, 0)
		if err != nil {
			return false, err.Error()
		}
		return lso == 6, fmt.Sprintf("last stable offset %d", lso)
	})
	check(6, 6, 5) // the abort marker is offset 5
	t.Logf("compared 2 partition rows (one partition, in and after the transaction)")

	// A commit at the abort marker has nothing a read_committed consumer receives after
	// it: caught up, the marker counted and Kafka's LAG 1 kept beside it.
	s.Commit(gMarker, map[model.TP]int64{tpOf(topic, 0): 5})
	snap := realSnapshot(t, c, model.Query{Groups: []string{gMarker}})
	p := findPartition(t, findGroup(t, snap, gMarker), topic, 0)
	want := model.TransactionMarkers{ControlRecords: 1, KafkaLag: 1}
	if p.Status != model.StatusOK || val(p.Lag) != int64(0) || p.TransactionMarkers() == nil || *p.TransactionMarkers() != want ||
		p.CommittedTimestamp() != nil || p.Error != nil {
		t.Errorf("commit at the abort marker: status %s lag %v markers %+v committedTimestamp %v error %v, want ok, 0, %+v, none, none",
			p.Status, val(p.Lag), p.TransactionMarkers(), p.CommittedTimestamp(), p.Error, want)
	}
}
