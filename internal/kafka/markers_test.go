package kafka_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// transact writes one transaction of n records to topic's partition 0 and commits or aborts
// it; open leaves it open.
func transact(t *testing.T, cl *kgo.Client, topic string, n int, end kgo.TransactionEndTry, open bool) {
	t.Helper()
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	var recs []*kgo.Record
	for i := range n {
		recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Value: fmt.Appendf(nil, "v%d", i)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if open {
		return
	}
	if err := cl.EndTransaction(ctx, end); err != nil {
		t.Fatal(err)
	}
}

func txnClient(t *testing.T, addrs []string, id string) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.TransactionalID(id), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// Commits before transaction markers alone are caught up (lag 0, the markers counted, Kafka's
// CLI number kept); a commit with data after it, an open transaction or a plain topic keep
// Kafka's lag. The candidates go in one read_committed Fetch per broker, plus a round for a
// partition with a second candidate offset.
func TestTransactionMarkersCaughtUp(t *testing.T) {
	k := kafkatest.Cluster(t, kfake.NumBrokers(1))
	addrs := k.ListenAddrs()
	for _, name := range []string{"tx", "txa", "txb", "open", "plain"} {
		if err := k.CreateTopic(name, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	s := kafkatest.NewSeed(t, addrs)
	txn := txnClient(t, addrs, "shapes")
	for range 10 { // data 0–4, marker 5, …, data 54–58, marker 59: high 60
		transact(t, txn, "tx", 5, kgo.TryCommit, false)
	}
	transact(t, txn, "txa", 5, kgo.TryCommit, false) // data 0–4, marker 5
	transact(t, txn, "txa", 5, kgo.TryAbort, false)  // aborted 6–10, marker 11: high 12
	for _, end := range []kgo.TransactionEndTry{kgo.TryCommit, kgo.TryAbort, kgo.TryCommit} {
		transact(t, txn, "txb", 5, end, false) // the same, then data 12–16 and a marker: high 18
	}
	transact(t, txn, "open", 3, kgo.TryCommit, false)
	transact(t, txnClient(t, addrs, "open"), "open", 2, kgo.TryCommit, true) // data 4–5 open: last stable 4, high 6
	s.ProduceN("plain", 0, 5, func(int) time.Time { return time.Now() })

	tp := func(topic string) model.TP { return model.TP{Topic: topic, Partition: 0} }
	commits := map[string]map[model.TP]int64{
		"position": {tp("tx"): 60}, "last-plus-one": {tp("tx"): 59}, "mid": {tp("tx"): 30},
		"aborted": {tp("txa"): 5}, "in-aborted": {tp("txa"): 8}, "before-abort": {tp("txa"): 4},
		"after-abort": {tp("txb"): 5}, "open": {tp("open"): 3}, "plain": {tp("plain"): 4},
	}
	for g, offs := range commits {
		s.Commit(g, offs)
	}
	counter := kafkatest.CountRequests(k, kmsg.Fetch)
	defer counter.Remove()
	c := newClient(t, addrs, time.Now)
	snap, err := c.Snapshot(context.Background(), model.Query{}) // no fetch budget: every Fetch is the markers'
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // lag, markers
		"position":      "0 <nil>",
		"last-plus-one": "0 {1 0 1}",
		"mid":           "30 <nil>",
		"aborted":       "0 {2 5 7}",
		"in-aborted":    "0 {1 3 4}",
		"before-abort":  "8 <nil>",
		"after-abort":   "13 <nil>", // the producer's next transaction is data again
		"open":          "3 <nil>",
		"plain":         "1 <nil>",
	}
	for g, w := range want {
		grp := findGroup(t, snap, g)
		p := grp.Partitions[0]
		got := fmt.Sprintf("%d %v", val(p.Lag), p.TransactionMarkers())
		if p.TransactionMarkers() != nil {
			got = fmt.Sprintf("%d %v", val(p.Lag), *p.TransactionMarkers())
		}
		if got != w || p.Status != model.StatusOK || val(grp.TotalLag) != val(p.Lag) {
			t.Errorf("%s: lag, markers %s, status %s, total %v; want %s, ok", g, got, p.Status, val(grp.TotalLag), w)
		}
	}
	// Round 1 asks tx from 59, txa from 8, txb from 5, plain from 4; round 2 tx from 30 and txa from 5;
	// round 3 txa from 4 (the open partition is no candidate).
	if n := counter.Hits(kmsg.Fetch); n != 3 {
		t.Errorf("%d Fetch requests, want 3 (one per round, every candidate partition in each)", n)
	}
	for g, p := range map[string]*model.GroupPartition{"last-plus-one": &findGroup(t, snap, "last-plus-one").Partitions[0], "mid": &findGroup(t, snap, "mid").Partitions[0]} {
		if p.MarkersUnknown() != nil {
			t.Errorf("%s: markers unknown %q, want told", g, *p.MarkersUnknown())
		}
	}

	// The next snapshot asks only about the commits not found with records after them:
	// tx from 59 and txa from 8, then txa from 5.
	before := counter.Hits(kmsg.Fetch)
	if _, err := c.Snapshot(context.Background(), model.Query{}); err != nil {
		t.Fatal(err)
	}
	if n := counter.Hits(kmsg.Fetch) - before; n != 2 {
		t.Errorf("second snapshot: %d Fetch requests, want 2 (commits with records after them are not asked again)", n)
	}

	// A partition error on the Fetch: the partition keeps Kafka's lag, with the reason; the
	// others in the same request are told.
	k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "tx", Err: kerr.NotLeaderForPartition})
	s.Commit("lower", map[model.TP]int64{tp("tx"): 5}) // before the marker at 5: only markers and data after it
	snap, err = c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	p := findGroup(t, snap, "last-plus-one").Partitions[0]
	if val(p.Lag) != int64(1) || p.TransactionMarkers() != nil || p.MarkersUnknown() == nil || !strings.Contains(*p.MarkersUnknown(), "NOT_LEADER") {
		t.Errorf("fetch error: lag %d markers %v unknown %q; want Kafka's lag 1 and the reason", val(p.Lag), p.TransactionMarkers(), val(p.MarkersUnknown()))
	}
	if low := findGroup(t, snap, "lower").Partitions[0]; low.MarkersUnknown() == nil || *low.MarkersUnknown() != *p.MarkersUnknown() {
		t.Errorf("fetch error: the lower commit on the partition: unknown %v, want the same reason", low.MarkersUnknown())
	}
	if mid := findGroup(t, snap, "mid").Partitions[0]; val(mid.Lag) != int64(30) || mid.MarkersUnknown() != nil {
		t.Errorf("mid, known to have records after it: lag %v unknown %v, want 30 and not asked", val(mid.Lag), mid.MarkersUnknown())
	}
	if a := findGroup(t, snap, "aborted").Partitions[0]; val(a.Lag) != int64(0) || a.MarkersUnknown() != nil {
		t.Errorf("fetch error on tx: txa lag %d unknown %v, want 0 and told", val(a.Lag), a.MarkersUnknown())
	}
}
