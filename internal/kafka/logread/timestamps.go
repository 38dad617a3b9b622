package logread

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// partitionFetchBytes is the per-partition Fetch limit. Kafka returns a batch
// larger than this only for the first partition of a response; the others come
// back empty and their timestamps stay unresolved.
const partitionFetchBytes = 64 << 10

// maxCachedTimestamps bounds the timestamp cache (about 100 bytes an entry).
const maxCachedTimestamps = 100_000

// CommittedTimestamps learns the timestamp of the record at each wanted offset by
// Fetch, one request per leader, within budget bytes in all, spent on want in its
// order (the caller puts first what matters most). Results are cached by
// topic/partition/offset (a stored record's timestamp never changes), within
// maxCachedTimestamps. Offsets not resolved stay absent.
func (c *Reader) CommittedTimestamps(ctx context.Context, lay wire.TopicLayout, want []model.TPO, budget int64) map[model.TPO]time.Time {
	out := map[model.TPO]time.Time{}
	var todo []model.TPO
	c.tsMu.Lock()
	for _, w := range want {
		if ts, ok := c.tsSeen[w]; ok {
			out[w] = ts
		} else {
			todo = append(todo, w)
		}
	}
	c.tsMu.Unlock()
	if budget <= 0 || len(todo) == 0 {
		return out
	}
	// Spend the budget on as many partitions as it covers at the per-partition limit.
	maxParts := int(max(1, budget/partitionFetchBytes))
	if len(todo) > maxParts {
		c.conn.Logf("fetch budget %d B covers %d of %d committed-record timestamps", budget, maxParts, len(todo))
		todo = todo[:maxParts]
	}
	byLeader := map[int32][]model.TPO{}
	var leaders []int32
	for _, w := range todo {
		l, ok := lay.Leader[w.TP]
		if !ok {
			continue
		}
		if _, seen := byLeader[l]; !seen {
			leaders = append(leaders, l)
		}
		byLeader[l] = append(byLeader[l], w)
	}
	var mu sync.Mutex
	share := int32(min(budget/int64(max(1, len(leaders))), 1<<30))
	wire.Run(c.conn, leaders, func(l int32) {
		got := c.fetchTimestamps(ctx, l, byLeader[l], share)
		mu.Lock()
		defer mu.Unlock()
		for k, v := range got {
			out[k] = v
		}
	})
	c.remember(out)
	return out
}

// fetchTimestamps resolves want with Fetch requests to one leader. A request holds
// one fetch position per partition (sarama keeps one block per partition, so a
// second offset of the same partition would silently replace the first and the
// records returned would not be the ones asked for): each round asks for the lowest
// unresolved offset of every partition, resolves every wanted offset the returned
// records cover, and leaves the rest to the next round. Each round settles at least
// the lowest offset of every partition it asks for, so the bytes stay within one
// partition limit per wanted offset, as the budget assumes.
func (c *Reader) fetchTimestamps(ctx context.Context, leader int32, want []model.TPO, maxBytes int32) map[model.TPO]time.Time {
	b, err := c.conn.Broker(leader)
	if err != nil {
		c.conn.Logf("fetch timestamps: broker %d: %v", leader, err)
		return nil
	}
	out := map[model.TPO]time.Time{}
	for len(want) > 0 {
		first := map[model.TP]int64{}
		for _, w := range want {
			if o, ok := first[w.TP]; !ok || w.Offset < o {
				first[w.TP] = w.Offset
			}
		}
		req := &sarama.FetchRequest{Version: 12, MaxWaitTime: 0, MinBytes: 0, MaxBytes: maxBytes,
			Isolation: sarama.ReadUncommitted, SessionEpoch: -1}
		for _, w := range want {
			if first[w.TP] == w.Offset {
				req.AddBlock(w.Topic, w.Partition, w.Offset, partitionFetchBytes, -1)
			}
		}
		resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.FetchResponse, error) { return b.Fetch(req) })
		if err != nil {
			c.conn.Logf("fetch timestamps: broker %d: %v", leader, err)
			return out
		}
		var next []model.TPO
		for _, w := range want {
			blk := resp.GetBlock(w.Topic, w.Partition)
			if blk == nil || blk.Err != sarama.ErrNoError {
				continue
			}
			if ts, ok := firstTimestampFrom(blk, w.Offset); ok {
				out[w] = ts
			} else if w.Offset > first[w.TP] {
				next = append(next, w) // past the records returned: a later round fetches from there
			}
		}
		want = next
	}
	return out
}

// firstTimestampFrom returns the timestamp of the first record at or after offset
// (batches can start before the requested offset; compaction can remove the
// record at it, and then the consumer's next record is the one after).
func firstTimestampFrom(blk *sarama.FetchResponseBlock, offset int64) (time.Time, bool) {
	for _, rs := range blk.RecordsSet {
		if rs == nil {
			continue
		}
		if rb := rs.RecordBatch; rb != nil {
			if rb.Control {
				continue
			}
			for _, r := range rb.Records {
				if rb.FirstOffset+r.OffsetDelta < offset {
					continue
				}
				if rb.LogAppendTime {
					return rb.MaxTimestamp, true
				}
				return rb.FirstTimestamp.Add(r.TimestampDelta), true
			}
			continue
		}
		if ms := rs.MsgSet; ms != nil {
			for _, m := range ms.Messages {
				if m.Offset >= offset && m.Msg != nil {
					return m.Msg.Timestamp, true
				}
			}
		}
	}
	return time.Time{}, false
}

// remember caches the timestamps of one answer. Past maxCachedTimestamps the
// cache keeps only that answer's: committed offsets keep moving, so an unbounded
// cache would grow for as long as a TUI runs.
func (c *Reader) remember(got map[model.TPO]time.Time) {
	c.tsMu.Lock()
	defer c.tsMu.Unlock()
	if len(c.tsSeen)+len(got) > maxCachedTimestamps {
		c.tsSeen = make(map[model.TPO]time.Time, len(got))
	}
	for k, v := range got {
		c.tsSeen[k] = v
	}
}

// TargetTimestamps fetches the timestamps of the records at the given offsets
// (within budget bytes), for showing where a reset lands in time.
func (c *Reader) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	var topics []string
	for _, w := range want {
		if !slices.Contains(topics, w.Topic) {
			topics = append(topics, w.Topic)
		}
	}
	lay, err := c.conn.Metadata(ctx, topics)
	if err != nil {
		return nil
	}
	want = slices.Clone(want) // the budget goes to them in topic and partition order
	slices.SortFunc(want, func(a, b model.TPO) int { return model.CompareTP(a.TP, b.TP) })
	return c.CommittedTimestamps(ctx, lay, want, budget)
}
