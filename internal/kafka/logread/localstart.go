package logread

import (
	"context"
	"slices"
	"sync"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// earliestLocal is ListOffsets' special timestamp for a partition's local log start
// (KIP-1005; clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsRequest.java
// EARLIEST_LOCAL_TIMESTAMP), answered from ListOffsets v8 on. sarama sends at most v6, so
// this request goes through kgo.
const earliestLocal = -4

// LocalStarts reads the local log start of every partition of a tiered topic
// (remote.storage.enable=true) in offsets: one ListOffsets per leader, leaders
// concurrently. It sets PartitionOffsets.LocalLow and returns the failures, one per
// partition; a partition without watermarks is not asked.
func (c *Reader) LocalStarts(ctx context.Context, lay wire.TopicLayout, topics map[string]model.Topic, offsets map[model.TP]model.PartitionOffsets) []model.Error {
	byLeader := map[int32][]model.TP{}
	for tp, po := range offsets {
		t := topics[tp.Topic]
		if !t.Tiered() || po.Error != nil {
			continue
		}
		if l, ok := lay.Leader[tp]; ok {
			byLeader[l] = append(byLeader[l], tp)
		}
	}
	var (
		mu   sync.Mutex
		errs []model.Error
	)
	leaders := slices.Sorted(func(yield func(int32) bool) {
		for l := range byLeader {
			if !yield(l) {
				return
			}
		}
	})
	wire.Run(c.conn, leaders, func(l int32) {
		got, failed := c.localStartsOf(ctx, l, byLeader[l])
		mu.Lock()
		defer mu.Unlock()
		for tp, off := range got {
			po := offsets[tp]
			po.LocalLow = model.Ptr(off)
			offsets[tp] = po
		}
		errs = append(errs, failed...)
	})
	slices.SortFunc(errs, func(a, b model.Error) int {
		return model.CompareTP(model.TP{Topic: *a.Topic, Partition: *a.Partition}, model.TP{Topic: *b.Topic, Partition: *b.Partition})
	})
	return errs
}

// localStartsOf asks one leader for the local log start of tps.
func (c *Reader) localStartsOf(ctx context.Context, leader int32, tps []model.TP) (map[model.TP]int64, []model.Error) {
	const what = "local log start (ListOffsets EARLIEST_LOCAL)"
	fail := func(e model.Error) []model.Error {
		out := make([]model.Error, len(tps))
		for i, tp := range tps {
			out[i] = *e.WithPartition(tp)
		}
		return out
	}
	b, err := c.conn.Broker(leader)
	if err != nil {
		return nil, fail(wire.BrokerErr(err, leader, what))
	}
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -1
	byTopic := map[string]int{}
	for _, tp := range tps {
		i, ok := byTopic[tp.Topic]
		if !ok {
			i = len(req.Topics)
			byTopic[tp.Topic] = i
			rt := kmsg.NewListOffsetsRequestTopic()
			rt.Topic = tp.Topic
			req.Topics = append(req.Topics, rt)
		}
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = tp.Partition, earliestLocal, -1
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, rp)
	}
	raw, err := c.conn.KgoRead(ctx, b, req)
	if err != nil {
		return nil, fail(wire.BrokerErr(err, leader, what))
	}
	return localStartAnswer(raw.(*kmsg.ListOffsetsResponse), tps)
}

// localStartAnswer reads a ListOffsets answer at EARLIEST_LOCAL: each partition's offset or
// its error. A broker older than ListOffsets v8 answers UNSUPPORTED_VERSION for it.
func localStartAnswer(resp *kmsg.ListOffsetsResponse, tps []model.TP) (map[model.TP]int64, []model.Error) {
	got := map[model.TP]int64{}
	var errs []model.Error
	seen := map[model.TP]bool{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			tp := model.TP{Topic: t.Topic, Partition: p.Partition}
			if !slices.Contains(tps, tp) || seen[tp] {
				continue
			}
			seen[tp] = true
			switch {
			case p.ErrorCode == kerr.UnsupportedVersion.Code:
				e := wire.CodeError(p.ErrorCode, "local log start: the broker cannot say (ListOffsets EARLIEST_LOCAL needs v8, Kafka 3.6+)")
				errs = append(errs, *e.WithPartition(tp))
			case p.ErrorCode != 0:
				e := wire.CodeError(p.ErrorCode, "local log start: "+wire.CodeText(p.ErrorCode))
				errs = append(errs, *e.WithPartition(tp))
			case p.Offset < 0:
				e := model.Error{Kind: model.KindBroker, Message: "local log start: the broker answered no offset"}
				errs = append(errs, *e.WithPartition(tp))
			default:
				got[tp] = p.Offset
			}
		}
	}
	for _, tp := range tps {
		if !seen[tp] {
			e := model.Error{Kind: model.KindBroker, Message: "local log start: the broker's reply left the partition out"}
			errs = append(errs, *e.WithPartition(tp))
		}
	}
	return got, errs
}
