package kafka_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The search newest first finds what a read of the whole log finds, on random logs of
// plain and transactional commits (committed, aborted, left open), deletions and classic
// groups' GroupMetadata records, with windows small enough that each log takes many: every
// group's last commit of each partition asked for (and none of a partition never committed),
// its last GroupMetadata record, and the commits a committer check sees in its history.
func TestSearchCommitLogAgreesWithRead(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			searchAgreesOnRandomLog(t, seed)
		})
	}
}

func searchAgreesOnRandomLog(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 31))
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 2)
	ts := time.Now().Truncate(time.Millisecond).Add(-10 * time.Minute)
	tick := func() time.Time { ts = ts.Add(time.Duration(1+rng.IntN(1500)) * time.Millisecond); return ts }
	plain := []string{"p0", "p1", "p2", "p3"}
	txnGroups := []string{"x0", "x1"}
	tp := func() (string, int32) { return []string{"t", "u"}[rng.IntN(2)], int32(rng.IntN(3)) }
	var open []*kgo.Client
	for step := 0; step < 160; step++ {
		switch r := rng.IntN(20); {
		case r < 12:
			var recs []*kgo.Record
			for range 1 + rng.IntN(4) {
				topic, p := tp()
				recs = append(recs, log.commitRecord(plain[rng.IntN(len(plain))], topic, p, int64(rng.IntN(1000)), tick()))
			}
			log.write(recs...)
		case r < 13:
			topic, p := tp()
			log.write(log.commitRecord(plain[rng.IntN(len(plain))], topic, p, -1, tick()))
		case r < 15:
			at := tick()
			log.write(log.classicRecord(plain[rng.IntN(3)], "consumer", int32(step), rng.IntN(2), at))
		default:
			cl := offsetsTxnClient(t, k, fmt.Sprintf("txn-%d-%d", seed, step))
			if err := cl.BeginTransaction(); err != nil {
				t.Fatal(err)
			}
			g := txnGroups[rng.IntN(len(txnGroups))]
			for range 1 + rng.IntN(3) {
				topic, p := tp()
				if err := cl.ProduceSync(context.Background(), log.commitRecord(g, topic, p, int64(rng.IntN(1000)), tick())).FirstErr(); err != nil {
					t.Fatal(err)
				}
				if rng.IntN(2) == 0 { // a plain group's commit between the transaction's records
					topic, p := tp()
					log.write(log.commitRecord(plain[rng.IntN(len(plain))], topic, p, int64(rng.IntN(1000)), tick()))
				}
			}
			switch rng.IntN(6) {
			case 0:
				open = append(open, cl) // never decided
				continue
			default:
				if err := cl.EndTransaction(context.Background(), kgo.TransactionEndTry(rng.IntN(3) > 0)); err != nil {
					t.Fatal(err)
				}
			}
			cl.Close()
		}
	}
	defer func() {
		for _, cl := range open {
			cl.Close()
		}
	}()
	groups := append(slices.Clone(plain), txnGroups...)
	now := ts.Add(time.Second) // the reads come after every record
	clock := func() time.Time { return now }
	whole, _ := newClient(t, k.ListenAddrs(), clock).ReadCommitLog(context.Background(), groups, kafka.CommitLogOptions{})
	needs := map[string]model.CommitLogNeed{}
	for i, g := range groups {
		var n model.CommitLogNeed
		for _, c := range whole[g].Commits {
			if rng.IntN(4) > 0 {
				n.Commits = append(n.Commits, c.TP)
			}
		}
		if i%3 == 0 {
			n.Commits = append(n.Commits, model.TP{Topic: "never", Partition: 0}) // searched to the log's start
		}
		slices.SortFunc(n.Commits, model.CompareTP)
		n.Classic, n.History = i%2 == 0, i%3 != 1
		needs[g] = n
	}
	found, scan := newClient(t, k.ListenAddrs(), clock).SearchCommitLog(context.Background(), needs,
		kafka.CommitLogOptions{FirstWindow: 300, MaxWindow: 2000})
	if scan.Requests < 3 {
		t.Errorf("the search took %d requests: the windows are meant to be many", scan.Requests)
	}
	for _, g := range groups {
		w, s, n := whole[g], found[g], needs[g]
		if s.Status != model.CommitLogRead {
			t.Fatalf("%s: %+v, want read", g, s)
		}
		var want []model.CommitRecord
		for _, c := range w.Commits {
			if slices.Contains(n.Commits, c.TP) {
				want = append(want, c)
			}
		}
		if fmt.Sprint(s.Commits) != fmt.Sprint(want) {
			t.Errorf("%s: last commits\nsearch %v\n read  %v", g, s.Commits, want)
		}
		if n.Classic && !reflect.DeepEqual(s.Classic, w.Classic) {
			t.Errorf("%s: GroupMetadata: search %+v, read %+v", g, s.Classic, w.Classic)
		}
		if !n.History {
			if s.Recent != nil {
				t.Errorf("%s: recent commits %v without history asked", g, s.Recent)
			}
			continue
		}
		if a, b := s.SeenWithoutMembers(model.TypeClassic, time.Time{}), w.SeenWithoutMembers(model.TypeClassic, time.Time{}); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: seen without members (classic)\nsearch %v\n read  %v", g, a, b)
		}
		if w.Classic == nil {
			since := now.Add(-3 * time.Minute)
			if a, b := s.SeenWithoutMembers(model.TypeConsumer, since), w.SeenWithoutMembers(model.TypeConsumer, since); fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("%s: seen without members since %v\nsearch %v\n read  %v", g, since, a, b)
			}
		}
	}
	t.Logf("seed %d: %d records searched in %d requests", seed, scan.Records, scan.Requests)
}

