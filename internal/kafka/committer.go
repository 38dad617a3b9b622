package kafka

import (
	"context"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Committers outside the group (docs/statuses.md#committers-outside-the-group): the records of
// __consumer_offsets show every commit with its time, also a committer's commit of the same
// offset again on an idle partition, which OffsetFetch cannot tell from no commit.

// readsCommitLog reports whether a snapshot reads g's commit log: a group without members
// that has committed offsets a client outside it could be moving.
func readsCommitLog(g *model.GroupObservation) bool {
	return g.Error == nil && g.DescribeError == nil && len(g.Members) == 0 && len(g.Committed) > 0 &&
		g.Type != model.TypeShare && g.Type != model.TypeUnknown
}

// observeCommitLogs reads the commit logs of the groups without members (readsCommitLog),
// within ctx (the snapshot's deadline), into their observations. A principal denied
// __consumer_offsets, or a read cut short, leaves logs that say so: the committers they
// would show are then seen on the time axis only.
func (c *Client) observeCommitLogs(ctx context.Context, groups []*model.GroupObservation) {
	var names []string
	for _, g := range groups {
		if readsCommitLog(g) {
			names = append(names, g.Group)
		}
	}
	if len(names) == 0 {
		return
	}
	logs, _ := c.ReadCommitLog(ctx, names, CommitLogOptions{})
	for _, g := range groups {
		if l, ok := logs[g.Group]; ok && readsCommitLog(g) {
			g.CommitLog = l
		}
	}
}

// CommitsSeen implements reset.CommitHistory: the commits of group (of type typ) its records
// in __consumer_offsets show made while it had no members (model.CommitLog.SeenWithoutMembers);
// none when they cannot be read.
func (c *Client) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	ctx, cancel := context.WithTimeout(ctx, c.snapshotBudget())
	defer cancel()
	logs, _ := c.ReadCommitLog(ctx, []string{group}, CommitLogOptions{})
	return logs[group].SeenWithoutMembers(typ, since)
}
