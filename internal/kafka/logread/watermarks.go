package logread

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// offset lookups sent per leader; each partition appears once per request.
const (
	lookupEarliest = iota
	lookupLatest
	lookupLastStable
	lookupRisk
)

// watermarks reads low, high and last stable offsets of every partition in tps,
// plus the at-risk timestamp lookup for partitions whose topic has a threshold:
// per leader, one ListOffsets request per kind, all leaders concurrently.
func (c *Reader) watermarks(ctx context.Context, lay wire.TopicLayout, tps []model.TP, risk map[string]time.Time) map[model.TP]model.PartitionOffsets {
	out := make(map[model.TP]model.PartitionOffsets, len(tps))
	byLeader := map[int32][]model.TP{}
	var leaders []int32
	for _, tp := range tps {
		if e := lay.Errs[tp]; e != nil {
			out[tp] = model.PartitionOffsets{Error: e}
			continue
		}
		if e := lay.TopicErrs[tp.Topic]; e != nil {
			out[tp] = model.PartitionOffsets{Error: e.WithPartition(tp)}
			continue
		}
		l, ok := lay.Leader[tp]
		if !ok {
			out[tp] = model.PartitionOffsets{Error: (&model.Error{Kind: model.KindNotFound, Message: "partition does not exist"}).WithPartition(tp)}
			continue
		}
		if _, seen := byLeader[l]; !seen {
			leaders = append(leaders, l)
		}
		byLeader[l] = append(byLeader[l], tp)
	}
	slices.Sort(leaders)
	var mu sync.Mutex
	results := map[model.TP]*model.PartitionOffsets{}
	for _, l := range leaders {
		for _, tp := range byLeader[l] {
			results[tp] = &model.PartitionOffsets{}
		}
	}
	// Per leader, the first lookup goes alone: a leader that does not answer
	// it is asked nothing more in this snapshot (it costs one --timeout and
	// one request). Once it has answered, the other three are sent at once on
	// its connection (sarama pipelines them). Their answers are applied in
	// kind order, as if asked one after another, and a request that failed is
	// given the cause of the leader's failure. Leaders are asked concurrently.
	wire.Run(c.conn, leaders, func(leader int32) {
		var answers [lookupRisk + 1]offsetsAnswer
		answers[lookupEarliest] = c.listOffsets(ctx, leader, lookupEarliest, byLeader[leader], risk)
		if answers[lookupEarliest].err == nil {
			var wg sync.WaitGroup
			for k := lookupEarliest + 1; k <= lookupRisk; k++ {
				wg.Go(func() { answers[k] = c.listOffsets(ctx, leader, k, byLeader[leader], risk) })
			}
			wg.Wait()
		}
		cause := failureCause(answers[:])
		mu.Lock()
		defer mu.Unlock()
		for k := range answers {
			if answers[k].err != nil {
				answers[k].err = cause
			}
			answers[k].apply(leader, k, results)
		}
	})
	for tp, po := range results {
		if po.Error == nil && (po.Low == nil || po.High == nil) {
			po.Error = (&model.Error{Kind: model.KindTimeout, Message: "list offsets: no answer before the snapshot was cancelled"}).WithPartition(tp)
		}
		out[tp] = *po
	}
	return out
}

// offsetsAnswer is one ListOffsets request of one kind and its answer.
type offsetsAnswer struct {
	asked    []model.TP
	version  int16
	resp     *sarama.OffsetResponse
	err      error
	failedAt time.Time
}

// failureCause is the error that explains a leader's failed requests: a
// timeout before anything else (the other requests then fail because the
// broker was dropped), else the first to happen.
func failureCause(answers []offsetsAnswer) error {
	var cause *offsetsAnswer
	for i := range answers {
		a := &answers[i]
		if a.err == nil {
			continue
		}
		if cause == nil || a.timedOut() && !cause.timedOut() || a.timedOut() == cause.timedOut() && a.failedAt.Before(cause.failedAt) {
			cause = a
		}
	}
	if cause == nil {
		return nil
	}
	return cause.err
}

func (a *offsetsAnswer) timedOut() bool {
	return errors.Is(a.err, wire.ErrRequestTimeout) || errors.Is(a.err, context.DeadlineExceeded)
}

// listOffsets sends one ListOffsets request of a kind to a leader.
func (c *Reader) listOffsets(ctx context.Context, leader int32, kind int, tps []model.TP, risk map[string]time.Time) offsetsAnswer {
	req := sarama.NewOffsetRequest(sarama.MaxVersion)
	var a offsetsAnswer
	for _, tp := range tps {
		ts := int64(sarama.OffsetOldest)
		switch kind {
		case lookupLatest, lookupLastStable:
			ts = sarama.OffsetNewest
		case lookupRisk:
			t, ok := risk[tp.Topic]
			if !ok {
				continue
			}
			ts = t.UnixMilli()
		}
		req.AddBlock(tp.Topic, tp.Partition, ts, 1)
		a.asked = append(a.asked, tp)
	}
	if len(a.asked) == 0 {
		return a
	}
	if kind == lookupLastStable {
		req.IsolationLevel = sarama.ReadCommitted
	}
	b, err := c.conn.Broker(leader)
	if err == nil {
		a.resp, err = wire.Call(ctx, c.conn, b, func() (*sarama.OffsetResponse, error) { return b.GetAvailableOffsets(req) })
	}
	if a.err = err; err == nil {
		a.version = req.Version // read only once answered: a request left behind still writes it
	} else {
		a.failedAt = time.Now()
	}
	return a
}

// apply records the answer of a kind in results. A partition that already
// has an error keeps it: the first failure is the cause, later ones follow
// from it.
func (a offsetsAnswer) apply(leader int32, kind int, results map[model.TP]*model.PartitionOffsets) {
	for _, tp := range a.asked {
		po := results[tp]
		if po.Error != nil {
			continue
		}
		if a.err != nil {
			e := wire.BrokerErr(a.err, leader, "list offsets")
			po.Error = e.WithPartition(tp)
			continue
		}
		blk := a.resp.GetBlock(tp.Topic, tp.Partition)
		if blk == nil {
			po.Error = (&model.Error{Kind: model.KindBroker, Message: "list offsets: the broker's reply left the partition out"}).WithPartition(tp)
			continue
		}
		if blk.Err != sarama.ErrNoError {
			po.Error = wire.KerrAt(blk.Err, "list offsets").WithPartition(tp)
			continue
		}
		off := blk.Offset
		if len(blk.Offsets) > 0 && a.version == 0 {
			off = blk.Offsets[0]
		}
		switch kind {
		case lookupEarliest:
			po.Low = model.Ptr(off)
		case lookupLatest:
			po.High = model.Ptr(off)
		case lookupLastStable:
			po.LastStable = model.Ptr(off)
		case lookupRisk:
			po.RiskOffset = model.Ptr(off)
		}
	}
}
