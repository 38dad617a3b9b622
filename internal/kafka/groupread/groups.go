package groupread

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
)

// ListedGroup is one group as ListGroups reported it. RawType is the type as the broker
// wrote it, kept for the message on a type offsettui does not know.
type ListedGroup struct {
	Name, ProtocolType, State, Type, RawType string
	Coordinator                              *sarama.Broker
	Listed                                   bool
	// FindErr is why FindCoordinator could not locate an unlisted group.
	FindErr *model.Error
}

// ListGroups asks every broker for the groups it coordinates (ListGroups v5 gives
// type and state, so no FindCoordinator round is needed). Every consumer, share and
// streams group is kept, and any group of a type offsettui does not know (as
// unknown); classic groups only when they are consumer groups (protocol type
// "consumer" or "" for offsets-only groups), as Kafka's CLI lists them: Kafka
// Connect's worker groups are classic groups of another protocol type.
func (c *Reader) ListGroups(ctx context.Context) ([]ListedGroup, []model.Error) {
	var (
		mu   sync.Mutex
		out  []ListedGroup
		errs []model.Error
	)
	wire.Run(c.conn, c.conn.Brokers(), func(b *sarama.Broker) {
		var (
			resp *sarama.ListGroupsResponse
			err  error
		)
		// A broker loading a coordinator shard answers COORDINATOR_LOAD_IN_PROGRESS for
		// all its groups: asked again (internal/kafka/wire/reask.go) rather than leaving them all out.
		for r := wire.NewReasker(c.conn); ; {
			resp, err = wire.Call(ctx, c.conn, b, func() (*sarama.ListGroupsResponse, error) {
				return b.ListGroups(&sarama.ListGroupsRequest{Version: 5})
			})
			if err == nil && resp.Err != sarama.ErrNoError {
				err = resp.Err
			}
			if err == nil || resp == nil || !wire.MovedKError(resp.Err) || !r.Wait(ctx) {
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			e := wire.BrokerErr(err, b.ID(), "list groups")
			e.Message += " (groups coordinated by this broker are not shown)"
			errs = append(errs, e)
			return
		}
		for name, pt := range resp.Groups {
			lg := ListedGroup{Name: name, ProtocolType: pt, Type: model.TypeClassic, Coordinator: b, Listed: true}
			if d, ok := resp.GroupsData[name]; ok {
				lg.State, lg.RawType, lg.Type = d.GroupState, d.GroupType, model.ParseGroupType(d.GroupType)
			}
			if lg.Type == model.TypeClassic && pt != "consumer" && pt != "" {
				continue
			}
			out = append(out, lg)
		}
	})
	slices.SortFunc(out, func(a, b ListedGroup) int { return strings.Compare(a.Name, b.Name) })
	return out, errs
}

// DescribeGroups fills members, assignments, protocol and state for every group,
// each type with its own API, one request per kind per coordinator: DescribeGroups
// (classic), ConsumerGroupDescribe (consumer), ShareGroupDescribe (share) and
// StreamsGroupDescribe (streams). A group of a type offsettui does not know is not
// described: its DescribeError says so, so it is never shown with 0 members.
func (c *Reader) DescribeGroups(ctx context.Context, groups []*model.GroupObservation, coord map[string]*sarama.Broker) {
	type batch struct {
		b      *sarama.Broker
		byType map[string][]*model.GroupObservation
	}
	byBroker := map[int32]*batch{}
	var order []*batch
	for _, g := range groups {
		if g.Type == model.TypeUnknown {
			g.DescribeError = (&model.Error{Kind: model.KindUnsupported, Message: fmt.Sprintf(
				"group type %q (ListGroups) is not known to offsettui: not described, not reset", g.RawType)}).WithGroup(g.Group)
			continue
		}
		b := coord[g.Group]
		if b == nil { // not located: its members are unknown, not none
			if g.DescribeError = g.Error; g.DescribeError == nil {
				g.DescribeError = (&model.Error{Kind: model.KindUnreachable, Message: "no coordinator found for the group"}).WithGroup(g.Group)
			}
			continue
		}
		bt := byBroker[b.ID()]
		if bt == nil {
			bt = &batch{b: b, byType: map[string][]*model.GroupObservation{}}
			byBroker[b.ID()] = bt
			order = append(order, bt)
		}
		bt.byType[g.Type] = append(bt.byType[g.Type], g)
	}
	describe := map[string]func(context.Context, *sarama.Broker, []*model.GroupObservation){
		model.TypeClassic:  c.describeClassic,
		model.TypeConsumer: c.describeConsumer,
		model.TypeShare:    c.describeShare,
		model.TypeStreams:  c.describeStreams,
	}
	var jobs []func()
	for _, bt := range order {
		for _, typ := range model.GroupTypes {
			if gs := bt.byType[typ]; len(gs) > 0 {
				jobs = append(jobs, func() { describe[typ](ctx, bt.b, gs) })
			}
		}
	}
	wire.Run(c.conn, jobs, func(f func()) { f() })
}

// pickDescribed chooses, for every group, the entry of a describe reply to use, as Kafka's
// admin client does: a data entry wins over any error entry for the same group, whatever
// the order (Kafka 4.0 answers ConsumerGroupDescribe with the group twice, once with
// GROUP_ID_NOT_FOUND from a coordinator shard that does not own it); with no data entry,
// the first error entry.
func pickDescribed[E any](entries []E, id func(*E) string, code func(*E) int16) map[string]*E {
	out := map[string]*E{}
	for i := range entries {
		e := &entries[i]
		if prev, ok := out[id(e)]; !ok || (code(prev) != 0 && code(e) == 0) {
			out[id(e)] = e
		}
	}
	return out
}

// describeFailed reports why a group's describe entry gives no data, or nil when it does.
// A group left out of the reply, or answered with an error, gets the error; only a group
// no broker listed (it does not exist) may come back GROUP_ID_NOT_FOUND without one.
func describeFailed(g *model.GroupObservation, found bool, code int16, msg *string, api string) *model.Error {
	switch {
	case !found:
		return (&model.Error{Kind: model.KindBroker, Message: api + ": the broker's reply left the group out"}).WithGroup(g.Group)
	case code == 0, !g.Listed && code == kerr.GroupIDNotFound.Code:
		return nil
	}
	text := wire.OrText(model.Deref(msg), wire.CodeText(code))
	if code == kerr.GroupIDNotFound.Code {
		text += fmt.Sprintf(" (the group was listed as a %s group; deleted or converted since?)", g.Type)
	}
	return wire.CodeError(code, api+": "+text).WithGroup(g.Group)
}

// describedGroup is what the describe APIs (DescribeGroups, ConsumerGroupDescribe,
// ShareGroupDescribe, StreamsGroupDescribe) say of one group, read from its reply entry.
type describedGroup struct {
	id                            string
	code                          int16
	msg                           *string
	state, protocol, protocolType string
	topology                      *model.Topology
	// members reads the entry's members; the topology is there for streams tasks.
	members func(*model.Topology) []model.Member
}

// applyDescribed stores a describe reply on the groups asked: a group left out of it, or
// answered with an error, gets the error as its DescribeError (describeFailed); of two
// entries for one group, the one with data wins (pickDescribed). view reads an entry.
func applyDescribed[E any](gs []*model.GroupObservation, entries []E, api string, view func(*E) describedGroup) {
	views := make([]describedGroup, len(entries))
	for i := range entries {
		views[i] = view(&entries[i])
	}
	byName := pickDescribed(views, func(d *describedGroup) string { return d.id }, func(d *describedGroup) int16 { return d.code })
	for _, g := range gs {
		d, found := byName[g.Group]
		var (
			code int16
			msg  *string
		)
		if found {
			code, msg = d.code, d.msg
		}
		if g.DescribeError = describeFailed(g, found, code, msg, api); g.DescribeError != nil {
			continue
		}
		if d.state == "Dead" && g.Listed {
			// Deleted since ListGroups listed it: DescribeGroups before v6 answers so, with no
			// error (v6 and the other describe APIs answer GROUP_ID_NOT_FOUND). Measured on
			// Kafka 4.4.0 and 4.0.0 (internal/kafka/realkafka_gone_test.go).
			g.DescribeError = (&model.Error{Kind: model.KindNotFound, Code: model.Ptr(wire.CodeName(kerr.GroupIDNotFound.Code)),
				Message: api + ": the group is gone: deleted after ListGroups listed it (its coordinator answers state Dead)"}).WithGroup(g.Group)
			continue
		}
		if g.State == "" {
			g.State = d.state
		}
		if g.ProtocolType == "" {
			g.ProtocolType = d.protocolType
		}
		g.Protocol, g.Topology = d.protocol, d.topology
		g.Members = sortedMembers(d.members(d.topology))
	}
}

// describeAllFailed gives every group asked the request's error.
func describeAllFailed(gs []*model.GroupObservation, e model.Error) {
	for _, g := range gs {
		g.DescribeError = e.WithGroup(g.Group)
	}
}

func (c *Reader) describeClassic(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := &sarama.DescribeGroupsRequest{Version: 5}
	for _, g := range gs {
		req.Groups = append(req.Groups, g.Group)
	}
	resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.DescribeGroupsResponse, error) { return b.DescribeGroups(req) })
	if err != nil {
		describeAllFailed(gs, wire.BrokerErr(err, b.ID(), "describe group"))
		return
	}
	applyDescribed(gs, resp.Groups, "describe group", func(d **sarama.GroupDescription) describedGroup {
		return describedGroup{id: (*d).GroupId, code: int16((*d).Err), state: (*d).State, protocol: (*d).Protocol,
			protocolType: (*d).ProtocolType, members: func(*model.Topology) []model.Member { return classicMembers(*d) }}
	})
}

