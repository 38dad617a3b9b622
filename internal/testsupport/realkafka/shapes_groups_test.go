package realkafka_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A Stable classic group whose member subscribes to one topic and still holds an old commit
// on another, below that topic's log start.
func TestRealKafkaShapeStaleTopic(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		sh := b.StaleTopic(t)
		d := describeGroup(t, s, sh.Group)
		if d.State != "Stable" || len(d.Members) != 1 {
			t.Fatalf("group %s: state %q with %d members, want Stable with 1", sh.Group, d.State, len(d.Members))
		}
		// The member's subscription (its JoinGroup metadata) names only the active topic.
		for _, m := range d.Members {
			meta, ok := m.Join.AsConsumer()
			if !ok {
				t.Fatalf("member %s has no consumer-protocol metadata", m.MemberID)
			}
			if strings.Join(meta.Topics, ",") != sh.Active {
				t.Errorf("member %s subscribes to %v, want only %s", m.MemberID, meta.Topics, sh.Active)
			}
			assigned, _ := m.Assigned.AsConsumer()
			if len(assigned.Topics) != 1 || assigned.Topics[0].Topic != sh.Active {
				t.Errorf("member %s is assigned %+v, want %s only", m.MemberID, assigned.Topics, sh.Active)
			}
		}
		got := committed(t, s, sh.Group)
		stale := model.TP{Topic: sh.Stale, Partition: 0}
		if got[stale] != sh.StaleCommitted {
			t.Errorf("committed on %s: %d, want %d (all: %v)", stale, got[stale], sh.StaleCommitted, got)
		}
		if _, ok := got[model.TP{Topic: sh.Active, Partition: 0}]; !ok {
			t.Errorf("no commit on the active topic %s: %v", sh.Active, got)
		}
		if o := offsets(t, s, sh.Stale, 0); o.Start != sh.StaleLogStart || o.High != sh.StaleHigh {
			t.Errorf("%s: %s, want start %d and high %d", sh.Stale, o, sh.StaleLogStart, sh.StaleHigh)
		}
		// Kafka's tool lists the stale partition too, as a row of the Stable group with no
		// consumer, and counts its lag from the committed offset (100-20) although the
		// records below 80 are gone.
		out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--describe", "--group", sh.Group)
		var row map[string]string
		for _, r := range realkafka.TableRows(out, "TOPIC", "CURRENT-OFFSET", "LAG", "CONSUMER-ID") {
			if r["TOPIC"] == sh.Stale {
				row = r
			}
		}
		if row == nil || row["CURRENT-OFFSET"] != "20" || row["LAG"] != "80" || row["CONSUMER-ID"] != "-" {
			t.Errorf("kafka-consumer-groups --describe, the row of %s: %v, want CURRENT-OFFSET 20, LAG 80, no consumer:\n%s", sh.Stale, row, out)
		}
	})
}

// Transactions: read_committed consumers of both commit styles after 10 transactions.
func TestRealKafkaShapeTransactions(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		sh := b.Transactions(t)
		o := sh.Offsets
		if o.High != sh.High || o.LastStable != sh.High || o.Start != 0 {
			t.Errorf("%s: %s, want start 0, high and last stable %d", sh.Topic, o, sh.High)
		}
		got := map[string]int64{}
		for _, g := range []string{sh.PositionGroup, sh.LastPlusOneGroup} {
			got[g] = committed(t, s, g)[model.TP{Topic: sh.Topic, Partition: 0}]
		}
		t.Logf("%s: high %d, last stable %d; committed position() %d, last record + 1 %d",
			b.Name(), o.High, o.LastStable, got[sh.PositionGroup], got[sh.LastPlusOneGroup])
		if got[sh.PositionGroup] != sh.High {
			t.Errorf("the position() group committed %d, want %d (past the last marker)", got[sh.PositionGroup], sh.High)
		}
		if got[sh.LastPlusOneGroup] != sh.LastData+1 {
			t.Errorf("the last-plus-one group committed %d, want %d (the last marker's offset)", got[sh.LastPlusOneGroup], sh.LastData+1)
		}
		// Only the marker lies between the last-plus-one commit and high: a read_committed
		// fetch from there returns no data record, only the control batch, and the
		// partition's last stable offset is high.
		fetch := fetchOnce(t, s, sh.Topic, sh.LastData+1, 1)
		if fetch.records != 0 || fetch.controlBatches != 1 || fetch.lastStable != sh.High || fetch.high != sh.High {
			t.Errorf("read_committed fetch from %d: %+v, want 0 data records, 1 control batch, last stable and high %d", sh.LastData+1, fetch, sh.High)
		}
		// Kafka's tool shows LAG 1 for the last-plus-one group, 0 for the position() group.
		for g, lag := range map[string]string{sh.PositionGroup: "0", sh.LastPlusOneGroup: "1"} {
			out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--describe", "--group", g)
			rows := realkafka.TableRows(out, "CURRENT-OFFSET", "LAG")
			if len(rows) != 1 || rows[0]["LAG"] != lag || rows[0]["LOG-END-OFFSET"] != strconv.FormatInt(sh.High, 10) {
				t.Errorf("kafka-consumer-groups --describe --group %s: want LAG %s, LOG-END-OFFSET %d:\n%s", g, lag, sh.High, out)
			}
		}
	})
}

