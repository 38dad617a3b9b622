package realkafka

// Log shapes built with Kafka's own Java clients: transactions, a compacted topic whose
// tombstones the cleaner removed, a tiered topic whose uploaded segments left the local disk.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TransactionsShape is one partition written by 10 committed transactions of 5 records each
// (data at 0-4, marker 5, data 6-10, marker 11, ..., last data 58, last marker 59: high 60)
// and two read_committed groups that read every record and committed in each style.
type TransactionsShape struct {
	Topic, TransactionalID string
	Transactions           []Event // one per committed transaction: its first and last data offset
	LastData, High         int64   // 58 and 60 by construction
	Markers                int     // 10: one commit marker per transaction
	PositionGroup          string  // committed position() after reading everything
	PositionCommit         Event
	LastPlusOneGroup       string // committed the last record's offset + 1
	LastPlusOneCommit      Event
	Offsets                PartitionOffsets // read after both groups committed
}

// Transactions builds a TransactionsShape: a transactional producer (Kafka's, with
// initTransactions/commitTransaction) then two classic read_committed consumers, one per
// commit style; both leave the group after committing.
func (b Broker) Transactions(t testing.TB) TransactionsShape {
	t.Helper()
	s := b.Seed(t)
	const n, per = 10, 5
	sh := TransactionsShape{Topic: Name("txn"), TransactionalID: Name("txn-id"), LastData: n*(per+1) - 2,
		High: n * (per + 1), Markers: n, PositionGroup: Name("txn-position"), LastPlusOneGroup: Name("txn-lastplus1")}
	s.CreateTopic(sh.Topic, 1, nil)
	sh.Transactions = b.RunShape(t, "transactions", "--topic", sh.Topic, "--transactional-id", sh.TransactionalID,
		"--transactions", strconv.Itoa(n), "--records", strconv.Itoa(per))
	if len(sh.Transactions) != n || sh.Transactions[n-1].Last != sh.LastData {
		t.Fatalf("the transactional producer reported %+v, want %d transactions ending at %d", sh.Transactions, n, sh.LastData)
	}
	sh.PositionCommit, _ = b.Consume(t, ConsumeSpec{Group: sh.PositionGroup, Topic: sh.Topic, ReadCommitted: true, Style: "position"})
	sh.LastPlusOneCommit, _ = b.Consume(t, ConsumeSpec{Group: sh.LastPlusOneGroup, Topic: sh.Topic, ReadCommitted: true, Style: "last-plus-one"})
	var err error
	if sh.Offsets, err = s.Offsets(sh.Topic, 0); err != nil {
		t.Fatalf("list offsets of %s: %v", sh.Topic, err)
	}
	return sh
}

// AbortedShape is one partition with a committed transaction then an aborted one: data 0-4,
// commit marker 5, aborted data 6-10, abort marker 11, high 12; and two read_committed groups
// that read everything (records 0-4) and committed in each style.
type AbortedShape struct {
	Topic, TransactionalID string
	Transactions           []Event
	High                   int64 // 12
	PositionGroup          string
	PositionCommit         Event // position() after reading everything: 12
	LastPlusOneGroup       string
	LastPlusOneCommit      Event // the last record returned + 1: 5
	Offsets                PartitionOffsets
}

