package kafka_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The reader finds each asked group's last commit per partition, with its commit time,
// drops deleted commits, keeps the last GroupMetadata record of a classic group, and
// ignores groups not asked for.
func TestReadCommitLog(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 5)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	log.write(
		log.classicRecord("billing", "consumer", 1, 2, at(0)),
		log.commitRecord("billing", "orders", 0, 10, at(1)),
		log.commitRecord("billing", "orders", 1, 20, at(2)),
		log.commitRecord("billing", "orders", 0, 15, at(3)),
		log.commitRecord("billing", "gone", 0, 5, at(4)),
		log.commitRecord("billing", "gone", 0, -1, at(5)), // deleted
		log.classicRecord("billing", "consumer", 2, 0, at(6)),
		log.commitRecord("other", "orders", 0, 99, at(7)),
		log.commitRecord("simple", "orders", 2, 7, at(8)),
	)
	c := newClient(t, k.ListenAddrs(), time.Now)
	got, scan := c.ReadCommitLog(context.Background(), []string{"billing", "simple", "nothing"}, kafka.CommitLogOptions{})
	if len(got) != 3 {
		t.Fatalf("got %d groups, want 3: %v", len(got), got)
	}
	b := got["billing"]
	if b.Status != model.CommitLogRead || b.Reason != "" {
		t.Fatalf("billing: status %q (%s), want read", b.Status, b.Reason)
	}
	want := []model.CommitRecord{
		{TP: model.TP{Topic: "orders", Partition: 0}, Offset: 15, CommittedAt: at(3)},
		{TP: model.TP{Topic: "orders", Partition: 1}, Offset: 20, CommittedAt: at(2)},
	}
	if fmt.Sprint(b.Commits) != fmt.Sprint(want) {
		t.Errorf("billing's commits:\n got %v\nwant %v", b.Commits, want)
	}
	if b.Classic == nil || b.Classic.Members != 0 || b.Classic.Generation != 2 || !b.Classic.StateAt.Equal(at(6)) ||
		b.Classic.ProtocolType != "consumer" || !b.Classic.WrittenAt.Equal(at(6)) {
		t.Errorf("billing's GroupMetadata: %+v, want generation 2, Empty at %v", b.Classic, at(6))
	}
	if len(b.Recent) != 0 {
		t.Errorf("billing's recent commits (an hour old, window 5m): %v, want none", b.Recent)
	}
	if s := got["simple"]; s.Classic != nil || len(s.Commits) != 1 || s.Commits[0].Offset != 7 {
		t.Errorf("simple: %+v, want one commit at 7 and no GroupMetadata", s)
	}
	if n := got["nothing"]; n.Status != model.CommitLogRead || len(n.Commits) != 0 {
		t.Errorf("a group with no records: %+v, want read and empty", n)
	}
	for g, l := range got {
		if want := int32(-1); l.Partition == want {
			t.Errorf("%s: partition unknown", g)
		}
	}
	if scan.Requests < 1 || scan.Records == 0 || scan.Complete != scan.Partitions {
		t.Errorf("scan %+v: want every partition read", scan)
	}
}

