package logread

// Transaction markers: a read_committed consumer that commits "last record + 1" after the
// last transaction sits before its commit marker for ever, since no consumer receives a
// control record. Where a committed offset is below the high watermark with no open
// transaction (last stable = high), one read_committed Fetch from it tells whether any record
// such a consumer receives lies before high (docs/kafka.md#transactions).

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// Transaction markers: a read_committed consumer that commits "last record + 1" after the
// last transaction sits before its commit marker for ever, since no consumer receives a
// control record. Where a committed offset is below the high watermark with no open
// transaction (last stable = high), one read_committed Fetch from it tells whether any record
// such a consumer receives lies before high (docs/kafka.md#transactions).

const (
	// markerPartitionBytes is the Fetch limit per candidate: a commit marker's batch takes
	// about 80 bytes, so this holds some 50 markers or small aborted batches. Where what lies
	// before high does not fit, the lag stays as Kafka counts it.
	markerPartitionBytes = 4 << 10
	// markerFirstBytes is the limit of a candidate's first read: some 6 markers, or the
	// start of the data batch nearly every candidate turns out to have (a cut batch is
	// data enough). Only a read that ends before high is made again with
	// markerPartitionBytes, so a fleet with lag everywhere fetches an eighth of the bytes.
	markerFirstBytes = 512
	// markerCandidates bounds the offsets looked at per snapshot (smallest gaps first),
	// so a fleet with lag everywhere costs at most about 4 MiB of fetches.
	markerCandidates = 1024
	// markerRounds bounds the rounds of a partition with several candidate offsets, besides
	// the one that reads a short tail again with markerPartitionBytes.
	markerRounds = 4
)

// ReadMarkers sets obs.Markers and obs.MarkersUnknown, and returns the commits of want
// (whose records' timestamps are wanted) less those before markers alone: caught up, they
// have no record to time. phase logs its time.
func (c *Reader) ReadMarkers(ctx context.Context, obs *model.Observation, lay wire.TopicLayout, held HeldPositions, want []model.TPO, phase func(string, ...any)) []model.TPO {
	candidates, skipped := markerCandidateOffsets(held, c.hasData)
	look := c.transactionMarkers(ctx, lay, obs.Offsets, candidates)
	obs.Markers, obs.MarkersUnknown = look.found, look.unknown
	phase("transaction markers (%d candidates, %d looked at, %d of them read again with %s: %d caught up, %d not told)",
		len(candidates)+len(skipped), len(candidates), look.further, sizeText(markerPartitionBytes), len(obs.Markers), len(obs.MarkersUnknown))
	return slices.DeleteFunc(want, func(w model.TPO) bool { _, ok := obs.Markers[w]; return ok })
}

// markerCandidateOffsets lists the held committed offsets worth the fetch: those with
// last stable = high (no open transaction), not known to have records after them
// (hasData), the smallest gaps first (a consumer one marker behind is the common case),
// then by partition and offset: at most markerCandidates, and the ones past that bound
// apart (they keep Kafka's lag).
func markerCandidateOffsets(held HeldPositions, hasData func(model.TPO) bool) (want, skipped []model.TPO) {
	type candidate struct {
		gap int64 // high − committed
		i   int   // the position in partition and offset order
	}
	var (
		all   []candidate
		order []model.TPO
	)
	for _, topic := range held.topics {
		to := held.offsets.Topic(topic)
		for p, s := range held.at[topic] {
			po := to.Get(int32(p))
			if len(s.committed) == 0 || po.LastStable == nil || *po.LastStable != *po.High {
				continue
			}
			for _, c := range s.committed {
				if w := (model.TPO{TP: model.TP{Topic: topic, Partition: int32(p)}, Offset: c}); !hasData(w) {
					all = append(all, candidate{*po.High - c, len(order)})
					order = append(order, w)
				}
			}
		}
	}
	slices.SortFunc(all, func(a, b candidate) int {
		if c := cmp.Compare(a.gap, b.gap); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]model.TPO, len(all))
	for i, c := range all {
		out[i] = order[c.i]
	}
	n := min(len(out), markerCandidates)
	return out[:n], out[n:]
}

// markerLook is what the fetches found: the candidates before markers alone, and why the
// others that may be are not known (each keeps Kafka's lag).
type markerLook struct {
	found   map[model.TPO]model.TransactionMarkers
	unknown map[model.TPO]string
	data    []model.TPO // records a read_committed consumer receives lie after these
	further int         // reads made again with markerPartitionBytes
}

func newMarkerLook() markerLook {
	return markerLook{found: map[model.TPO]model.TransactionMarkers{}, unknown: map[model.TPO]string{}}
}