// TransactionsAborted builds an AbortedShape with Kafka's transactional producer
// (abortTransaction for the second) and two classic read_committed consumers.
func (b Broker) TransactionsAborted(t testing.TB) AbortedShape {
	t.Helper()
	s := b.Seed(t)
	sh := AbortedShape{Topic: Name("txn-abort"), TransactionalID: Name("txn-abort-id"), High: 12,
		PositionGroup: Name("txn-abort-position"), LastPlusOneGroup: Name("txn-abort-lastplus1")}
	s.CreateTopic(sh.Topic, 1, nil)
	sh.Transactions = b.RunShape(t, "transactions", "--topic", sh.Topic, "--transactional-id", sh.TransactionalID,
		"--transactions", "2", "--records", "5", "--abort-last")
	if len(sh.Transactions) != 2 || sh.Transactions[1].Style != "aborted" || sh.Transactions[1].Last != 10 {
		t.Fatalf("the transactional producer reported %+v, want a committed transaction then an aborted one ending at 10", sh.Transactions)
	}
	sh.PositionCommit, _ = b.Consume(t, ConsumeSpec{Group: sh.PositionGroup, Topic: sh.Topic, ReadCommitted: true, Style: "position"})
	sh.LastPlusOneCommit, _ = b.Consume(t, ConsumeSpec{Group: sh.LastPlusOneGroup, Topic: sh.Topic, ReadCommitted: true, Style: "last-plus-one"})
	var err error
	if sh.Offsets, err = s.Offsets(sh.Topic, 0); err != nil {
		t.Fatalf("list offsets of %s: %v", sh.Topic, err)
	}
	return sh
}

// CompactedShape is a compacted topic (one partition) whose tombstones the cleaner removed
// after a group had read the keys they delete:
//
//	offsets  0-9   k0..k9 = value      (read by Reader)
//	offsets 10-19  x0..x9 = value      (read by Reader, which then committed 20)
//	offsets 20-29  k0..k9 = tombstone  (removed by the cleaner: Reader never sees them)
//	offsets 30-    y-keys = value      (filler that rolls segments and keeps the log dirty)
//
// Fresh committed the first offset (0) and has read nothing: it bootstraps from the compacted
// state and misses nothing. Both groups are Stable: their members stay until the test ends
// (and do not commit again).
type CompactedShape struct {
	Topic                string
	Reader               string
	ReaderCommitted      int64    // 20
	KeysRead             []string // k0..k9: the keys whose deletes Reader will never see
	Fresh                string
	FreshCommitted       int64 // 0
	TombstoneFirst       int64 // 20
	TombstoneLast        int64 // 29
	DeleteRetention      time.Duration
	Offsets              PartitionOffsets // after the cleaner removed the tombstones
	FirstStoredAtReader  int64            // the first offset still stored at or after ReaderCommitted (> 29)
	StoredAfterReader    int              // records still stored from ReaderCommitted to High
	TombstonesRemovedAt  time.Time        // when the test first saw them gone
	TombstonesWrittenAt  time.Time
	ReaderCommittedEvent Event
}

