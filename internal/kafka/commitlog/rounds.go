package commitlog

import (
	"context"
	"sync/atomic"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// roundPart is one partition of __consumer_offsets that a read fetches round after round:
// a partitionRead forward to its high watermark (read.go), a searchPartition's windows
// newest first (window.go).
type roundPart interface {
	// fetchAt says where the next round reads: the partition, the offset, at most how
	// many bytes.
	fetchAt() (partition int32, offset int64, maxBytes int32)
	finished() bool
	// apply reads the partition's answer and says whether the read moved.
	apply(*sarama.FetchResponseBlock) (records, bytes int64, moved bool)
	// grow raises the partition's limit after a round that brought nothing; false past the
	// largest.
	grow() bool
	// stop ends an unfinished read with a status and its reason.
	stop(status, reason string)
}

// fetchRounds reads parts from broker b (leader) round after round: each round one Fetch
// of at most round bytes, and what budget has left, carrying every part not finished,
// until all are, the budget runs out (spent says so), ctx ends or a Fetch fails.
func fetchRounds[P roundPart](ctx context.Context, c *Reader, b *sarama.Broker, leader int32, parts []P, budget *atomic.Int64, round int64, spent string) model.CommitLogScan {
	var scan model.CommitLogScan
	stop := func(status, reason string) {
		for _, p := range parts {
			p.stop(status, reason)
		}
	}
	for {
		var todo []P
		for _, p := range parts {
			if !p.finished() {
				todo = append(todo, p)
			}
		}
		left := budget.Load()
		switch {
		case len(todo) == 0:
			return scan
		case left <= 0:
			stop(model.CommitLogPartial, spent)
			return scan
		case ctx.Err() != nil:
			stop(model.CommitLogPartial, stoppedReason(ctx))
			return scan
		}
		req := &sarama.FetchRequest{Version: 12, MaxWaitTime: 0, MinBytes: 0, MaxBytes: int32(min(left, round)),
			Isolation: sarama.ReadUncommitted, SessionEpoch: -1}
		for _, p := range todo {
			partition, offset, maxBytes := p.fetchAt()
			req.AddBlock(wire.OffsetsTopic, partition, offset, maxBytes, -1)
		}
		resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.FetchResponse, error) { return b.Fetch(req) })
		scan.Requests++
		if err != nil {
			if ctx.Err() != nil {
				stop(model.CommitLogPartial, stoppedReason(ctx))
			} else {
				e := wire.BrokerErr(err, leader, "fetch "+wire.OffsetsTopic)
				stop(model.CommitLogFailed, e.Error())
			}
			return scan
		}
		moved := false
		for _, p := range todo {
			partition, _, _ := p.fetchAt()
			blk := resp.GetBlock(wire.OffsetsTopic, partition)
			if blk == nil {
				p.stop(model.CommitLogFailed, "fetch "+wire.OffsetsTopic+": the broker's reply left the partition out")
				continue
			}
			n, bytes, m := p.apply(blk)
			scan.Records += n
			scan.Bytes += bytes
			budget.Add(-bytes)
			moved = moved || m
		}
		if !moved && !growAll(todo) {
			stop(model.CommitLogFailed, "fetch "+wire.OffsetsTopic+": a record batch larger than 64 MiB")
			return scan
		}
	}
}

// growAll raises the limit of every part not finished after a round that brought nothing
// for any (every next batch is larger than its limit); false when none could grow.
func growAll[P roundPart](todo []P) bool {
	grown := false
	for _, p := range todo {
		if !p.finished() {
			grown = p.grow() || grown
		}
	}
	return grown
}
