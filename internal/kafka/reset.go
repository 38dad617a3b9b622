package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// ErrCannotProveInactive is returned when the group was found nowhere and some
// broker's group listing failed: a live group could be hiding on that broker.
var ErrCannotProveInactive = errors.New("cannot prove the group is inactive")

// ReadPlanInput reads what a reset plan of group needs, in one snapshot pass: the
// group's state (from ListGroups, or from its coordinator when ListGroups left it
// out), members, committed offsets, the partition counts and watermarks of topics
// (every topic with a commit when topics is empty) and, when at is non-zero, the
// first offset at or after that time per partition; a partition whose leader was elected a
// moment ago is waited for while the phase's deadline allows. It fails rather than guess: a
// group found nowhere while some broker's group listing failed could be hiding
// there. A group its coordinator describes is known whatever the other brokers'
// listings did.
func (c *Client) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	obs, err := c.observe(ctx, model.Query{Groups: []string{group}, Topics: topics, WholeTopics: true, WaitForHighWatermarks: true}, at, nil)
	if err != nil {
		return plan.Input{}, err
	}
	if len(obs.Groups) != 1 {
		return plan.Input{}, fmt.Errorf("group %s: expected one group in the snapshot, got %d", group, len(obs.Groups))
	}
	g := obs.Groups[0]
	if len(obs.ListingErrors) > 0 && !g.Listed {
		return plan.Input{}, fmt.Errorf("%w: %s", ErrCannotProveInactive, obs.ListingErrors[0].Error())
	}
	in := plan.Input{
		Group: group, Type: g.Type, RawType: g.RawType, State: g.State, GroupExists: g.Listed, ClusterID: obs.ClusterID,
		AllTopicsVisible: obs.AllTopicsVisible, Members: g.Members, Committed: g.Committed,
		Partitions: map[string]int{}, Offsets: obs.Offsets,
	}
	if g.Error == nil {
		members := g.Members
		if members == nil {
			members = []model.Member{} // described, none: Subscriptions reads nil as not described
		}
		in.Subscriptions = (&model.Group{Type: g.Type, State: g.State, ProtocolType: g.ProtocolType,
			Members: members, Topology: g.Topology}).Subscriptions()
	}
	if g.Type == model.TypeUnknown {
		return in, nil // refused by the plan: nothing more is read of a type offsettui does not know
	}
	if g.Error != nil {
		return plan.Input{}, fmt.Errorf("read group %s: %w", group, g.Error)
	}
	switch g.Type {
	case model.TypeShare:
		for _, e := range g.PartitionErrors {
			return plan.Input{}, fmt.Errorf("read group %s: %s", group, e.Error())
		}
		in.Committed, in.Uninitialized = g.StartOffsets, g.Uninitialized
		in.ShareAutoOffsetReset = g.ShareAutoOffsetReset
		in.Unwritable = c.shareUnwritable(ctx, g.Coordinator)
	case model.TypeStreams:
		if g.Topology != nil {
			in.SourceTopics = g.Topology.SourceTopics()
		}
	}
	in.RetentionMs = map[string]int64{}
	for name, t := range obs.Topics {
		if t.Partitions > 0 {
			in.Partitions[name] = t.Partitions
		}
		if t.Deletes() && t.RetentionMs != nil && *t.RetentionMs >= 0 {
			in.RetentionMs[name] = *t.RetentionMs
		}
	}
	if !at.IsZero() {
		in.TimeOffsets = map[model.TP]int64{}
		for tp, po := range obs.Offsets {
			if po.Error == nil && po.RiskOffset != nil {
				in.TimeOffsets[tp] = *po.RiskOffset
			}
		}
	}
	return in, nil
}

// TargetTimestamps fetches the timestamps of the records at the given offsets
// (within budget bytes), for showing where a reset lands in time.
func (c *Client) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	var topics []string
	for _, w := range want {
		if !slices.Contains(topics, w.Topic) {
			topics = append(topics, w.Topic)
		}
	}
	lay, err := c.metadata(ctx, topics)
	if err != nil {
		return nil
	}
	want = slices.Clone(want) // the budget goes to them in topic and partition order
	slices.SortFunc(want, func(a, b model.TPO) int { return model.CompareTP(a.TP, b.TP) })
	return c.committedTimestamps(ctx, lay, want, budget)
}

