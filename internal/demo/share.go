package demo

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// GroupMailQueue is an Empty share group (KIP-932) on outbox whose start offset, 20, is
// below the log start of 30: ten records were deleted before the group delivered them. Its
// share.auto.offset.reset is earliest. The fake cluster holds share groups; it does not
// hold streams groups, so the demo has none (docs/demo.md).
const GroupMailQueue = "mail-queue"

// ShareGroups returns the share groups of the scenario and their start offsets, indexed by
// group, topic and partition.
func ShareGroups() map[string]map[string]map[int32]int64 {
	return map[string]map[string]map[int32]int64{GroupMailQueue: {TopicOutbox: {0: 20}}}
}

// ShareAutoOffsetReset is the share.auto.offset.reset group config of each share group.
func ShareAutoOffsetReset() map[string]string {
	return map[string]string{GroupMailQueue: "earliest"}
}

// seedShareGroups makes the share groups (AlterShareGroupOffsets, sent to each group's
// coordinator, creates an Empty share group) and sets their configs.
func (s *seeder) seedShareGroups(ctx context.Context, fake *kfake.Cluster) error {
	for group, topics := range ShareGroups() {
		req := kmsg.NewPtrAlterShareGroupOffsetsRequest()
		req.GroupID = group
		for topic, ps := range topics {
			t := kmsg.NewAlterShareGroupOffsetsRequestTopic()
			t.Topic = topic
			for p, off := range ps {
				rp := kmsg.NewAlterShareGroupOffsetsRequestTopicPartition()
				rp.Partition, rp.StartOffset = p, off
				t.Partitions = append(t.Partitions, rp)
			}
			req.Topics = append(req.Topics, t)
		}
		resp, err := s.Client.Broker(int(fake.CoordinatorFor(group))).RetriableRequest(ctx, req)
		if err != nil {
			return fmt.Errorf("share group %s: %w", group, err)
		}
		if err := shareAnswerErr(resp.(*kmsg.AlterShareGroupOffsetsResponse)); err != nil {
			return fmt.Errorf("share group %s: %w", group, err)
		}
		if err := s.SetGroupConfig(ctx, group, "share.auto.offset.reset", ShareAutoOffsetReset()[group]); err != nil {
			return err
		}
	}
	return nil
}

func shareAnswerErr(r *kmsg.AlterShareGroupOffsetsResponse) error {
	if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
		return err
	}
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return fmt.Errorf("%s-%d: %w", t.Topic, p.Partition, err)
			}
		}
	}
	return nil
}