// Transactions with an aborted one: between the last-plus-one commit and high lie a commit
// marker, aborted data and an abort marker; a read_committed fetch returns the aborted data
// (a data batch) and names it in AbortedTransactions, so "no data" must leave it out.
func TestRealKafkaShapeTransactionsAborted(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		sh := b.TransactionsAborted(t)
		o := sh.Offsets
		if o.High != sh.High || o.LastStable != sh.High {
			t.Errorf("%s: %s, want high and last stable %d", sh.Topic, o, sh.High)
		}
		tp := model.TP{Topic: sh.Topic, Partition: 0}
		pos, last := committed(t, s, sh.PositionGroup)[tp], committed(t, s, sh.LastPlusOneGroup)[tp]
		t.Logf("%s: high %d; committed position() %d, last record + 1 %d", b.Name(), o.High, pos, last)
		if pos != sh.High || last != 5 {
			t.Errorf("committed position() %d and last record + 1 %d, want %d and 5", pos, last, sh.High)
		}
		f := fetchOnce(t, s, sh.Topic, 5, 1)
		if f.records != 5 || f.controlBatches != 2 || len(f.aborted) != 1 || f.aborted[0] != 6 || f.lastStable != sh.High {
			t.Errorf("read_committed fetch from 5: %+v, want 5 data records (the aborted ones, listed as aborted from 6), 2 control batches, last stable %d", f, sh.High)
		}
	})
}

type fetched struct {
	records, controlBatches int
	high, lastStable        int64
	aborted                 []int64 // first offsets of the aborted transactions listed
}

// fetchOnce sends one Fetch (v4+: isolation level and last stable offset) for one partition
// from offset, with isolation 1 (read_committed) or 0, and counts what comes back: data
// records and control batches (bit 5 of a batch's attributes).
func fetchOnce(t testing.TB, s *realkafka.Seed, topic string, offset int64, isolation int8) fetched {
	t.Helper()
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID, req.MaxWaitMillis, req.MinBytes, req.MaxBytes, req.IsolationLevel = -1, 500, 1, 1<<20, isolation
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.Partition, rp.FetchOffset, rp.PartitionMaxBytes, rp.CurrentLeaderEpoch, rp.LogStartOffset = 0, offset, 1<<20, -1, -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	// Fetch v13+ names topics by ID: ask the metadata for it.
	md, err := s.Adm.Metadata(realkafka.Ctx(t, 10*time.Second), topic)
	if err != nil {
		t.Fatal(err)
	}
	req.Topics[0].TopicID = md.Topics[topic].ID
	resp, err := req.RequestWith(realkafka.Ctx(t, 10*time.Second), s.Client)
	if err != nil {
		t.Fatalf("fetch %s-0 from %d: %v", topic, offset, err)
	}
	var f fetched
	for _, rtp := range resp.Topics {
		for _, p := range rtp.Partitions {
			if p.ErrorCode != 0 {
				t.Fatalf("fetch %s-0 from %d: error code %d", topic, offset, p.ErrorCode)
			}
			f.high, f.lastStable = p.HighWatermark, p.LastStableOffset
			for _, a := range p.AbortedTransactions {
				f.aborted = append(f.aborted, a.FirstOffset)
			}
			raw := p.RecordBatches
			for len(raw) > 0 {
				var batch kmsg.RecordBatch
				if err := batch.ReadFrom(raw); err != nil {
					break // a partial batch at the end of the answer
				}
				raw = raw[12+int(batch.Length):]
				if batch.Attributes&0x20 != 0 {
					f.controlBatches++
				} else {
					f.records += int(batch.NumRecords)
				}
			}
		}
	}
	return f
}
