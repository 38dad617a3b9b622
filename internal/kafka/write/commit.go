package write

import (
	"context"
	"fmt"
	"strings"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// CommitOffsets commits offsets for group in the admin form: generation −1 and no
// member id, so offsettui never joins the group, and the broker itself rejects
// the write if the group has members. Each partition's error in the response is
// returned (sarama reports them inside the response with a nil error); err is set
// only when the request as a whole failed, and then nothing is known to be written.
func (c *Writer) CommitOffsets(ctx context.Context, group string, offsets map[model.TP]int64) (rejected []model.Error, err error) {
	if len(offsets) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "commit offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := &sarama.OffsetCommitRequest{Version: 8, ConsumerGroup: group, ConsumerGroupGeneration: -1,
			ConsumerID: "", RetentionTime: -1}
		for tp, off := range offsets {
			// Leader epoch -1 ("unknown"), as Kafka's own tools write it: a stored epoch
			// of 0 would make KIP-320 consumers validate their position against epoch 0
			// and possibly "detect truncation" on partitions whose leader changed. The
			// metadata tells offsettui's own writes from a committer's (model.OwnCommitMetadata).
			req.AddBlockWithLeaderEpoch(tp.Topic, tp.Partition, off, -1, 0, model.OwnCommitMetadata)
		}
		resp, err := wire.CallOnce(ctx, c.conn, b, func() (*sarama.OffsetCommitResponse, error) { return b.CommitOffset(req) })
		if err != nil {
			return nil, err
		}
		return rejections(group, model.SortedTPs(offsets), func(tp model.TP) (*model.Error, bool) {
			k, ok := resp.Errors[tp.Topic][tp.Partition]
			switch {
			case !ok || k == sarama.ErrNoError:
				return nil, ok
			case k == sarama.ErrUnknownMemberId:
				// Kafka's answer to an admin-form commit on a group with members, for
				// classic and consumer-protocol (KIP-848) groups alike: "the provided
				// member is not known" says nothing an operator can act on.
				return model.Ptr(wire.KerrError(k, "commit rejected: the group has live members, and the broker takes an admin commit only for an empty group")), true
			}
			return model.Ptr(wire.KerrError(k, "commit rejected: "+wire.KerrText(k))), true
		}), nil
	})
}

// writeGroup sends one write of group to its coordinator, within the phase's deadline. A
// coordinator that cannot be found means nothing was sent (plan.ErrNotSent); a request
// that failed as a whole is named by what, and then nothing is known to be written. A
// write every partition of which the coordinator refused because it moved or is loading
// (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS: nothing written) is sent again to the
// coordinator found anew, as FindCoordinator answering COORDINATOR_NOT_AVAILABLE is
// asked again (internal/kafka/wire/reask.go); a write without an answer is not sent again
// by writeGroup (send decides how it is sent: deletegroup.go's may go twice).
func (c *Writer) writeGroup(ctx context.Context, group, what string, send func(context.Context, *sarama.Broker) ([]model.Error, error)) ([]model.Error, error) {
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	r := wire.NewReasker(c.conn)
	for {
		b, err := c.conn.Coordinator(ctx, group)
		if err != nil {
			if wire.Moved(wire.FindCoordinatorErr(err, group)) && r.Wait(ctx) {
				continue
			}
			return nil, fmt.Errorf("%w: find the coordinator of %s: %w", plan.ErrNotSent, group, err)
		}
		rejected, err := send(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", what, group, err)
		}
		if !allMoved(rejected) || !r.Wait(ctx) {
			return rejected, nil
		}
		c.conn.Logf("%s of %s: the coordinator moved (%s); sending it again", what, group, rejected[0].Error())
	}
}

// allMoved reports whether every refusal of a write says its coordinator moved or is
// loading: the write was not applied anywhere.
func allMoved(rejected []model.Error) bool {
	for i := range rejected {
		if e := &rejected[i]; e.Code == nil || !wire.Moved(e) || !strings.Contains(*e.Code, "COORDINATOR") {
			return false
		}
	}
	return len(rejected) > 0
}

// rejections lists the partitions of a write the broker refused, and those its reply left
// out: a partition it did not answer for is treated as not written. errOf returns a
// partition's error (nil: written) and whether the reply answered for it.
func rejections(group string, tps []model.TP, errOf func(model.TP) (*model.Error, bool)) []model.Error {
	var out []model.Error
	for _, tp := range tps {
		e, answered := errOf(tp)
		if !answered {
			e = &model.Error{Kind: model.KindBroker, Message: "the broker's reply left the partition out; treat it as not written"}
		}
		if e != nil {
			out = append(out, *e.WithPartition(tp).WithGroup(group))
		}
	}
	return out
}

// DeleteOffsets deletes group's commits of the partitions (OffsetDelete), as a
// restore does for partitions that had no commit before a reset. A group that does not
// exist has no commits to delete: GROUP_ID_NOT_FOUND deletes nothing and is no refusal.
func (c *Writer) DeleteOffsets(ctx context.Context, group string, tps []model.TP) (rejected []model.Error, err error) {
	if len(tps) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "delete offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := &sarama.DeleteOffsetsRequest{Group: group}
		for _, tp := range tps {
			req.AddPartition(tp.Topic, tp.Partition)
		}
		resp, err := wire.CallOnce(ctx, c.conn, b, func() (*sarama.DeleteOffsetsResponse, error) { return b.DeleteOffsets(req) })
		if err != nil {
			return nil, err
		}
		return rejections(group, tps, func(tp model.TP) (*model.Error, bool) {
			switch resp.ErrorCode {
			case sarama.ErrNoError:
			case sarama.ErrGroupIDNotFound:
				return nil, true
			default:
				return model.Ptr(wire.KerrError(resp.ErrorCode, "delete rejected: "+wire.KerrText(resp.ErrorCode))), true
			}
			k, ok := resp.Errors[tp.Topic][tp.Partition]
			if !ok || k == sarama.ErrNoError {
				return nil, ok
			}
			return model.Ptr(wire.KerrError(k, "delete rejected: "+wire.KerrText(k))), true
		}), nil
	})
}
