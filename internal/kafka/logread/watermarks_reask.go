package logread

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// WatermarksReasked is watermarks, with the partitions whose leader moved (an election,
// a broker shutting down: NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, a refused or
// closed connection) asked again of their new leaders, after a fresh Metadata answer,
// while the re-asks last (internal/kafka/wire/reask.go). A partition still led by a broker dropped in this
// snapshot is not asked again. With patient (a reset's phases), a partition whose leader
// answers OFFSET_NOT_AVAILABLE (elected a moment ago, it does not know its high watermark
// yet) is asked again until one --timeout is left of the deadline, not only for the rule's
// 1.5 s; one still not available then says how long it was waited for.
func (c *Reader) WatermarksReasked(ctx context.Context, lay wire.TopicLayout, tps []model.TP, risk map[string]time.Time, patient bool) map[model.TP]model.PartitionOffsets {
	out := c.watermarks(ctx, lay, tps, risk)
	r := wire.NewReasker(c.conn)
	start := time.Now()
	for {
		var again []model.TP
		topics := map[string]bool{}
		notAvailable := false
		for tp, po := range out {
			if wire.Moved(po.Error) {
				again = append(again, tp)
				topics[tp.Topic] = true
				notAvailable = notAvailable || offsetNotAvailable(po.Error)
			}
		}
		wait := r.Wait
		if patient && notAvailable {
			wait = r.WaitPatiently
		}
		if len(again) == 0 {
			return out
		}
		if !wait(ctx) {
			if patient && notAvailable {
				waitedFor(out, time.Since(start))
			}
			return out
		}
		slices.SortFunc(again, model.CompareTP)
		c.conn.Logf("asking again for the watermarks of %d partitions whose leader moved (%v so far)", len(again), time.Since(start).Round(time.Millisecond))
		fresh, err := c.conn.Metadata(ctx, slices.Sorted(maps.Keys(topics)))
		if err != nil {
			return out
		}
		lost := c.conn.LostBrokers()
		ask := again[:0]
		for _, tp := range again {
			if l, ok := fresh.Leader[tp]; ok && lost[l] != nil {
				continue // still led by a broker dropped in this snapshot: not asked before the next
			}
			ask = append(ask, tp)
		}
		if len(ask) == 0 {
			return out
		}
		for tp, po := range c.watermarks(ctx, fresh, ask, risk) {
			out[tp] = po
		}
	}
}

// offsetNotAvailable reports whether e is a leader's OFFSET_NOT_AVAILABLE.
func offsetNotAvailable(e *model.Error) bool {
	return e != nil && e.Code != nil && *e.Code == wire.CodeName(int16(sarama.ErrOffsetNotAvailable))
}

// waitedFor says, in each partition's OFFSET_NOT_AVAILABLE, how long it was asked again.
func waitedFor(out map[model.TP]model.PartitionOffsets, waited time.Duration) {
	for tp, po := range out {
		if offsetNotAvailable(po.Error) {
			e := *po.Error
			e.Message += fmt.Sprintf(" (its leader, elected a moment ago, did not know its high watermark yet; asked again for %s, until one --timeout was left of the deadline)",
				waited.Round(100*time.Millisecond))
			po.Error = &e
			out[tp] = po
		}
	}
}
