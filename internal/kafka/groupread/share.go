package groupread

// Share groups (KIP-932): described with ShareGroupDescribe, their positions are the
// share-partition start offsets of DescribeShareGroupOffsets, and share.auto.offset.reset is
// a group config read with DescribeConfigs. sarama speaks none of the first two; they go
// through franz-go's kgo client (internal/kafka/wire/kgocall.go).

import (
	"context"
	"errors"
	"fmt"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// shareAutoOffsetReset is the group config that says where a share partition without a
// start offset begins (earliest, latest or by_duration:<ISO-8601 duration>).
const shareAutoOffsetReset = "share.auto.offset.reset"

// kgoErr is err from asking broker b for what, with the broker named on it. A request the
// broker does not know says which Kafka version brings it.
func kgoErr(err error, b *sarama.Broker, what, needs string) model.Error {
	e := wire.BrokerErr(err, b.ID(), what)
	if errors.Is(err, wire.ErrUnsupported) {
		e.Message += " (" + needs + ")"
	}
	return e
}

func (c *Reader) describeShare(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := kmsg.NewPtrShareGroupDescribeRequest()
	for _, g := range gs {
		req.GroupIDs = append(req.GroupIDs, g.Group)
	}
	raw, err := c.conn.KgoRead(ctx, b, req)
	if err != nil {
		describeAllFailed(gs, kgoErr(err, b, "describe share group", "share groups need Kafka 4.1 or newer"))
		return
	}
	resp := raw.(*kmsg.ShareGroupDescribeResponse)
	applyDescribed(gs, resp.Groups, "describe share group", func(d *kmsg.ShareGroupDescribeResponseGroup) describedGroup {
		return describedGroup{id: d.GroupID, code: d.ErrorCode, msg: d.ErrorMessage, state: d.GroupState, protocol: d.Assignor,
			members: func(*model.Topology) []model.Member {
				out := []model.Member{}
				for _, m := range d.Members {
					mem := model.Member{MemberRef: model.MemberRef{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost},
						Assignments: []model.Assignment{}}
					for _, tp := range m.Assignment.TopicPartitions {
						mem.Assignments = append(mem.Assignments, assignment(tp.Topic, tp.Partitions))
					}
					out = append(out, sortedMember(mem))
				}
				return out
			}}
	})
}

// fetchShareOffsets reads the start offsets of share groups gs from their coordinator b,
// every topic of each group (DescribeShareGroupOffsets with no topics named). Errors stay on
// the group, or on the partition when only that partition failed.
func (c *Reader) fetchShareOffsets(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
	for _, g := range gs {
		rg := kmsg.NewDescribeShareGroupOffsetsRequestGroup()
		rg.GroupID = g.Group // Topics nil: every topic the group has a share partition of
		req.Groups = append(req.Groups, rg)
	}
	raw, err := c.conn.KgoRead(ctx, b, req)
	if err != nil {
		for _, g := range gs {
			e := kgoErr(err, b, "fetch share-group start offsets", "share groups need Kafka 4.1 or newer")
			g.Error = e.WithGroup(g.Group)
		}
		return
	}
	resp := raw.(*kmsg.DescribeShareGroupOffsetsResponse)
	byName := pickDescribed(resp.Groups, func(d *kmsg.DescribeShareGroupOffsetsResponseGroup) string { return d.GroupID },
		func(d *kmsg.DescribeShareGroupOffsetsResponseGroup) int16 { return d.ErrorCode })
	for _, g := range gs {
		d, found := byName[g.Group]
		if !found || d.ErrorCode != 0 {
			var code int16
			var msg *string
			if found {
				code, msg = d.ErrorCode, d.ErrorMessage
			}
			if e := describeFailed(g, found, code, msg, "fetch share-group start offsets"); e != nil {
				g.Error = e
				continue
			}
		}
		applyShareOffsets(g, d, resp.Version)
	}
}

// applyShareOffsets stores one group's DescribeShareGroupOffsets answer. A negative start
// offset means the share partition has none yet; lag exists from v1 (Kafka 4.2), -1 where
// the broker cannot tell.
func applyShareOffsets(g *model.GroupObservation, d *kmsg.DescribeShareGroupOffsetsResponseGroup, version int16) {
	g.StartOffsets, g.ShareLag, g.PartitionErrors = map[model.TP]int64{}, map[model.TP]int64{}, map[model.TP]model.Error{}
	g.Uninitialized = nil
	if d == nil {
		return
	}
	for _, t := range d.Topics {
		for _, p := range t.Partitions {
			tp := model.TP{Topic: t.Topic, Partition: p.Partition}
			switch {
			case p.ErrorCode != 0:
				text := wire.OrText(model.Deref(p.ErrorMessage), wire.CodeText(p.ErrorCode))
				g.PartitionErrors[tp] = *wire.CodeError(p.ErrorCode, "fetch share-group start offset: "+text).WithPartition(tp).WithGroup(g.Group)
			case p.StartOffset < 0:
				g.Uninitialized = append(g.Uninitialized, tp)
			default:
				g.StartOffsets[tp] = p.StartOffset
				if version >= 1 && p.Lag >= 0 {
					g.ShareLag[tp] = p.Lag
				}
			}
		}
	}
}

// groupConfigResource is DescribeConfigs' resource type for groups (KIP-848 group configs);
// sarama has no constant for it but sends the type as given.
const groupConfigResource sarama.ConfigResourceType = 32

// ShareConfigs reads share.auto.offset.reset of every share group in one DescribeConfigs
// request. A group whose config cannot be read keeps it nil, with the error in the result.
func (c *Reader) ShareConfigs(ctx context.Context, gs []*model.GroupObservation) []model.Error {
	if len(gs) == 0 {
		return nil
	}
	bs := c.conn.Brokers()
	if len(bs) == 0 {
		return []model.Error{{Kind: model.KindUnreachable, Message: "describe group configs: no broker reachable"}}
	}
	b := bs[0]
	req := &sarama.DescribeConfigsRequest{Version: 4}
	for _, g := range gs {
		req.Resources = append(req.Resources, &sarama.ConfigResource{Type: groupConfigResource, Name: g.Group, ConfigNames: []string{shareAutoOffsetReset}})
	}
	resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.DescribeConfigsResponse, error) { return b.DescribeConfigs(req) })
	var errs []model.Error
	if err != nil {
		for _, g := range gs {
			e := wire.BrokerErr(err, b.ID(), "describe the group config "+shareAutoOffsetReset)
			errs = append(errs, *e.WithGroup(g.Group))
		}
		return errs
	}
	byName := map[string]*sarama.ResourceResponse{}
	for _, r := range resp.Resources {
		if r.Type == groupConfigResource {
			byName[r.Name] = r
		}
	}
	for _, g := range gs {
		r := byName[g.Group]
		var e *model.Error
		switch {
		case r == nil:
			e = &model.Error{Kind: model.KindBroker, Message: "describe group configs: the broker's reply left the group out"}
		case r.ErrorCode != 0:
			k := sarama.KError(r.ErrorCode)
			e = model.Ptr(wire.KerrError(k, fmt.Sprintf("describe the group config %s: %s", shareAutoOffsetReset, wire.OrText(r.ErrorMsg, wire.KerrText(k)))))
		default:
			for _, ce := range r.Configs {
				if ce.Name == shareAutoOffsetReset {
					g.ShareAutoOffsetReset = model.Ptr(ce.Value)
				}
			}
			if g.ShareAutoOffsetReset == nil {
				e = &model.Error{Kind: model.KindBroker, Message: "describe group configs: no " + shareAutoOffsetReset + " returned"}
			}
		}
		if e != nil {
			errs = append(errs, *e.WithGroup(g.Group))
		}
	}
	return errs
}