// Recent keeps the commits within the window before the read, at most PerPartition per
// partition (the newest), oldest first.
func TestReadCommitLogRecent(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 3)
	now := time.Now().Truncate(time.Millisecond)
	var recs []*kgo.Record
	recs = append(recs, log.commitRecord("g", "t", 0, 1, now.Add(-20*time.Minute))) // outside the window
	for i := range 6 {
		recs = append(recs, log.commitRecord("g", "t", 0, int64(10+i), now.Add(time.Duration(i-6)*time.Minute/2)))
	}
	recs = append(recs, log.commitRecord("g", "t", 1, 5, now.Add(-time.Minute)))
	log.write(recs...)
	c := newClient(t, k.ListenAddrs(), func() time.Time { return now })
	got, _ := c.ReadCommitLog(context.Background(), []string{"g"}, kafka.CommitLogOptions{Window: 5 * time.Minute, PerPartition: 4})
	var offs []int64
	for _, r := range got["g"].RecentOn(model.TP{Topic: "t", Partition: 0}) {
		offs = append(offs, r.Offset)
	}
	if fmt.Sprint(offs) != "[12 13 14 15]" {
		t.Errorf("recent commits on t-0: %v, want the newest 4 [12 13 14 15]", offs)
	}
	if r := got["g"].RecentOn(model.TP{Topic: "t", Partition: 1}); len(r) != 1 || r[0].Offset != 5 {
		t.Errorf("recent commits on t-1: %v, want the one commit at 5", r)
	}
	if l, ok := got["g"].Last(model.TP{Topic: "t", Partition: 0}); !ok || l.Offset != 15 {
		t.Errorf("last commit on t-0: %v %v, want 15", l, ok)
	}
	got, _ = c.ReadCommitLog(context.Background(), []string{"g"}, kafka.CommitLogOptions{History: func(string) bool { return false }})
	if r := got["g"].Recent; r != nil || len(got["g"].Commits) != 2 {
		t.Errorf("without history: recent %v, %d commits; want none and 2", r, len(got["g"].Commits))
	}
}

// Transactional offset commits count once their transaction commits; an aborted one
// never does.
func TestReadCommitLogTransactions(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	log.commit("g", "t", 0, 1, at)
	txn := func(id string, offset int64, commit bool) {
		t.Helper()
		cl, err := kgo.NewClient(kgo.SeedBrokers(k.ListenAddrs()...), kgo.DefaultProduceTopic("__consumer_offsets"),
			kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.TransactionalID(id))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		ctx := context.Background()
		if err := cl.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := cl.ProduceSync(ctx, log.commitRecord("g", "t", 0, offset, at.Add(time.Second))).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, k.ListenAddrs(), time.Now)
	last := func() int64 {
		t.Helper()
		got, _ := c.ReadCommitLog(context.Background(), []string{"g"}, kafka.CommitLogOptions{})
		l, ok := got["g"].Last(model.TP{Topic: "t", Partition: 0})
		if !ok {
			t.Fatalf("no commit on t-0: %+v", got["g"])
		}
		return l.Offset
	}
	txn("aborts", 50, false)
	if got := last(); got != 1 {
		t.Errorf("after an aborted transactional commit: %d, want 1", got)
	}
	txn("commits", 60, true)
	if got := last(); got != 60 {
		t.Errorf("after a committed transactional commit: %d, want 60", got)
	}
}

// A second read fetches only what was appended since the first; a group asked for the
// first time makes its partition read again from the start.
func TestReadCommitLogIncremental(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for i := range 50 {
		log.commit("a", "t", int32(i), int64(i), at)
	}
	log.commit("b", "t", 0, 7, at)
	c := newClient(t, k.ListenAddrs(), time.Now)
	rc := kafkatest.CountRequests(k, kmsg.Fetch)
	defer rc.Remove()
	_, first := c.ReadCommitLog(context.Background(), []string{"a"}, kafka.CommitLogOptions{})
	if first.Records != 51 {
		t.Errorf("first read: %d records, want 51", first.Records)
	}
	log.commit("a", "t", 0, 100, at.Add(time.Minute))
	got, second := c.ReadCommitLog(context.Background(), []string{"a"}, kafka.CommitLogOptions{})
	if second.Records != 1 {
		t.Errorf("second read: %d records, want only the one appended", second.Records)
	}
	if l, _ := got["a"].Last(model.TP{Topic: "t"}); l.Offset != 100 || len(got["a"].Commits) != 50 {
		t.Errorf("after the second read: t-0 at %d and %d partitions, want 100 and 50", l.Offset, len(got["a"].Commits))
	}
	got, third := c.ReadCommitLog(context.Background(), []string{"a", "b"}, kafka.CommitLogOptions{})
	if third.Records != 52 {
		t.Errorf("a new group's read: %d records, want the whole partition again (52)", third.Records)
	}
	if l, _ := got["b"].Last(model.TP{Topic: "t"}); l.Offset != 7 || len(got["a"].Commits) != 50 {
		t.Errorf("b at %d, a with %d partitions; want 7 and 50", l.Offset, len(got["a"].Commits))
	}
}

