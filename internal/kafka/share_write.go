package kafka

// Writing share-group start offsets, as kafka-share-groups.sh --reset-offsets does:
// AlterShareGroupOffsets to set them, DeleteShareGroupOffsets to drop a topic's, and
// DescribeShareGroupOffsets to read them back. The broker takes them only for a share group
// without members (else NON_EMPTY_GROUP), and offsettui never joins the group.

import (
	"context"
	"fmt"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ShareUnwritable says why the coordinator of group cannot take share-group start offsets,
// or "" when it can: shareUnwritable of the coordinator found for the name (a share group
// no broker lists yet has one too).
func (c *Client) ShareUnwritable(ctx context.Context, group string) string {
	ctx, cancel := context.WithTimeout(ctx, c.snapshotBudget())
	defer cancel()
	b, err := c.coordinator(ctx, group)
	if err != nil {
		return fmt.Sprintf("could not find the coordinator of %s (%v): a share-group write needs Kafka 4.2 or newer, which only its versions tell", group, err)
	}
	return c.shareUnwritable(ctx, b.ID())
}

// shareUnwritable says why the coordinator cannot take a share-group write (a reset, or the
// undo of a delete), or "" when it can. Kafka 4.1 advertises AlterShareGroupOffsets but
// answers it without writing anything (its kafka-share-groups.sh has no reset yet); 4.2 is
// the first to implement it, and the first with DescribeShareGroupOffsets v1, which is how
// offsettui tells them apart. A coordinator whose versions cannot be learned is refused
// too: it may be a 4.1. A delete is refused with them: its undo sets the start offsets again.
func (c *Client) shareUnwritable(ctx context.Context, coordinator int32) string {
	cannotLearn := func(err error) string {
		return fmt.Sprintf("could not learn the versions of broker %d, the share group's coordinator (%v); "+
			"a share-group reset needs Kafka 4.2 or newer, which only its versions tell", coordinator, err)
	}
	b, err := c.broker(coordinator)
	if err != nil {
		return cannotLearn(err)
	}
	versions, err := c.apiVersions(ctx, b)
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

// AlterShareOffsets sets share-group start offsets (AlterShareGroupOffsets). As
// CommitOffsets, it returns each partition the broker refused or left out of its reply;
// err is set only when the request as a whole failed, and then nothing is known to be
// written.
func (c *Client) AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) (rejected []model.Error, err error) {
	if len(offsets) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "alter share-group offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := kmsg.NewPtrAlterShareGroupOffsetsRequest()
		req.GroupID = group
		byTopic := map[string]*kmsg.AlterShareGroupOffsetsRequestTopic{}
		for _, tp := range sortedTPs(offsets) {
			t := byTopic[tp.Topic]
			if t == nil {
				req.Topics = append(req.Topics, kmsg.NewAlterShareGroupOffsetsRequestTopic())
				t = &req.Topics[len(req.Topics)-1]
				t.Topic = tp.Topic
				byTopic[tp.Topic] = t
			}
			p := kmsg.NewAlterShareGroupOffsetsRequestTopicPartition()
			p.Partition, p.StartOffset = tp.Partition, offsets[tp]
			t.Partitions = append(t.Partitions, p)
		}
		raw, err := c.kgoWrite(ctx, b, req)
		if err != nil {
			return nil, err
		}
		resp := raw.(*kmsg.AlterShareGroupOffsetsResponse)
		got := map[model.TP]kmsg.AlterShareGroupOffsetsResponseTopicPartition{}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				got[model.TP{Topic: t.Topic, Partition: p.Partition}] = p
			}
		}
		return rejections(group, sortedTPs(offsets), func(tp model.TP) (*model.Error, bool) {
			if resp.ErrorCode != 0 {
				return model.Ptr(shareWriteErr(resp.ErrorCode, resp.ErrorMessage)), true
			}
			p, ok := got[tp]
			if !ok || p.ErrorCode == 0 {
				return nil, ok
			}
			return model.Ptr(shareWriteErr(p.ErrorCode, p.ErrorMessage)), true
		}), nil
	})
}

// shareWriteErr words a refused share-group write; NON_EMPTY_GROUP is the broker's answer
// when the group has members.
func shareWriteErr(code int16, msg *string) model.Error {
	if code == kerr.NonEmptyGroup.Code {
		return codeError(code, "rejected: the share group has live members, and the broker takes start offsets only for an empty share group")
	}
	return codeError(code, "rejected: "+orText(model.Deref(msg), codeText(code)))
}

// DeleteShareOffsets deletes the share-group start offsets of whole topics
// (DeleteShareGroupOffsets works per topic); each refused topic's error, or a topic the
// reply left out, is returned for every partition of tps in it.
func (c *Client) DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) (rejected []model.Error, err error) {
	if len(tps) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "delete share-group offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		var topics []string
		for _, tp := range tps {
			if !slices.Contains(topics, tp.Topic) {
				topics = append(topics, tp.Topic)
			}
		}
		slices.Sort(topics)
		req := kmsg.NewPtrDeleteShareGroupOffsetsRequest()
		req.GroupID = group
		for _, t := range topics {
			rt := kmsg.NewDeleteShareGroupOffsetsRequestTopic()
			rt.Topic = t
			req.Topics = append(req.Topics, rt)
		}
		raw, err := c.kgoWrite(ctx, b, req)
		if err != nil {
			return nil, err
		}
		resp := raw.(*kmsg.DeleteShareGroupOffsetsResponse)
		got := map[string]kmsg.DeleteShareGroupOffsetsResponseTopic{}
		for _, t := range resp.Topics {
			got[t.Topic] = t
		}
		return rejections(group, tps, func(tp model.TP) (*model.Error, bool) {
			if resp.ErrorCode != 0 {
				return model.Ptr(shareWriteErr(resp.ErrorCode, resp.ErrorMessage)), true
			}
			t, ok := got[tp.Topic]
			if !ok || t.ErrorCode == 0 {
				return nil, ok
			}
			return model.Ptr(shareWriteErr(t.ErrorCode, t.ErrorMessage)), true
		}), nil
	})
}

// ShareStartOffsets reads a share group's start offsets (for the read-back after a write),
// after a fresh Metadata answer, as Committed does; partitions without one are left out,
// and a group that does not exist (deleted) has none.
func (c *Client) ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.snapshotBudget())
	defer cancel()
	if err := c.refreshBrokers(ctx); err != nil {
		return nil, fmt.Errorf("reconnect to read the offsets back: %w", err)
	}
	b, err := c.coordinator(ctx, group)
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
