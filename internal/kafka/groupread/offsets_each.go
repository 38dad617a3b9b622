package groupread

// Committed offsets from a coordinator below OffsetFetch v8 (Kafka before 3.0), which takes one
// group per request: at 1,000 groups that is 1,000 requests. sarama sends one request at a
// time per broker and waits for its answer, so these go through kgo, which pipelines them on
// its connection to the coordinator: the broker works on the next while an answer travels
// back (docs/testing.md#speed).

import (
	"context"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// offsetFetchPipeline is how many one-group OffsetFetch requests are out to one coordinator at
// once.
const offsetFetchPipeline = 16

// offsetFetchEach reads each group with a request of its own, offsetFetchPipeline at a time,
// inside the slot the caller already holds: taking more slots here could deadlock with the
// batches waiting for them.
func (c *Reader) offsetFetchEach(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	next := make(chan *model.GroupObservation)
	var wg sync.WaitGroup
	for range min(offsetFetchPipeline, len(gs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				c.offsetFetchOne(ctx, b, g)
			}
		}()
	}
	for _, g := range gs { // after the deadline each is answered "not asked" at once
		next <- g
	}
	close(next)
	wg.Wait()
}

// offsetFetchOne reads one group's committed offsets on every topic (OffsetFetch v2-v7 with no
// topics named; the v8 form is filled too, for a broker that answers it after all).
func (c *Reader) offsetFetchOne(ctx context.Context, b *sarama.Broker, g *model.GroupObservation) {
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = g.Group
	rg := kmsg.NewOffsetFetchRequestGroup()
	rg.Group = g.Group
	req.Groups = []kmsg.OffsetFetchRequestGroup{rg}
	raw, err := c.conn.KgoPipelined(ctx, b, req)
	if err != nil {
		e := kgoErr(err, b, "fetch committed offsets", "OffsetFetch")
		g.Error, g.Committed = e.WithGroup(g.Group), nil
		return
	}
	resp := raw.(*kmsg.OffsetFetchResponse)
	code, topics := resp.ErrorCode, resp.Topics
	if len(resp.Groups) > 0 { // v8+
		code, topics = resp.Groups[0].ErrorCode, nil
		for _, t := range resp.Groups[0].Topics {
			rt := kmsg.NewOffsetFetchResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewOffsetFetchResponseTopicPartition()
				rp.Partition, rp.Offset, rp.ErrorCode = p.Partition, p.Offset, p.ErrorCode
				rt.Partitions = append(rt.Partitions, rp)
			}
			topics = append(topics, rt)
		}
	}
	blocks := make(map[string]map[int32]*sarama.OffsetFetchResponseBlock, len(topics))
	for _, t := range topics {
		ps := make(map[int32]*sarama.OffsetFetchResponseBlock, len(t.Partitions))
		for _, p := range t.Partitions {
			ps[p.Partition] = &sarama.OffsetFetchResponseBlock{Offset: p.Offset, Err: sarama.KError(p.ErrorCode)}
		}
		blocks[t.Topic] = ps
	}
	applyOffsets(g, sarama.KError(code), blocks)
}