// The byte budget stops a read: its groups say partial, and the next read goes on from
// where it stopped until it reaches the end.
func TestReadCommitLogBudget(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for i := range 20 {
		var recs []*kgo.Record
		for p := range 100 {
			recs = append(recs, log.commitRecord("g", "t", int32(p), int64(i), at))
		}
		log.write(recs...)
	}
	c := newClient(t, k.ListenAddrs(), time.Now)
	opt := kafka.CommitLogOptions{MaxBytes: 20 << 10}
	var total int64
	for round := 1; ; round++ {
		got, scan := c.ReadCommitLog(context.Background(), []string{"g"}, opt)
		total += scan.Records
		l := got["g"]
		if l.Status == model.CommitLogRead {
			if total != 2000 || len(l.Commits) != 100 || l.Commits[0].Offset != 19 {
				t.Errorf("read whole after %d reads: %d records in all, %d partitions at %d; want 2000, 100 at 19",
					round, total, len(l.Commits), l.Commits[0].Offset)
			}
			if round < 2 {
				t.Errorf("a 20 KiB budget read about 72 KB of keys and values in %d read", round)
			}
			return
		}
		if l.Status != model.CommitLogPartial || l.Reason == "" || len(l.Commits) != 0 {
			t.Fatalf("read %d: %+v, want partial with a reason and no commits", round, l)
		}
		if round > 40 {
			t.Fatalf("not read whole after %d reads (%d records)", round, total)
		}
	}
}

// A snapshot that asks for the commit log gives each group its records and the clock its
// times: an admin-committed group's commit expires the retention after its commit time; one
// that does not ask (--commit-log=off) says the commit time is unknown and that the log was
// not read. A catching-up read (the TUI's) of a small log ends within the snapshot alike.
func TestSnapshotCommitLogClock(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("orders", 1, nil); err != nil {
		t.Fatal(err)
	}
	log := newFakeOffsetsTopic(t, k, 5)
	c := newClient(t, k.ListenAddrs(), time.Now)
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	offs := kadm.Offsets{}
	offs.Add(kadm.Offset{Topic: "orders", Partition: 0, At: 0, LeaderEpoch: -1})
	if _, err := adm.CommitOffsets(context.Background(), "simple", offs); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	log.commit("simple", "orders", 0, 0, at)
	for _, q := range []model.Query{
		{Groups: []string{"simple"}, RiskWindow: time.Hour, CommitLog: true},
		{Groups: []string{"simple"}, RiskWindow: time.Hour, CommitLog: true, CommitLogCatchUp: true},
		{Groups: []string{"simple"}, RiskWindow: time.Hour},
	} {
		snap, err := c.Snapshot(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		g := findGroup(t, snap, "simple")
		e, p := g.CommitsExpiry, g.Partitions[0]
		if e == nil || e.Rule != model.ExpiryCommitTime {
			t.Fatalf("query %+v: clock %+v, want by commit time", q, e)
		}
		retention := time.Duration(e.RetentionMs) * time.Millisecond
		switch {
		case q.CommitLog && (e.CommitLog != model.CommitLogRead || p.CommitsExpireAt == nil || !p.CommitsExpireAt.Equal(at.Add(retention))):
			t.Errorf("with the log: %+v, partition at %v; want read, %v", e, p.CommitsExpireAt, at.Add(retention))
		case !q.CommitLog && (e.CommitLog != model.CommitLogOff || p.CommitsExpireAt != nil || e.UnknownTime != model.ExpiryCommitTime):
			t.Errorf("without the log: %+v, partition at %v; want off and the commit time unknown", e, p.CommitsExpireAt)
		}
	}
}
