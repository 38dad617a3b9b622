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

	// The member's own view first: sarama has finished SyncGroup.
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
		why, err := s.unsettled(groups, want)
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
func (s *seeder) unsettled(groups []string, want map[string]map[string][]int32) (string, error) {
	descs, err := s.admin.DescribeConsumerGroups(groups)
	if err != nil {
		return "", fmt.Errorf("describe live groups %v: %w", groups, err)
	}
	if len(descs) != len(groups) {
		return fmt.Sprintf("%d of %d groups described", len(descs), len(groups)), nil
	}
	for _, d := range descs {
		if d.State != "Stable" || len(d.Members) != 1 {
			return fmt.Sprintf("group %s is %s with %d members", d.GroupId, d.State, len(d.Members)), nil
		}
		for _, m := range d.Members {
			a, err := m.GetMemberAssignment()
			if err != nil {
				return "", fmt.Errorf("decode assignment of %s in group %s: %w", m.MemberId, d.GroupId, err)
			}
			if a == nil {
				return fmt.Sprintf("group %s: member has no assignment yet", d.GroupId), nil
			}
			for topic, parts := range want[d.GroupId] {
				got := slices.Sorted(slices.Values(a.Topics[topic]))
				if !slices.Equal(got, parts) {
					return fmt.Sprintf("group %s: member holds %s %v, want %v", d.GroupId, topic, got, parts), nil
				}
			}
		}
	}
	return "", nil
}
