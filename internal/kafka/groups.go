package kafka

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// listedGroup is one group as ListGroups reported it.
type listedGroup struct {
	name, protocolType, state, typ string
	coordinator                    *sarama.Broker
	listed                         bool
	// findErr is why FindCoordinator could not locate an unlisted group.
	findErr *model.Error
}

// listGroups asks every broker for the groups it coordinates (ListGroups v5 gives
// type and state, so no FindCoordinator round is needed). Only consumer groups are
// kept: protocol type "consumer" or "" (offsets-only), as Kafka's CLI lists them.
func (c *Client) listGroups(ctx context.Context) ([]listedGroup, []model.Error) {
	var (
		mu   sync.Mutex
		out  []listedGroup
		errs []model.Error
	)
	run(ctx, c, c.brokers(), func(b *sarama.Broker) {
		resp, err := call(ctx, c, b, func() (*sarama.ListGroupsResponse, error) {
			return b.ListGroups(&sarama.ListGroupsRequest{Version: 5})
		})
		if err == nil && resp.Err != sarama.ErrNoError {
			err = resp.Err
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			e := brokerErr(err, b.ID(), "list groups")
			e.Message += " (groups coordinated by this broker are not shown)"
			errs = append(errs, e)
			return
		}
		for name, pt := range resp.Groups {
			if pt != "consumer" && pt != "" {
				continue
			}
			lg := listedGroup{name: name, protocolType: pt, typ: "classic", coordinator: b, listed: true}
			if d, ok := resp.GroupsData[name]; ok {
				lg.state = d.GroupState
				if d.GroupType != "" {
					lg.typ = lowerType(d.GroupType)
				}
			}
			out = append(out, lg)
		}
	})
	slices.SortFunc(out, func(a, b listedGroup) int { return strings.Compare(a.name, b.name) })
	return out, errs
}

// findCoordinatorErr is why a group that no broker listed could not be located
// (GROUP_AUTHORIZATION_FAILED reads as denied, with Kafka's code).
func findCoordinatorErr(err error, group string) *model.Error {
	e := toError(err)
	e.Message = "find the group's coordinator: " + e.Message
	return e.WithGroup(group)
}

func lowerType(t string) string {
	switch t {
	case "Classic", "classic":
		return "classic"
	case "Consumer", "consumer":
		return "consumer"
	}
	return t
}

// findGroups locates groups that ListGroups did not report (a group that does not
// exist, or one coordinated by a broker whose listing failed) with FindCoordinator.
func (c *Client) findGroups(ctx context.Context, names []string) []listedGroup {
	var (
		mu  sync.Mutex
		out []listedGroup
	)
	run(ctx, c, names, func(name string) {
		lg := listedGroup{name: name, typ: "classic", state: "Dead"}
		b, err := c.coordinator(ctx, name)
		if err == nil {
			lg.coordinator = b
		} else {
			lg.findErr = findCoordinatorErr(err, name)
		}
		mu.Lock()
		out = append(out, lg)
		mu.Unlock()
	})
	slices.SortFunc(out, func(a, b listedGroup) int { return strings.Compare(a.name, b.name) })
	return out
}

// describeGroups fills members, assignments, protocol and state for every group:
// DescribeGroups for classic groups and ConsumerGroupDescribe for consumer-protocol
// groups, one request of each kind per coordinator.
func (c *Client) describeGroups(ctx context.Context, groups []*model.GroupObservation, coord map[string]*sarama.Broker) {
	type batch struct {
		b        *sarama.Broker
		classic  []*model.GroupObservation
		consumer []*model.GroupObservation
	}
	byBroker := map[int32]*batch{}
	var order []*batch
	for _, g := range groups {
		b := coord[g.Group]
		if b == nil {
			continue
		}
		bt := byBroker[b.ID()]
		if bt == nil {
			bt = &batch{b: b}
			byBroker[b.ID()] = bt
			order = append(order, bt)
		}
		if g.Type == "consumer" {
			bt.consumer = append(bt.consumer, g)
		} else {
			bt.classic = append(bt.classic, g)
		}
	}
	var jobs []func()
	for _, bt := range order {
		if len(bt.classic) > 0 {
			jobs = append(jobs, func() { c.describeClassic(ctx, bt.b, bt.classic) })
		}
		if len(bt.consumer) > 0 {
			jobs = append(jobs, func() { c.describeConsumer(ctx, bt.b, bt.consumer) })
		}
	}
	run(ctx, c, jobs, func(f func()) { f() })
}

