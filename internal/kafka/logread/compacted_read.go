package logread

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// compactedRounds bounds the reads of one leader's commits. Kafka answers a partition's
// Fetch from one log segment, so a backlog spread over several segments takes a read each.
const compactedRounds = 8

// compactedCursor is one commit being read: where its next read starts and what the
// reads so far saw.
type compactedCursor struct {
	w    model.TPO
	high int64
	at   int64
	r    model.CompactedRead
	done bool
}

// apply adds what one answer holds from the cursor on; false when it holds nothing there.
func (cur *compactedCursor) apply(s blockScan) bool {
	if s.reached <= cur.at {
		return false
	}
	if !cur.r.GapComplete {
		if s.next >= 0 {
			cur.r.Gap, cur.r.GapComplete = s.next-cur.w.Offset, true
		} else {
			cur.r.Gap = s.reached - cur.w.Offset
		}
	}
	if cur.r.NextStoredAt == nil {
		cur.r.NextStoredAt = s.nextAt
	}
	cur.r.Stored += s.stored
	cur.at = s.reached
	if cur.at >= cur.high {
		cur.r.GapComplete, cur.r.StoredComplete, cur.done = true, true, true
	}
	return true
}

// readCompacted reads want from one leader within budget bytes. A request holds one
// position per partition: each round asks, for every partition, from the commit furthest
// behind, and every commit of the partition the answer reaches moves on to where it ends.
// The first round asks for every commit; later rounds, while the budget lasts, those still
// looking for the next stored record first, then those counting records up to high. The
// reads end after compactedRounds rounds or a round that moved nothing.
func (c *Reader) readCompacted(ctx context.Context, leader int32, want []model.TPO, offsets map[model.TP]model.PartitionOffsets, budget int64) map[model.TPO]model.CompactedRead {
	out := make(map[model.TPO]model.CompactedRead, len(want))
	curs := make([]*compactedCursor, len(want))
	for i, w := range want {
		curs[i] = &compactedCursor{w: w, high: model.Deref(offsets[w.TP].High), at: w.Offset}
	}
	failUnread := func(e model.Error) {
		for _, cur := range curs {
			if !cur.done && cur.at == cur.w.Offset {
				e := e
				cur.r.Error, cur.done = e.WithPartition(cur.w.TP), true
			}
		}
	}
	b, err := c.conn.Broker(leader)
	if err != nil {
		failUnread(wire.BrokerErr(err, leader, "read at the commit on a compacted topic"))
	}
	var spent int64
	for round := 0; err == nil && round < compactedRounds; round++ {
		lead := leadCursors(curs, round > 0, (budget-spent)/compactedFetchBytes)
		if len(lead) == 0 {
			break
		}
		req := &sarama.FetchRequest{Version: 12, MaxWaitTime: 0, MinBytes: 0, MaxBytes: int32(min(int64(len(lead))*compactedFetchBytes, 1<<30)),
			Isolation: sarama.ReadUncommitted, SessionEpoch: -1}
		for tp, cur := range lead {
			req.AddBlock(tp.Topic, tp.Partition, cur.at, compactedFetchBytes, -1)
		}
		spent += int64(len(lead)) * compactedFetchBytes
		var resp *sarama.FetchResponse
		if resp, err = wire.Call(ctx, c.conn, b, func() (*sarama.FetchResponse, error) { return b.Fetch(req) }); err != nil {
			failUnread(wire.BrokerErr(err, leader, "read at the commit on a compacted topic"))
			break
		}
		if !applyAnswer(resp, curs, lead) {
			break
		}
	}
	for _, cur := range curs {
		if cur.r.Error == nil && cur.at == cur.w.Offset {
			cur.r.NotRead = fmt.Sprintf("not read: no record came back from offset %d within %d B", cur.w.Offset, compactedFetchBytes)
		}
		out[cur.w] = cur.r
	}
	return out
}

// leadCursors picks, per partition, the commit furthest behind that is not done. Later
// rounds (limited) take at most room partitions, those still looking for the next stored
// record first.
func leadCursors(curs []*compactedCursor, limited bool, room int64) map[model.TP]*compactedCursor {
	lead := map[model.TP]*compactedCursor{}
	for _, cur := range curs {
		if l, ok := lead[cur.w.TP]; !cur.done && (!ok || cur.at < l.at) {
			lead[cur.w.TP] = cur
		}
	}
	if !limited || int64(len(lead)) <= room {
		return lead
	}
	tps := model.SortedTPs(lead)
	slices.SortStableFunc(tps, func(a, b model.TP) int {
		return boolRank(lead[a].r.GapComplete) - boolRank(lead[b].r.GapComplete)
	})
	for _, tp := range tps[max(0, room):] {
		delete(lead, tp)
	}
	return lead
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// applyAnswer moves every commit of the partitions asked for by what the answer holds from
// it; a partition the broker failed leaves its unread commits with the error. It reports
// whether any commit moved.
func applyAnswer(resp *sarama.FetchResponse, curs []*compactedCursor, lead map[model.TP]*compactedCursor) bool {
	moved := false
	for _, cur := range curs {
		if _, asked := lead[cur.w.TP]; !asked || cur.done {
			continue
		}
		blk := resp.GetBlock(cur.w.Topic, cur.w.Partition)
		var e *model.Error
		switch {
		case blk == nil:
			e = &model.Error{Kind: model.KindBroker, Message: "read at the commit on a compacted topic: the broker's reply left the partition out"}
		case blk.Err != sarama.ErrNoError:
			ke := wire.KerrAt(blk.Err, "read at the commit on a compacted topic")
			e = &ke
		}
		if e != nil {
			if cur.at == cur.w.Offset {
				cur.r.Error = e.WithPartition(cur.w.TP)
			}
			cur.done = true // what earlier reads saw stands, as a lower bound
			continue
		}
		if cur.apply(scanFrom(blk, cur.at, cur.high)) {
			moved = true
		}
	}
	return moved
}

// blockScan is what one partition's answer holds from an offset on, up to high.
type blockScan struct {
	next    int64      // the first offset at or after from holding a record; -1 none
	nextAt  *time.Time // the timestamp of the first data record at or after from
	stored  int64      // data records from from up to reached
	reached int64      // one past the last offset the answer covers, at most high
}

// scanFrom reads one partition's answer from offset from on. Transaction markers are
// stored records but none a consumer reads; batches the cleaner emptied still cover their
// offsets; a batch the byte limit cut covers nothing (the next read starts there).
func scanFrom(blk *sarama.FetchResponseBlock, from, high int64) blockScan {
	s := blockScan{next: -1, reached: from}
	for _, rs := range blk.RecordsSet {
		if rs == nil || rs.RecordBatch == nil {
			continue
		}
		rb := rs.RecordBatch
		if rb.PartialTrailingRecord {
			break // cut by the byte limit: sarama keeps its header, not its records
		}
		for _, rec := range rb.Records {
			o := rb.FirstOffset + rec.OffsetDelta
			if o < from || o >= high {
				continue
			}
			if s.next < 0 {
				s.next = o
			}
			if rb.Control {
				continue
			}
			if s.nextAt == nil {
				ts := rb.FirstTimestamp.Add(rec.TimestampDelta)
				if rb.LogAppendTime {
					ts = rb.MaxTimestamp
				}
				s.nextAt = &ts
			}
			s.stored++
		}
		s.reached = max(s.reached, rb.FirstOffset+int64(rb.LastOffsetDelta)+1)
	}
	s.reached = min(s.reached, high)
	return s
}
