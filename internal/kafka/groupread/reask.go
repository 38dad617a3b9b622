package groupread

import (
	"context"
	"sync"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// ReaskMoved asks again for the groups whose describe or committed offsets failed because
// their coordinator moved, is loading or closed the connection: their coordinators are
// located again (FindCoordinator) and the groups described and offset-fetched afresh,
// until none has such a failure or the re-asks run out. groups[i] is replaced by the
// group as read again. A group whose lookup failed (asked again already, unlisted.go),
// or whose coordinator is still a broker dropped in this snapshot, is left as it is.
func (c *Reader) ReaskMoved(ctx context.Context, groups []*model.GroupObservation, settled map[string]bool) {
	r := wire.NewReasker(c.conn)
	for {
		var again []int
		for i, g := range groups {
			if !settled[g.Group] && (wire.Moved(g.Error) || wire.Moved(g.DescribeError)) {
				again = append(again, i)
			}
		}
		if len(again) == 0 || !r.Wait(ctx) {
			return
		}
		names := make([]string, len(again))
		for k, i := range again {
			names[k] = groups[i].Group
		}
		c.conn.Logf("asking again for %d groups whose coordinator moved", len(names))
		coords, errs := c.conn.FindCoordinators(ctx, names)
		var fresh []*model.GroupObservation
		for _, i := range again {
			g := groups[i]
			if e := errs[g.Group]; e != nil && c.conn.OnLostBroker(e) {
				settled[g.Group] = true // still coordinated by a broker dropped in this snapshot
				continue
			}
			ng := &model.GroupObservation{Group: g.Group, Type: g.Type, RawType: g.RawType, State: g.State,
				ProtocolType: g.ProtocolType, Listed: g.Listed, Coordinator: -1, Members: []model.Member{},
				ShareAutoOffsetReset: g.ShareAutoOffsetReset, Error: errs[g.Group]}
			if b := coords[g.Group]; b != nil {
				ng.Coordinator = b.ID()
			}
			fresh, groups[i] = append(fresh, ng), ng
		}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); c.DescribeGroups(ctx, fresh, coords) }()
		go func() { defer wg.Done(); c.FetchCommitted(ctx, fresh, coords) }()
		wg.Wait()
	}
}