func (l *markerLook) add(o markerLook) {
	maps.Copy(l.found, o.found)
	maps.Copy(l.unknown, o.unknown)
	l.data = append(l.data, o.data...)
	l.further += o.further
}

// hasData reports whether a read_committed consumer at w was found to have records to read.
// That stays true: the records stay below every later high, until retention deletes them
// and the commit is below the log start, no candidate any more. (Were the cleaner of a
// compacted topic to remove them all, the lag would stay Kafka's: the cautious side.)
func (c *Reader) hasData(w model.TPO) bool {
	c.tsMu.Lock()
	defer c.tsMu.Unlock()
	_, ok := c.dataSeen[w]
	return ok
}

// rememberData keeps the commits found with records after them, within maxCachedTimestamps,
// so a refresh asks again only about commits that moved.
func (c *Reader) rememberData(data []model.TPO) {
	c.tsMu.Lock()
	defer c.tsMu.Unlock()
	if c.dataSeen == nil || len(c.dataSeen)+len(data) > maxCachedTimestamps {
		c.dataSeen = make(map[model.TPO]struct{}, len(data))
	}
	for _, w := range data {
		c.dataSeen[w] = struct{}{}
	}
}

// transactionMarkers fetches, per leader, one read_committed Fetch with every candidate
// partition, and returns the candidates from which only transaction markers and aborted
// records lie up to high. A partition with several candidates is asked from its highest
// first: data found there is data for every lower one too.
func (c *Reader) transactionMarkers(ctx context.Context, lay wire.TopicLayout, offsets map[model.TP]model.PartitionOffsets, want []model.TPO) markerLook {
	// Candidates past markerCandidates keep Kafka's lag without a reason: on a fleet with
	// lag everywhere they are ordinary lagging consumers, and the next snapshot of a
	// session asks about them once these are known (hasData).
	out := newMarkerLook()
	byLeader := map[int32][]model.TPO{}
	for _, w := range want {
		if l, ok := lay.Leader[w.TP]; ok {
			byLeader[l] = append(byLeader[l], w)
		} else {
			out.unknown[w] = "not looked at: the partition's leader is not known"
		}
	}
	var mu sync.Mutex
	wire.Run(c.conn, slices.Collect(maps.Keys(byLeader)), func(l int32) {
		got := c.fetchMarkers(ctx, l, offsets, byLeader[l])
		mu.Lock()
		defer mu.Unlock()
		out.add(got)
	})
	c.rememberData(out.data)
	return out
}

// fetchMarkers runs the rounds of one leader: each asks every partition from its highest
// offset not yet settled; an offset with data settles the lower ones of its partition, an
// offset that could not be told leaves the lower ones untold for the same reason.
func (c *Reader) fetchMarkers(ctx context.Context, leader int32, offsets map[model.TP]model.PartitionOffsets, want []model.TPO) markerLook {
	out := newMarkerLook()
	pending := map[model.TP][]int64{} // descending
	for _, w := range want {
		pending[w.TP] = append(pending[w.TP], w.Offset)
	}
	for tp := range pending {
		slices.Sort(pending[tp])
		slices.Reverse(pending[tp])
	}
	settle := func(tp model.TP, why string) {
		for _, o := range pending[tp] {
			out.unknown[model.TPO{TP: tp, Offset: o}] = why
		}
		delete(pending, tp)
	}
	limit := map[model.TP]int32{} // the bytes the next read of a partition asks for
	for tp := range pending {
		limit[tp] = markerFirstBytes
	}
	b, err := c.conn.Broker(leader)
	for round := 0; err == nil && round < markerRounds+1 && len(pending) > 0; round++ {
		req := &sarama.FetchRequest{Version: 12, MaxWaitTime: 0, MinBytes: 0, Isolation: sarama.ReadCommitted, SessionEpoch: -1}
		tps := slices.SortedFunc(maps.Keys(pending), model.CompareTP)
		for _, tp := range tps {
			req.AddBlock(tp.Topic, tp.Partition, pending[tp][0], limit[tp], -1)
			req.MaxBytes += limit[tp]
		}
		var resp *sarama.FetchResponse
		if resp, err = wire.Call(ctx, c.conn, b, func() (*sarama.FetchResponse, error) { return b.Fetch(req) }); err != nil {
			break
		}
		for _, tp := range tps {
			from, high := pending[tp][0], offsets[tp].High
			m, tail, why := scanTail(resp.GetBlock(tp.Topic, tp.Partition), from, *high, limit[tp])
			switch tail {
			case tailMarkers:
				out.found[model.TPO{TP: tp, Offset: from}] = m
				if pending[tp] = pending[tp][1:]; len(pending[tp]) == 0 {
					delete(pending, tp)
				}
			case tailData: // data there is data below too
				for _, o := range pending[tp] {
					out.data = append(out.data, model.TPO{TP: tp, Offset: o})
				}
				delete(pending, tp)
			case tailShort:
				if limit[tp] < markerPartitionBytes {
					limit[tp] = markerPartitionBytes // read again, further
					out.further++
					continue
				}
				settle(tp, fmt.Sprintf("read_committed Fetch from broker %d: %s", leader, why))
			default:
				settle(tp, fmt.Sprintf("read_committed Fetch from broker %d: %s", leader, why))
			}
		}
	}
	if err != nil {
		c.conn.Logf("transaction markers: broker %d: %v", leader, err)
		why := wire.BrokerErr(err, leader, "read_committed Fetch")
		for tp := range pending {
			settle(tp, why.Error())
		}
	}
	for tp := range pending {
		settle(tp, fmt.Sprintf("not looked at: more than %d commits below high on the partition", markerRounds))
	}
	return out
}

