package demo

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// settlePoll is how often Start asks whether the live groups are Stable.
const settlePoll = 5 * time.Millisecond

// settle waits until every live group is Stable with exactly one member that
// holds all partitions of its topics, so Start hands out a cluster that does
// not move under the caller.
func (c *Cluster) settle(ctx context.Context, s *seeder) error {
	want := make(map[string]map[string][]int32)
	for _, g := range scenarioGroups() {
		if len(g.live) == 0 {
			continue
		}
		want[g.name] = make(map[string][]int32)
		for _, t := range scenarioTopics() {
			if slices.Contains(g.live, t.name) {
				for p := range t.partitions {
					want[g.name][t.name] = append(want[g.name][t.name], p)
				}
			}
		}
	}
	groups := make([]string, 0, len(want))
	for g := range want {
		groups = append(groups, g)
	}

	// The member's own view first: it has its assignment.
	for _, m := range c.members {
		select {
		case <-m.ready:
		case <-m.done:
			return fmt.Errorf("live member of group %s stopped before joining", m.group)
		case <-ctx.Done():
			return fmt.Errorf("wait for the live member of group %s to join: %w", m.group, context.Cause(ctx))
		}
	}

	// Then the coordinator's.
	tick := time.NewTicker(settlePoll)
	defer tick.Stop()
	for {
		why, err := s.unsettled(ctx, groups, want)
		if err != nil {
			return err
		}
		if why == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for live groups to settle (%s): %w", why, context.Cause(ctx))
		case <-tick.C:
		}
	}
}

// unsettled describes the first live group that is not yet settled, or
// returns "" when all are.
func (s *seeder) unsettled(ctx context.Context, groups []string, want map[string]map[string][]int32) (string, error) {
	descs, err := s.Adm.DescribeGroups(ctx, groups...)
	if err != nil {
		return "", fmt.Errorf("describe live groups %v: %w", groups, err)
	}
	for _, g := range groups {
		d, ok := descs[g]
		switch {
		case !ok:
			return fmt.Sprintf("group %s not described", g), nil
		case d.Err != nil:
			return fmt.Sprintf("group %s: %v", g, d.Err), nil
		case d.State != "Stable" || len(d.Members) != 1:
			return fmt.Sprintf("group %s is %s with %d members", g, d.State, len(d.Members)), nil
		}
		a, ok := d.Members[0].Assigned.AsConsumer()
		if !ok {
			return fmt.Sprintf("group %s: member has no assignment yet", g), nil
		}
		held := map[string][]int32{}
		for _, t := range a.Topics {
			held[t.Topic] = slices.Sorted(slices.Values(t.Partitions))
		}
		for topic, parts := range want[g] {
			if got := held[topic]; !slices.Equal(got, parts) {
				return fmt.Sprintf("group %s: member holds %s %v, want %v", g, topic, got, parts), nil
			}
		}
	}
	return "", nil
}