// CommitOffsets commits offsets for group in the admin form: generation −1 and no
// member id, so offsettui never joins the group, and the broker itself rejects
// the write if the group has members. Each partition's error in the response is
// returned (sarama reports them inside the response with a nil error); err is set
// only when the request as a whole failed, and then nothing is known to be written.
func (c *Client) CommitOffsets(ctx context.Context, group string, offsets map[model.TP]int64) (rejected []model.Error, err error) {
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
		resp, err := callOnce(ctx, c, b, func() (*sarama.OffsetCommitResponse, error) { return b.CommitOffset(req) })
		if err != nil {
			return nil, err
		}
		return rejections(group, sortedTPs(offsets), func(tp model.TP) (*model.Error, bool) {
			k, ok := resp.Errors[tp.Topic][tp.Partition]
			switch {
			case !ok || k == sarama.ErrNoError:
				return nil, ok
			case k == sarama.ErrUnknownMemberId:
				// Kafka's answer to an admin-form commit on a group with members, for
				// classic and consumer-protocol (KIP-848) groups alike: "the provided
				// member is not known" says nothing an operator can act on.
				return model.Ptr(kerrError(k, "commit rejected: the group has live members, and the broker takes an admin commit only for an empty group")), true
			}
			return model.Ptr(kerrError(k, "commit rejected: "+kerrText(k))), true
		}), nil
	})
}

// writeGroup sends one write of group to its coordinator, within the phase's deadline. A
// coordinator that cannot be found means nothing was sent (plan.ErrNotSent); a request
// that failed as a whole is named by what, and then nothing is known to be written. A
// write every partition of which the coordinator refused because it moved or is loading
// (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS: nothing written) is sent again to the
// coordinator found anew, as FindCoordinator answering COORDINATOR_NOT_AVAILABLE is
// asked again (reask.go); a write without an answer is never sent again.
func (c *Client) writeGroup(ctx context.Context, group, what string, send func(context.Context, *sarama.Broker) ([]model.Error, error)) ([]model.Error, error) {
	ctx, cancel := context.WithTimeout(ctx, c.snapshotBudget())
	defer cancel()
	r := c.reasker()
	for {
		b, err := c.coordinator(ctx, group)
		if err != nil {
			if moved(findCoordinatorErr(err, group)) && r.wait(ctx) {
				continue
			}
			return nil, fmt.Errorf("%w: find the coordinator of %s: %w", plan.ErrNotSent, group, err)
		}
		rejected, err := send(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", what, group, err)
		}
		if !allMoved(rejected) || !r.wait(ctx) {
			return rejected, nil
		}
		c.logf("%s of %s: the coordinator moved (%s); sending it again", what, group, rejected[0].Error())
	}
}

// allMoved reports whether every refusal of a write says its coordinator moved or is
// loading: the write was not applied anywhere.
func allMoved(rejected []model.Error) bool {
	for i := range rejected {
		if e := &rejected[i]; e.Code == nil || !movedCodes[*e.Code] || !strings.Contains(*e.Code, "COORDINATOR") {
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
func (c *Client) DeleteOffsets(ctx context.Context, group string, tps []model.TP) (rejected []model.Error, err error) {
	if len(tps) == 0 {
		return nil, nil
	}
	return c.writeGroup(ctx, group, "delete offsets", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := &sarama.DeleteOffsetsRequest{Group: group}
		for _, tp := range tps {
			req.AddPartition(tp.Topic, tp.Partition)
		}
		resp, err := callOnce(ctx, c, b, func() (*sarama.DeleteOffsetsResponse, error) { return b.DeleteOffsets(req) })
		if err != nil {
			return nil, err
		}
		return rejections(group, tps, func(tp model.TP) (*model.Error, bool) {
			switch resp.ErrorCode {
			case sarama.ErrNoError:
			case sarama.ErrGroupIDNotFound:
				return nil, true
			default:
				return model.Ptr(kerrError(resp.ErrorCode, "delete rejected: "+kerrText(resp.ErrorCode))), true
			}
			k, ok := resp.Errors[tp.Topic][tp.Partition]
			if !ok || k == sarama.ErrNoError {
				return nil, ok
			}
			return model.Ptr(kerrError(k, "delete rejected: "+kerrText(k))), true
		}), nil
	})
}

// Committed reads group's committed offsets, for the read-back after a commit. It
// starts afresh, so that a commit whose answer was lost can still be read back:
// the brokers are learned again from Metadata (a broker dropped after the lost
// answer comes back on a new connection) and the coordinator is looked up again,
// and again while it moves (reask.go).
func (c *Client) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.snapshotBudget())
	defer cancel()
	if err := c.refreshBrokers(ctx); err != nil {
		return nil, fmt.Errorf("reconnect to read the offsets back: %w", err)
	}
	r := c.reasker()
	for {
		b, err := c.coordinator(ctx, group)
		if err != nil {
			if moved(findCoordinatorErr(err, group)) && r.wait(ctx) {
				continue
			}
			return nil, fmt.Errorf("find the coordinator of %s: %w", group, err)
		}
		g := &model.GroupObservation{Group: group}
		c.offsetFetch(ctx, b, []*model.GroupObservation{g})
		if g.Error == nil {
			return g.Committed, nil
		}
		if !moved(g.Error) || c.onLostBroker(g.Error) || !r.wait(ctx) {
			return nil, g.Error
		}
	}
}
