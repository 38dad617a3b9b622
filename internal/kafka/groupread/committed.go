package groupread

import (
	"context"
	"fmt"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// Committed reads group's committed offsets, for the read-back after a commit. It
// starts afresh, so that a commit whose answer was lost can still be read back:
// the brokers are learned again from Metadata (a broker dropped after the lost
// answer comes back on a new connection) and the coordinator is looked up again,
// and again while it moves (internal/kafka/wire/reask.go).
func (c *Reader) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	if err := c.conn.RefreshBrokers(ctx); err != nil {
		return nil, fmt.Errorf("reconnect to read the offsets back: %w", err)
	}
	r := wire.NewReasker(c.conn)
	for {
		b, err := c.conn.Coordinator(ctx, group)
		if err != nil {
			if wire.Moved(wire.FindCoordinatorErr(err, group)) && r.Wait(ctx) {
				continue
			}
			return nil, fmt.Errorf("find the coordinator of %s: %w", group, err)
		}
		g := &model.GroupObservation{Group: group}
		c.offsetFetch(ctx, b, []*model.GroupObservation{g})
		if g.Error == nil {
			return g.Committed, nil
		}
		if !wire.Moved(g.Error) || c.conn.OnLostBroker(g.Error) || !r.Wait(ctx) {
			return nil, g.Error
		}
	}
}
