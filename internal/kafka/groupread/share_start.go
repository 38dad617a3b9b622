package groupread

import (
	"context"
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ShareUnwritable says why the coordinator of group cannot take share-group start offsets,
// or "" when it can: ShareUnwritableAt of the coordinator found for the name (a share group
// no broker lists yet has one too).
func (c *Reader) ShareUnwritable(ctx context.Context, group string) string {
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	b, err := c.conn.Coordinator(ctx, group)
	if err != nil {
		return fmt.Sprintf("could not find the coordinator of %s (%v): a share-group write needs Kafka 4.2 or newer, which only its versions tell", group, err)
	}
	return c.ShareUnwritableAt(ctx, b.ID())
}

// ShareUnwritableAt says why the coordinator cannot take a share-group write (a reset, or the
// undo of a delete), or "" when it can. Kafka 4.1 advertises AlterShareGroupOffsets but
// answers it without writing anything (its kafka-share-groups.sh has no reset yet); 4.2 is
// the first to implement it, and the first with DescribeShareGroupOffsets v1, which is how
// offsettui tells them apart. A coordinator whose versions cannot be learned is refused
// too: it may be a 4.1. A delete is refused with them: its undo sets the start offsets again.
func (c *Reader) ShareUnwritableAt(ctx context.Context, coordinator int32) string {
	cannotLearn := func(err error) string {
		return fmt.Sprintf("could not learn the versions of broker %d, the share group's coordinator (%v); "+
			"a share-group reset needs Kafka 4.2 or newer, which only its versions tell", coordinator, err)
	}
	b, err := c.conn.Broker(coordinator)
	if err != nil {
		return cannotLearn(err)
	}
	versions, err := c.conn.APIVersions(ctx, b)
	if err != nil {
		return cannotLearn(err)
	}
	_, alter := versions[int16(kmsg.AlterShareGroupOffsets)]
	describe, ok := versions[int16(kmsg.DescribeShareGroupOffsets)]
	if !alter || !ok || describe < 1 {
		return fmt.Sprintf("broker %d cannot reset share-group offsets: Kafka 4.1 and older do not implement AlterShareGroupOffsets "+
			"(4.1 advertises it and writes nothing); share-group resets, and deletes (whose undo sets the start offsets again), need Kafka 4.2 or newer", coordinator)
	}
	return ""
}

// ShareStartOffsets reads a share group's start offsets (for the read-back after a write),
// after a fresh Metadata answer, as Committed does; partitions without one are left out,
// and a group that does not exist (deleted) has none.
func (c *Reader) ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	if err := c.conn.RefreshBrokers(ctx); err != nil {
		return nil, fmt.Errorf("reconnect to read the offsets back: %w", err)
	}
	b, err := c.conn.Coordinator(ctx, group)
	if err != nil {
		return nil, fmt.Errorf("find the coordinator of %s: %w", group, err)
	}
	g := &model.GroupObservation{Group: group, Type: model.TypeShare} // not Listed: GROUP_ID_NOT_FOUND is no start offset
	c.fetchShareOffsets(ctx, b, []*model.GroupObservation{g})
	if g.Error != nil {
		return nil, g.Error
	}
	for _, e := range g.PartitionErrors {
		return nil, &e
	}
	return g.StartOffsets, nil
}