// offsetsTxnClient is a transactional producer to the fake __consumer_offsets.
func offsetsTxnClient(t testing.TB, k interface{ ListenAddrs() []string }, id string) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.ListenAddrs()...), kgo.DefaultProduceTopic("__consumer_offsets"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.TransactionalID(id), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// A group that committed last is found in the first window: one Fetch of about the
// window's bytes, whatever lies before; one that committed first costs a few Fetches of
// growing windows, not one per partition limit; a group whose need is none costs nothing.
func TestSearchCommitLogNewestFirst(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	log.commit("old", "t", 0, 5, at)
	var recs []*kgo.Record
	for i := range 40_000 { // about 2.4 MB of another group's commits
		recs = append(recs, log.commitRecord("busy", "topic-of-the-busy-group", int32(i%20), int64(i), at.Add(time.Second)))
		if len(recs) == 1000 {
			log.write(recs...)
			recs = recs[:0]
		}
	}
	log.commit("recent", "t", 0, 7, at.Add(time.Minute))
	c := newClient(t, k.ListenAddrs(), time.Now)
	opt := kafka.CommitLogOptions{FirstWindow: 64 << 10, MaxWindow: 1 << 20}
	tp := model.TP{Topic: "t"}
	rc := kafkatest.CountRequests(k, kmsg.Fetch, kmsg.ListOffsets)
	defer rc.Remove()
	got, scan := c.SearchCommitLog(context.Background(), map[string]model.CommitLogNeed{"recent": {Commits: []model.TP{tp}}}, opt)
	if l, ok := got["recent"].Last(tp); !ok || l.Offset != 7 || scan.Requests != 1 || scan.Bytes > 100<<10 || rc.Hits(kmsg.Fetch) != 1 {
		t.Errorf("recent: %+v in %d requests (%d Fetch), %d bytes; want offset 7 in one request of at most 100 KiB", got["recent"], scan.Requests, rc.Hits(kmsg.Fetch), scan.Bytes)
	}
	got, scan = c.SearchCommitLog(context.Background(), map[string]model.CommitLogNeed{"old": {Commits: []model.TP{tp}}}, opt)
	// 64 KiB, 256 KiB, 1 MiB, then 1 MiB windows cover the log's 2.4 MB in 5 windows.
	if l, ok := got["old"].Last(tp); !ok || l.Offset != 5 || !l.CommittedAt.Equal(at) || scan.Requests > 7 {
		t.Errorf("old: %+v in %d requests; want offset 5 committed at %v in at most 7", got["old"], scan.Requests, at)
	}
	t.Logf("old: %d records, %d bytes in %d requests", scan.Records, scan.Bytes, scan.Requests)
	fetches, lists := rc.Hits(kmsg.Fetch), rc.Hits(kmsg.ListOffsets)
	got, scan = c.SearchCommitLog(context.Background(), map[string]model.CommitLogNeed{"stable": {}}, opt)
	if l := got["stable"]; l.Status != model.CommitLogNotNeeded || scan.Requests != 0 || rc.Hits(kmsg.Fetch) != fetches || rc.Hits(kmsg.ListOffsets) != lists {
		t.Errorf("a group that needs nothing: %+v, %d requests; want not-needed and none", l, scan.Requests)
	}
}

// EndsAfter holds the search's ListOffsets: none is sent before it is closed, the search
// then reads as without it; when ctx ends first, nothing is asked and every group says
// partial with the reason.
func TestSearchCommitLogEndsAfter(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	log.commit("g", "t", 0, 7, time.Now().Add(-time.Minute).Truncate(time.Millisecond))
	c := newClient(t, k.ListenAddrs(), time.Now)
	tp := model.TP{Topic: "t"}
	need := map[string]model.CommitLogNeed{"g": {Commits: []model.TP{tp}}}
	rc := kafkatest.CountRequests(k, kmsg.ListOffsets)
	defer rc.Remove()

	ends := make(chan struct{})
	done := make(chan map[string]*model.CommitLog, 1)
	go func() {
		got, _ := c.SearchCommitLog(context.Background(), need, kafka.CommitLogOptions{EndsAfter: ends})
		done <- got
	}()
	time.Sleep(200 * time.Millisecond) // room for a ListOffsets that must not be sent
	if n := rc.Hits(kmsg.ListOffsets); n != 0 {
		t.Errorf("%d ListOffsets before EndsAfter was closed; want none", n)
	}
	close(ends)
	got := <-done
	if l, ok := got["g"].Last(tp); !ok || l.Offset != 7 || rc.Hits(kmsg.ListOffsets) == 0 {
		t.Errorf("after EndsAfter closed: %+v (%d ListOffsets); want its commit at 7", got["g"], rc.Hits(kmsg.ListOffsets))
	}

	lists := rc.Hits(kmsg.ListOffsets)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	got, _ = c.SearchCommitLog(ctx, need, kafka.CommitLogOptions{EndsAfter: make(chan struct{})})
	if l := got["g"]; l.Status != model.CommitLogPartial || l.Reason == "" || rc.Hits(kmsg.ListOffsets) != lists {
		t.Errorf("ctx ended while waiting: %+v (%d more ListOffsets); want partial with a reason and none asked", l, rc.Hits(kmsg.ListOffsets)-lists)
	}
}

// The byte budget stops a search: a group found before it ran out is read whole, one not
// found yet says partial with the reason.
func TestSearchCommitLogBudget(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	log.commit("old", "t", 0, 5, at)
	for range 20 {
		var recs []*kgo.Record
		for p := range 100 {
			recs = append(recs, log.commitRecord("busy", "t", int32(p), 1, at))
		}
		log.write(recs...)
	}
	log.commit("recent", "t", 0, 7, at)
	tp := []model.TP{{Topic: "t"}}
	got, _ := newClient(t, k.ListenAddrs(), time.Now).SearchCommitLog(context.Background(),
		map[string]model.CommitLogNeed{"old": {Commits: tp}, "recent": {Commits: tp}},
		kafka.CommitLogOptions{MaxBytes: 8 << 10, FirstWindow: 4 << 10, MaxWindow: 8 << 10})
	if l := got["recent"]; l.Status != model.CommitLogRead || len(l.Commits) != 1 || l.Commits[0].Offset != 7 {
		t.Errorf("recent: %+v, want read with its commit at 7", l)
	}
	if l := got["old"]; l.Status != model.CommitLogPartial || l.Reason == "" || len(l.Commits) != 0 {
		t.Errorf("old: %+v, want partial with a reason", l)
	}
}

// A transactional commit counts by its record's offset once its producer's next marker,
// read in a newer window, commits it; an aborted one and one never decided do not.
func TestSearchCommitLogTransactionAcrossWindows(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	at := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	log.commit("g", "t", 0, 1, at)
	log.commit("g", "t", 1, 1, at)
	log.commit("g", "t", 2, 1, at)
	txn := func(id string, p int32, offset int64) *kgo.Client {
		cl := offsetsTxnClient(t, k, id)
		if err := cl.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := cl.ProduceSync(context.Background(), log.commitRecord("g", "t", p, offset, at)).FirstErr(); err != nil {
			t.Fatal(err)
		}
		return cl
	}
	committed, aborted, undecided := txn("commits", 0, 50), txn("aborts", 1, 60), txn("open", 2, 70)
	defer undecided.Close()
	var recs []*kgo.Record
	for i := range 3000 { // the markers land windows after the records
		recs = append(recs, log.commitRecord("busy", "t", 9, int64(i), at))
	}
	log.write(recs...)
	for cl, commit := range map[*kgo.Client]bool{committed: true, aborted: false} {
		if err := cl.EndTransaction(context.Background(), kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
		cl.Close()
	}
	tps := []model.TP{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}, {Topic: "t", Partition: 2}}
	got, scan := newClient(t, k.ListenAddrs(), time.Now).SearchCommitLog(context.Background(),
		map[string]model.CommitLogNeed{"g": {Commits: tps}}, kafka.CommitLogOptions{FirstWindow: 2 << 10, MaxWindow: 8 << 10})
	var offs []int64
	for _, c := range got["g"].Commits {
		offs = append(offs, c.Offset)
	}
	if fmt.Sprint(offs) != "[50 1 1]" || scan.Requests < 3 {
		t.Errorf("commits %v in %d requests; want [50 1 1] (the committed transaction's, then the plain ones) across windows", offs, scan.Requests)
	}
}

// With MinRecentTimes (a snapshot's read), a group's recent commits come only when they hold
// that many distinct commit times: a group committed once on many partitions (a fleet just
// seeded) keeps none, one committed three times keeps them all.
func TestSearchCommitLogMinRecentTimes(t *testing.T) {
	k := kafkatest.Cluster(t)
	log := newFakeOffsetsTopic(t, k, 1)
	now := time.Now().Truncate(time.Millisecond)
	var recs []*kgo.Record
	for p := range int32(20) {
		recs = append(recs, log.commitRecord("once", "t", p, 1, now.Add(-time.Minute)))
	}
	for i := range 3 {
		recs = append(recs, log.commitRecord("thrice", "t", 0, int64(i), now.Add(time.Duration(i-3)*time.Second)))
	}
	log.write(recs...)
	c := newClient(t, k.ListenAddrs(), func() time.Time { return now })
	needs := map[string]model.CommitLogNeed{"once": {History: true}, "thrice": {History: true}}
	for _, c2 := range []struct {
		min         int
		once, twice int
	}{{0, 20, 3}, {3, 0, 3}, {4, 0, 0}} {
		got, _ := c.SearchCommitLog(context.Background(), needs, kafka.CommitLogOptions{MinRecentTimes: c2.min})
		if len(got["once"].Recent) != c2.once || len(got["thrice"].Recent) != c2.twice {
			t.Errorf("MinRecentTimes %d: %d and %d recent commits, want %d and %d", c2.min, len(got["once"].Recent), len(got["thrice"].Recent), c2.once, c2.twice)
		}
	}
}