// tail is what lies between a fetch offset and high.
type tail int

const (
	tailUnknown tail = iota // the answer did not reach high, or the partition moved
	tailData                // a record a read_committed consumer receives
	tailMarkers             // transaction markers and aborted records only
	tailShort               // markers and aborted records as far as the read went, which is short of high
)

// scanTail reads a read_committed Fetch answer from offset from as Kafka's consumer does
// (CompletedFetch): control batches are skipped, and so is a transactional batch of a
// producer whose aborted transaction (AbortedTransactions) began at or before the batch's
// last offset, until that producer's abort marker. Anything else at or after from is data.
// Markers are reported only when the batches reach high and the partition's high watermark
// and last stable offset are still high.
// limit is the bytes the read asked for. why says, for tailUnknown and tailShort, what kept
// it from being told.
func scanTail(blk *sarama.FetchResponseBlock, from, high int64, limit int32) (m model.TransactionMarkers, t tail, why string) {
	switch {
	case blk == nil:
		return m, tailUnknown, "the partition is missing from the answer"
	case blk.Err != sarama.ErrNoError:
		return m, tailUnknown, wire.CodeName(int16(blk.Err)) + ": " + wire.KerrError(blk.Err, "").Message
	case blk.HighWaterMarkOffset != high || blk.LastStableOffset != high:
		return m, tailUnknown, fmt.Sprintf("the partition moved since its watermarks were read (high %d, last stable %d)", blk.HighWaterMarkOffset, blk.LastStableOffset)
	}
	aborted := slices.Clone(blk.AbortedTransactions)
	slices.SortFunc(aborted, func(a, b *sarama.AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	abortedBy := map[int64]bool{}
	reached := from
	for _, rs := range blk.RecordsSet {
		rb := rs.RecordBatch
		if rb == nil {
			return m, tailData, "" // the message-set format before 0.11: no transactions
		}
		last := rb.FirstOffset + int64(rb.LastOffsetDelta)
		if last < from {
			continue
		}
		if rb.FirstOffset >= high {
			break // past what the watermarks read (the broker sends nothing past last stable)
		}
		for len(aborted) > 0 && aborted[0].FirstOffset <= last {
			abortedBy[aborted[0].ProducerID] = true
			aborted = aborted[1:]
		}
		span := min(last, high-1) - max(from, rb.FirstOffset) + 1
		switch {
		case rb.Control:
			abort, ok := controlAbort(rb)
			if !ok {
				return m, tailUnknown, "a transaction marker that cannot be read"
			}
			if abort {
				delete(abortedBy, rb.ProducerID)
			}
			m.ControlRecords += span
		case rb.IsTransactional && abortedBy[rb.ProducerID]:
			m.AbortedRecords += span
		case rb.PartialTrailingRecord:
			return m, tailData, "" // its records are cut off, and some are at or after from
		default:
			for _, r := range rb.Records {
				if rb.FirstOffset+r.OffsetDelta >= from {
					return m, tailData, ""
				}
			}
		}
		reached = min(last+1, high)
	}
	if reached < high || m.ControlRecords+m.AbortedRecords == 0 {
		return m, tailShort, fmt.Sprintf("the %s read end at offset %d, before high %d", sizeText(limit), reached, high)
	}
	return m, tailMarkers, ""
}

// sizeText is a read's byte limit as its message says it: 512 B, 4 KiB.
func sizeText(n int32) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// controlAbort reads a control batch's record type (its key: version, then type; 0 is
// ABORT, 1 COMMIT). ok is false when the record is not there to read.
func controlAbort(rb *sarama.RecordBatch) (abort, ok bool) {
	if rb.PartialTrailingRecord || len(rb.Records) == 0 || len(rb.Records[0].Key) < 4 {
		return false, false
	}
	return binary.BigEndian.Uint16(rb.Records[0].Key[2:4]) == 0, true
}