func classicMembers(d *sarama.GroupDescription) []model.Member {
	out := []model.Member{}
	for _, m := range d.Members {
		mem := model.Member{
			MemberRef:    model.MemberRef{MemberID: m.MemberId, ClientID: m.ClientId, Host: m.ClientHost},
			Assignments:  []model.Assignment{},
			Subscription: classicSubscription(d.ProtocolType, m),
		}
		if a, err := m.GetMemberAssignment(); err == nil && a != nil {
			for t, ps := range a.Topics {
				mem.Assignments = append(mem.Assignments, assignment(t, ps))
			}
		}
		out = append(out, sortedMember(mem))
	}
	return sortedMembers(out)
}

func (c *Reader) describeConsumer(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := &sarama.ConsumerGroupDescribeRequest{Version: 1}
	for _, g := range gs {
		req.GroupIDs = append(req.GroupIDs, g.Group)
	}
	resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.ConsumerGroupDescribeResponse, error) { return b.ConsumerGroupDescribe(req) })
	if err != nil {
		describeAllFailed(gs, wire.BrokerErr(err, b.ID(), "describe consumer group"))
		return
	}
	applyDescribed(gs, resp.Groups, "describe consumer group", func(d *sarama.ConsumerGroupDescription) describedGroup {
		return describedGroup{id: d.GroupID, code: int16(d.ErrorCode), msg: d.ErrorMessage, state: d.GroupState, protocol: d.AssignorName,
			members: func(*model.Topology) []model.Member {
				out := []model.Member{}
				for _, m := range d.Members {
					mem := model.Member{MemberRef: model.MemberRef{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost},
						Assignments: []model.Assignment{}, Subscription: consumerSubscription(m.SubscribedTopicNames, m.SubscribedTopicRegex)}
					for _, tp := range m.Assignment.TopicPartitions {
						mem.Assignments = append(mem.Assignments, assignment(tp.TopicName, tp.Partitions))
					}
					out = append(out, sortedMember(mem))
				}
				return out
			}}
	})
}

// assignment is one topic's assigned partitions, sorted (a copy).
func assignment(topic string, ps []int32) model.Assignment {
	ps = slices.Clone(ps)
	slices.Sort(ps)
	return model.Assignment{Topic: topic, Partitions: ps}
}

// sortedMember sorts a member's assignments by topic.
func sortedMember(m model.Member) model.Member {
	slices.SortFunc(m.Assignments, func(a, b model.Assignment) int { return strings.Compare(a.Topic, b.Topic) })
	return m
}

// sortedMembers sorts members by id.
func sortedMembers(ms []model.Member) []model.Member {
	slices.SortFunc(ms, func(a, b model.Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	return ms
}
