package snapshot

import (
	"context"

	"github.com/offsettui/offsettui/internal/model"
)

// SnapshotStaged is Snapshot, and it gives listed, first, what is known once
// the groups are listed and described: every group with its state and
// members, marked Loading (model.ListedSnapshot). A screen can show the
// groups while their offsets and the watermarks are still being read. listed
// is called at most once, from another goroutine, before SnapshotStaged
// returns; it is not called when the groups could not be listed.
func (c *Reader) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	obs, err := c.observe(ctx, q, timeNone, listed)
	if err != nil {
		return model.Snapshot{}, err
	}
	return c.assemble(obs, q), nil
}

// listedSender returns the function that gives listed the groups once they
// are described (nothing when listed is nil). It runs while the committed
// offsets are still being fetched into the same groups, so it copies only
// what is set before that starts or by the description itself: never a
// group's Error or Committed, which the fetch writes. obs is a copy taken
// before both start.
func listedSender(obs model.Observation, groups []*model.GroupObservation, listed func(model.Snapshot)) func() {
	if listed == nil {
		return func() {}
	}
	obs.Errors = append([]model.Error(nil), obs.Errors...)
	found := make([]*model.Error, len(groups)) // a FindCoordinator failure, set before the fetch starts
	for i, g := range groups {
		found[i] = g.Error
	}
	return func() {
		obs.Groups = make([]model.GroupObservation, len(groups))
		for i, g := range groups {
			obs.Groups[i] = model.GroupObservation{Group: g.Group, Type: g.Type, RawType: g.RawType, State: g.State,
				ProtocolType: g.ProtocolType, Protocol: g.Protocol, Coordinator: g.Coordinator, Listed: g.Listed,
				Members: g.Members, Topology: g.Topology, DescribeError: g.DescribeError, Error: found[i]}
			if found[i] == nil {
				obs.Groups[i].Error = g.DescribeError
			}
		}
		listed(model.ListedSnapshot(obs))
	}
}
