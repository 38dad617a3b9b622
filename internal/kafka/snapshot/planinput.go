package snapshot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// ErrCannotProveInactive is returned when the group was found nowhere and some
// broker's group listing failed: a live group could be hiding on that broker.
var ErrCannotProveInactive = errors.New("cannot prove the group is inactive")

// ReadPlanInput reads what a reset plan of group needs, in one snapshot pass: the
// group's state (from ListGroups, or from its coordinator when ListGroups left it
// out), members, committed offsets, the partition counts and watermarks of topics
// (every topic with a commit when topics is empty) and, when at is non-zero, the
// first offset at or after that time per partition; a partition whose leader was elected a
// moment ago is waited for while the phase's deadline allows. It fails rather than guess: a
// group found nowhere while some broker's group listing failed could be hiding
// there. A group its coordinator describes is known whatever the other brokers'
// listings did.
func (c *Reader) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	obs, err := c.observe(ctx, model.Query{Groups: []string{group}, Topics: topics, WholeTopics: true, WaitForHighWatermarks: true}, at, nil)
	if err != nil {
		return plan.Input{}, err
	}
	if len(obs.Groups) != 1 {
		return plan.Input{}, fmt.Errorf("group %s: expected one group in the snapshot, got %d", group, len(obs.Groups))
	}
	g := obs.Groups[0]
	if len(obs.ListingErrors) > 0 && !g.Listed {
		return plan.Input{}, fmt.Errorf("%w: %s", ErrCannotProveInactive, obs.ListingErrors[0].Error())
	}
	in := plan.Input{
		Group: group, Type: g.Type, RawType: g.RawType, State: g.State, GroupExists: g.Listed, ClusterID: obs.ClusterID,
		AllTopicsVisible: obs.AllTopicsVisible, Members: g.Members, Committed: g.Committed,
		Partitions: map[string]int{}, Offsets: obs.Offsets,
	}
	if g.Error == nil {
		members := g.Members
		if members == nil {
			members = []model.Member{} // described, none: Subscriptions reads nil as not described
		}
		in.Subscriptions = (&model.Group{Type: g.Type, State: g.State, ProtocolType: g.ProtocolType,
			Members: members, Topology: g.Topology}).Subscriptions()
	}
	if g.Type == model.TypeUnknown {
		return in, nil // refused by the plan: nothing more is read of a type offsettui does not know
	}
	if g.Error != nil {
		return plan.Input{}, fmt.Errorf("read group %s: %w", group, g.Error)
	}
	switch g.Type {
	case model.TypeShare:
		for _, e := range g.PartitionErrors {
			return plan.Input{}, fmt.Errorf("read group %s: %s", group, e.Error())
		}
		in.Committed, in.Uninitialized = g.StartOffsets, g.Uninitialized
		in.ShareAutoOffsetReset = g.ShareAutoOffsetReset
		in.Unwritable = c.groups.ShareUnwritableAt(ctx, g.Coordinator)
	case model.TypeStreams:
		if g.Topology != nil {
			in.SourceTopics = g.Topology.SourceTopics()
		}
	}
	in.RetentionMs = map[string]int64{}
	for name, t := range obs.Topics {
		if t.Partitions > 0 {
			in.Partitions[name] = t.Partitions
		}
		if t.Deletes() && t.RetentionMs != nil && *t.RetentionMs >= 0 {
			in.RetentionMs[name] = *t.RetentionMs
		}
	}
	if !at.IsZero() {
		in.TimeOffsets = map[model.TP]int64{}
		for tp, po := range obs.Offsets {
			if po.Error == nil && po.RiskOffset != nil {
				in.TimeOffsets[tp] = *po.RiskOffset
			}
		}
	}
	return in, nil
}
