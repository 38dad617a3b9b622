package commitlog

// Committers outside the group (docs/statuses.md#committers-outside-the-group): the records of
// __consumer_offsets show every commit with its time, also a committer's commit of the same
// offset again on an idle partition, which OffsetFetch cannot tell from no commit.

import (
	"context"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Committers outside the group (docs/statuses.md#committers-outside-the-group): the records of
// __consumer_offsets show every commit with its time, also a committer's commit of the same
// offset again on an idle partition, which OffsetFetch cannot tell from no commit.

// CommitsSeen implements reset.CommitHistory: the commits of group (of type typ) its records
// in __consumer_offsets show made while it had no members (model.CommitLog.SeenWithoutMembers);
// none when they cannot be read.
func (c *Reader) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	logs, _ := c.Search(ctx, map[string]model.CommitLogNeed{group: {History: true}}, Options{})
	return logs[group].SeenWithoutMembers(typ, since)
}