// Compacted builds a CompactedShape on the timers broker (log.cleaner.backoff.ms=500): the
// topic has cleanup.policy=compact, delete.retention.ms=1000, min.cleanable.dirty.ratio=0.01,
// min.compaction.lag.ms=0 and segment.ms=500, and a filler producer keeps rolling segments
// until the cleaner has removed the tombstones (two cleaner passes: the first sets their
// delete horizon, a later one past it drops them).
func (b Broker) Compacted(t testing.TB) CompactedShape {
	t.Helper()
	s := b.Seed(t)
	sh := CompactedShape{Topic: Name("compact"), Reader: Name("compact-reader"), Fresh: Name("compact-fresh"),
		ReaderCommitted: 20, FreshCommitted: 0, TombstoneFirst: 20, TombstoneLast: 29, DeleteRetention: time.Second}
	s.CreateTopic(sh.Topic, 1, map[string]*string{
		"cleanup.policy":            ptr("compact"),
		"delete.retention.ms":       ptr(ms(sh.DeleteRetention)),
		"min.cleanable.dirty.ratio": ptr("0.01"),
		"min.compaction.lag.ms":     ptr("0"),
		"segment.ms":                ptr("500"),
	})
	var keys, xs, tombs []string
	for i := 0; i < 10; i++ {
		keys = append(keys, fmt.Sprintf("k%d=v%d", i, i))
		xs = append(xs, fmt.Sprintf("x%d=v%d", i, i))
		tombs = append(tombs, fmt.Sprintf("k%d", i))
		sh.KeysRead = append(sh.KeysRead, fmt.Sprintf("k%d", i))
	}
	b.Produce(t, sh.Topic, 0, strings.Join(append(keys, xs...), ","), 0)
	// Both groups stay Stable (their members stay) so that their commits outlive the timers
	// broker's one-minute retention.
	sh.ReaderCommittedEvent = b.Member(t, ConsumeSpec{Group: sh.Reader, Topic: sh.Topic, Max: 20, Style: "last-plus-one"})
	if got := sh.ReaderCommittedEvent.Offsets[sh.Topic+"/0"]; got != sh.ReaderCommitted {
		t.Fatalf("the reader committed %d, want %d", got, sh.ReaderCommitted)
	}
	if got := b.Member(t, ConsumeSpec{Group: sh.Fresh, Topic: sh.Topic, ReadNothing: true}).Offsets[sh.Topic+"/0"]; got != sh.FreshCommitted {
		t.Fatalf("the fresh group committed %d, want %d", got, sh.FreshCommitted)
	}
	ev := b.Produce(t, sh.Topic, 0, strings.Join(tombs, ","), 0)
	if ev.First != sh.TombstoneFirst || ev.Last != sh.TombstoneLast {
		t.Fatalf("the tombstones are at %d-%d, want %d-%d", ev.First, ev.Last, sh.TombstoneFirst, sh.TombstoneLast)
	}
	sh.TombstonesWrittenAt = ev.At()
	filler := b.StartShape(t, "produce", "--topic", sh.Topic, "--partition", "0", "--spec", "y0=v,y1=v",
		"--batches", "400", "--pause-ms", "600")
	WaitUntil(t, 3*time.Minute, "the cleaner removes the tombstones at 20-29", func() (bool, string) {
		first, err := FirstStoredFrom(s.Client, sh.Topic, 0, sh.TombstoneFirst)
		if err != nil {
			return false, err.Error()
		}
		return first > sh.TombstoneLast, fmt.Sprintf("the first record stored at or after %d is at %d", sh.TombstoneFirst, first)
	})
	sh.TombstonesRemovedAt = time.Now()
	filler.Stop()
	var err error
	if sh.Offsets, err = s.Offsets(sh.Topic, 0); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFrom(s.Client, sh.Topic, 0, sh.ReaderCommitted, sh.Offsets.High)
	if err != nil {
		t.Fatal(err)
	}
	sh.StoredAfterReader = len(recs)
	if len(recs) > 0 {
		sh.FirstStoredAtReader = recs[0].Offset
	}
	return sh
}

// FirstStoredFrom returns the offset of the first record still stored at or after from
// (a direct fetch, no group), or the high watermark when there is none up to it.
func FirstStoredFrom(cl *kgo.Client, topic string, partition int32, from int64) (int64, error) {
	high, err := ListOffset(context.Background(), cl, topic, partition, TimestampLatest, false)
	if err != nil {
		return -1, err
	}
	recs, err := readFrom(cl, topic, partition, from, high, 1)
	if err != nil || len(recs) == 0 {
		return high, err
	}
	return recs[0].Offset, nil
}

// ReadFrom returns every record stored from offset from up to (not including) until, read
// with a direct read_uncommitted fetch (no group). until is at most the high watermark: the
// read goes on until it gets there, for up to 60 s.
func ReadFrom(cl *kgo.Client, topic string, partition int32, from, until int64) ([]*kgo.Record, error) {
	return readFrom(cl, topic, partition, from, until, 0)
}