func (c *Client) describeClassic(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := &sarama.DescribeGroupsRequest{Version: 5}
	for _, g := range gs {
		req.Groups = append(req.Groups, g.Group)
	}
	resp, err := call(ctx, c, b, func() (*sarama.DescribeGroupsResponse, error) { return b.DescribeGroups(req) })
	if err != nil {
		for _, g := range gs {
			e := brokerErr(err, b.ID(), "describe group")
			g.DescribeError = e.WithGroup(g.Group)
		}
		return
	}
	byName := map[string]*sarama.GroupDescription{}
	for _, d := range resp.Groups {
		byName[d.GroupId] = d
	}
	for _, g := range gs {
		d := byName[g.Group]
		if d == nil {
			continue
		}
		if d.Err != sarama.ErrNoError && d.Err != sarama.ErrGroupIDNotFound {
			e := kerrError(d.Err, "describe group: "+d.Err.Error())
			g.DescribeError = e.WithGroup(g.Group)
			continue
		}
		if g.State == "" {
			g.State = d.State
		}
		g.Protocol = d.Protocol
		if g.ProtocolType == "" {
			g.ProtocolType = d.ProtocolType
		}
		g.Members = classicMembers(d)
	}
}

func classicMembers(d *sarama.GroupDescription) []model.Member {
	out := []model.Member{}
	for _, m := range d.Members {
		mem := model.Member{
			MemberRef:   model.MemberRef{MemberID: m.MemberId, ClientID: m.ClientId, Host: m.ClientHost},
			Assignments: []model.Assignment{},
		}
		if a, err := m.GetMemberAssignment(); err == nil && a != nil {
			for t, ps := range a.Topics {
				ps = slices.Clone(ps)
				slices.Sort(ps)
				mem.Assignments = append(mem.Assignments, model.Assignment{Topic: t, Partitions: ps})
			}
		}
		slices.SortFunc(mem.Assignments, func(a, b model.Assignment) int { return strings.Compare(a.Topic, b.Topic) })
		out = append(out, mem)
	}
	slices.SortFunc(out, func(a, b model.Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	return out
}

func (c *Client) describeConsumer(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := &sarama.ConsumerGroupDescribeRequest{Version: 1}
	for _, g := range gs {
		req.GroupIDs = append(req.GroupIDs, g.Group)
	}
	resp, err := call(ctx, c, b, func() (*sarama.ConsumerGroupDescribeResponse, error) { return b.ConsumerGroupDescribe(req) })
	if err != nil {
		for _, g := range gs {
			e := brokerErr(err, b.ID(), "describe consumer group")
			g.DescribeError = e.WithGroup(g.Group)
		}
		return
	}
	byName := map[string]*sarama.ConsumerGroupDescription{}
	for i := range resp.Groups {
		byName[resp.Groups[i].GroupID] = &resp.Groups[i]
	}
	for _, g := range gs {
		d := byName[g.Group]
		if d == nil {
			continue
		}
		if d.ErrorCode != sarama.ErrNoError && d.ErrorCode != sarama.ErrGroupIDNotFound {
			msg := d.ErrorCode.Error()
			if d.ErrorMessage != nil {
				msg = *d.ErrorMessage
			}
			g.DescribeError = kerrError(d.ErrorCode, "describe consumer group: "+msg).WithGroup(g.Group)
			continue
		}
		if g.State == "" {
			g.State = d.GroupState
		}
		g.Protocol = d.AssignorName
		g.Members = []model.Member{}
		for _, m := range d.Members {
			mem := model.Member{
				MemberRef:   model.MemberRef{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost},
				Assignments: []model.Assignment{},
			}
			for _, tp := range m.Assignment.TopicPartitions {
				ps := slices.Clone(tp.Partitions)
				slices.Sort(ps)
				mem.Assignments = append(mem.Assignments, model.Assignment{Topic: tp.TopicName, Partitions: ps})
			}
			slices.SortFunc(mem.Assignments, func(a, b model.Assignment) int { return strings.Compare(a.Topic, b.Topic) })
			g.Members = append(g.Members, mem)
		}
		slices.SortFunc(g.Members, func(a, b model.Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	}
}
