package write

// Writing share-group start offsets, as kafka-share-groups.sh --reset-offsets does:
// AlterShareGroupOffsets to set them, DeleteShareGroupOffsets to drop a topic's, and
// DescribeShareGroupOffsets to read them back (internal/kafka/groupread/share_start.go). The broker takes them only for a share group
// without members (else NON_EMPTY_GROUP), and offsettui never joins the group.

import (
	"context"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// AlterShareOffsets sets share-group start offsets (AlterShareGroupOffsets). As
// CommitOffsets, it returns each partition the broker refused or left out of its reply;
// err is set only when the request as a whole failed, and then nothing is known to be
// written.
func (c *Writer) AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) (rejected []model.Error, err error) {
	if len(offsets) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "alter share-group offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := kmsg.NewPtrAlterShareGroupOffsetsRequest()
		req.GroupID = group
		byTopic := map[string]*kmsg.AlterShareGroupOffsetsRequestTopic{}
		for _, tp := range model.SortedTPs(offsets) {
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
		raw, err := c.conn.KgoWrite(ctx, b, req)
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
		return rejections(group, model.SortedTPs(offsets), func(tp model.TP) (*model.Error, bool) {
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
		return wire.CodeError(code, "rejected: the share group has live members, and the broker takes start offsets only for an empty share group")
	}
	return wire.CodeError(code, "rejected: "+wire.OrText(model.Deref(msg), wire.CodeText(code)))
}

// DeleteShareOffsets deletes the share-group start offsets of whole topics
// (DeleteShareGroupOffsets works per topic); each refused topic's error, or a topic the
// reply left out, is returned for every partition of tps in it.
func (c *Writer) DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) (rejected []model.Error, err error) {
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
		raw, err := c.conn.KgoWrite(ctx, b, req)
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