// readFrom reads the data records at and after from until its position reaches until
// (markers count), or until it has limit of them (0: no limit), within 60 s: a slow first
// fetch or a stall under load is waited out, never taken for the end of the log.
func readFrom(cl *kgo.Client, topic string, partition int32, from, until int64, limit int) ([]*kgo.Record, error) {
	c, err := kgo.NewClient(kgo.SeedBrokers(cl.OptValue(kgo.SeedBrokers).([]string)...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {partition: kgo.NewOffset().At(from)}}),
		kgo.FetchMaxWait(200*time.Millisecond),
		kgo.KeepControlRecords()) // transaction markers move the position too
	if err != nil {
		return nil, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out []*kgo.Record
	for next := from; next < until && (limit == 0 || len(out) < limit); {
		fs := c.PollFetches(ctx)
		if ctx.Err() != nil {
			return out, fmt.Errorf("reading %s-%d from %d: at %d of %d: %w", topic, partition, from, next, until, ctx.Err())
		}
		if err := fs.Err(); err != nil {
			return out, err
		}
		fs.EachRecord(func(r *kgo.Record) {
			next = max(next, r.Offset+1)
			if r.Offset < until && !r.Attrs.IsControl() && (limit == 0 || len(out) < limit) {
				out = append(out, r)
			}
		})
	}
	return out, nil
}

func ptr(s string) *string { return &s }

// TieredShape is a tiered topic (remote.storage.enable=true, one partition) whose closed
// segments were copied to remote storage and deleted from the broker's disk, and a group
// whose commit lies between the log start (remote included) and the local log start.
type TieredShape struct {
	Topic               string
	Group               string
	Committed           int64            // 15
	Offsets             PartitionOffsets // Start 0 < Committed 15 < LocalStart 50 < High 60
	LocalRetentionBytes int64            // local.retention.bytes: 1 (every closed segment, once copied)
	Batches             []Event          // the produce batches (10 records each, one segment each)
}

// Tiered builds a TieredShape on the timers broker: 6 batches of 10 records, 1.2 s apart on a
// topic with segment.ms=1000 (each batch after the first rolls a segment: 0-9, 10-19, ...,
// 50-59 the active one), a classic member that reads 15 records, commits 15 and stays in the
// group (Stable, not committing again) until the test ends, then a wait
// (about 5-15 s) until the broker's remote log manager has copied the closed segments and
// local retention (local.retention.bytes=1) has deleted them locally: the local log start is
// 50, the active segment's base. (A local.retention.ms breach would also roll and delete the
// active segment once it is copied: local start = high.)
func (b Broker) Tiered(t testing.TB) TieredShape {
	t.Helper()
	s := b.Seed(t)
	sh := TieredShape{Topic: Name("tiered"), Group: Name("tiered-grp"), Committed: 15, LocalRetentionBytes: 1}
	s.CreateTopic(sh.Topic, 1, map[string]*string{
		"remote.storage.enable": ptr("true"),
		"local.retention.bytes": ptr(strconv.FormatInt(sh.LocalRetentionBytes, 10)),
		"segment.ms":            ptr("1000"),
	})
	sh.Batches = b.RunShape(t, "produce", "--topic", sh.Topic, "--partition", "0", "--count", "10",
		"--batches", "6", "--pause-ms", "1200")
	// The member stays (Stable) so that its commit outlives the timers broker's retention.
	commit := b.Member(t, ConsumeSpec{Group: sh.Group, Topic: sh.Topic, Max: int(sh.Committed), Style: "last-plus-one"})
	if got := commit.Offsets[sh.Topic+"/0"]; got != sh.Committed {
		t.Fatalf("the group committed %d, want %d", got, sh.Committed)
	}
	WaitUntil(t, 2*time.Minute, "segments of "+sh.Topic+" copied to remote storage and deleted locally past the commit", func() (bool, string) {
		o, err := s.Offsets(sh.Topic, 0)
		if err != nil {
			return false, err.Error()
		}
		sh.Offsets = o
		return o.Start == 0 && o.LocalStart == 50, o.String()
	})
	return sh
}

// Record is a record read directly from a partition (franz-go's).
type Record = kgo.Record
