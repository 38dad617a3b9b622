package kafka

import (
	"context"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Committers outside the group (docs/statuses.md#committers-outside-the-group): the records of
// __consumer_offsets show every commit with its time, also a committer's commit of the same
// offset again on an idle partition, which OffsetFetch cannot tell from no commit.

// readsCommitLog reports whether a snapshot keeps g's recent commits from its commit log
// (CommitLogOptions.History): a group without members that has committed offsets a client
// outside it could be moving.
func readsCommitLog(g *model.GroupObservation) bool {
	return g.Error == nil && g.DescribeError == nil && len(g.Members) == 0 && len(g.Committed) > 0 &&
		g.Type != model.TypeShare && g.Type != model.TypeUnknown
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
