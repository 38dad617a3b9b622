package model

import "slices"

// What a one-shot snapshot's answer uses of a group's records in __consumer_offsets
// (docs/kafka.md "The commit log"): the commit-expiry clock needs the commit times of the
// partitions whose commits may expire in the group's state, and a classic group's Empty
// time; the committers outside the group need the recent commits of a group without
// members. A group that needs none of them is not read (CommitLogNotNeeded).

// CommitLogNeed is what a snapshot reads of one group's records in __consumer_offsets.
type CommitLogNeed struct {
	// Commits lists the partitions whose last commit record the clock counts from, sorted.
	Commits []TP
	// Classic asks for the group's last GroupMetadata record (a classic group that had
	// members: the time it became Empty).
	Classic bool
	// History asks for the commits of the read's window (a group without members: a
	// committer outside the group), back to that window or the group's Empty record.
	History bool
}

// None reports whether nothing of the group's records is needed.
func (n CommitLogNeed) None() bool { return len(n.Commits) == 0 && !n.Classic && !n.History }

// CommitLogNeed returns what a snapshot showing the group's partitions of topics (all of
// them when topics is empty) reads of its records, from what DescribeGroups and OffsetFetch
// said: nothing for a group without commits, a share group or one of a type offsettui does
// not know; the commit times of the partitions the group's expiry rule counts from commit
// time (none while it is Stable with every committed topic subscribed, or rebalancing);
// the Empty time of a classic group that had members and has none; and, for a classic group
// without members, its recent commits (DetectCommitter reads them: a one-shot snapshot has
// no other sign of a committer outside the group).
func (g *GroupObservation) CommitLogNeed(topics []string) CommitLogNeed {
	var n CommitLogNeed
	if len(g.Committed) == 0 || g.Type == TypeShare || g.Type == TypeUnknown || g.DescribeError != nil {
		return n
	}
	members := g.Members
	if members == nil {
		members = []Member{} // described, none: Subscriptions reads nil as not described
	}
	grp := &Group{Type: g.Type, State: g.State, ProtocolType: g.ProtocolType, Members: members, Topology: g.Topology}
	subs := grp.Subscriptions()
	rule := grp.ExpiryRule(subs, true)
	if rule == ExpiryCommitTime || rule == ExpiryEmptyTime || rule == ExpiryUnsubscribed {
		for tp := range g.Committed {
			if len(topics) > 0 && !slices.Contains(topics, tp.Topic) {
				continue
			}
			if rule == ExpiryUnsubscribed && subs.Has(tp.Topic) {
				continue
			}
			n.Commits = append(n.Commits, tp)
		}
		slices.SortFunc(n.Commits, CompareTP)
	}
	alone := len(members) == 0
	n.Classic = g.Type == TypeClassic && g.ProtocolType != "" && alone
	n.History = g.Type == TypeClassic && alone
	return n
}
