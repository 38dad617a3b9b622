package kafka

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// watermarksReasked is watermarks, with the partitions whose leader moved (an election,
// a broker shutting down: NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, a refused or
// closed connection) asked again of their new leaders, after a fresh Metadata answer,
// while the re-asks last (reask.go). A partition still led by a broker dropped in this
// snapshot is not asked again.
func (c *Client) watermarksReasked(ctx context.Context, lay topicLayout, tps []model.TP, risk map[string]time.Time) map[model.TP]model.PartitionOffsets {
	out := c.watermarks(ctx, lay, tps, risk)
	r := c.reasker()
	for {
		var again []model.TP
		topics := map[string]bool{}
		for tp, po := range out {
			if moved(po.Error) {
				again = append(again, tp)
				topics[tp.Topic] = true
			}
		}
		if len(again) == 0 || !r.wait(ctx) {
			return out
		}
		slices.SortFunc(again, model.CompareTP)
		c.logf("asking again for the watermarks of %d partitions whose leader moved", len(again))
		fresh, err := c.metadata(ctx, slices.Sorted(maps.Keys(topics)))
		if err != nil {
			return out
		}
		lost := c.lostBrokers()
		ask := again[:0]
		for _, tp := range again {
			if l, ok := fresh.leader[tp]; ok && lost[l] != nil {
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
