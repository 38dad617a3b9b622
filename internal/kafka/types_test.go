package kafka_test

// Group types on the fake cluster (kfake): share groups, which kfake holds, and the
// describe merge and unknown types, made with kfake's request control. Streams groups,
// which kfake does not hold, are tested against a real broker (realkafka_types_test.go).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// shareMember runs a franz-go share-group member polling topic (each poll accepts the
// records of the one before) until the test ends or stop is called.
func shareMember(t *testing.T, addrs []string, group, topic string) (stop func()) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.ShareGroup(group), kgo.ConsumeTopics(topic))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
			cl.Close()
		}
	}
	t.Cleanup(stop)
	return stop
}

// TestShareGroupOnKfake: a live share group is listed and described as a share group with
// its member and assignor, its share.auto.offset.reset (a group config), the start offsets
// of DescribeShareGroupOffsets (never OffsetFetch, which does not know share groups) and
// no offsets expiry; an admin write of start offsets is refused while it has a member and
// taken once it is Empty, and read back.
func TestShareGroupOnKfake(t *testing.T) {
	k := kafkatest.Cluster(t)
	addrs := k.ListenAddrs()
	s := kafkatest.NewSeed(t, addrs)
	if _, err := s.Adm.CreateTopic(context.Background(), 2, 1, nil, "queue"); err != nil {
		t.Fatal(err)
	}
	s.ProduceN("queue", 0, 5, tsAt(1_700_000_000))
	s.SetGroupConfig("jobs", "share.auto.offset.reset", "earliest")
	stop := shareMember(t, addrs, "jobs", "queue")
	c := newClient(t, addrs, nil)
	counter := kafkatest.CountRequests(k, kmsg.OffsetFetch, kmsg.DescribeShareGroupOffsets)
	var g model.Group
	deadline := time.Now().Add(20 * time.Second)
	for {
		snap, err := c.Snapshot(context.Background(), model.Query{})
		if err != nil {
			t.Fatal(err)
		}
		var why string
		if i := slices.IndexFunc(snap.Groups, func(g model.Group) bool { return g.Group == "jobs" }); i < 0 {
			why = "not listed yet"
		} else {
			g = snap.Groups[i]
			p := model.GroupPartition{}
			if j := slices.IndexFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Topic == "queue" && p.Partition == 0 }); j >= 0 {
				p = g.Partitions[j]
			}
			if g.State == "Stable" && len(g.Members) == 1 && val(p.StartOffset()) == int64(5) {
				break
			}
			why = fmt.Sprintf("type %s state %s members %d partition 0 start %s", g.Type, g.State, len(g.Members), text.Num(p.StartOffset()))
		}
		if time.Now().After(deadline) {
			t.Fatalf("share group: %s; want Stable, 1 member, start 5", why)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if g.Type != model.TypeShare || g.ProtocolType != "share" || g.Error != nil || g.ShareAutoOffsetReset == nil || *g.ShareAutoOffsetReset != "earliest" || g.OffsetsExpireAfterMs != nil {
		t.Errorf("group %+v: want type share, protocol type share, no error, share.auto.offset.reset=earliest, no expiry", g)
	}
	if a := g.Members[0].Assignments; len(a) != 1 || a[0].Topic != "queue" || len(a[0].Partitions) != 2 {
		t.Errorf("member assignments %+v, want queue [0 1]", a)
	}
	p := findPartition(t, g, "queue", 0)
	if p.Committed != nil || p.Status != model.StatusOK || p.Member == nil {
		t.Errorf("partition 0: committed %s status %s member %v; want no committed offset, ok, the member", text.Num(p.Committed), p.Status, p.Member)
	}
	if n := counter.Hits(kmsg.OffsetFetch); n != 0 || counter.Hits(kmsg.DescribeShareGroupOffsets) == 0 {
		t.Errorf("OffsetFetch %d, DescribeShareGroupOffsets %d requests; want none and some", n, counter.Hits(kmsg.DescribeShareGroupOffsets))
	}

	ctx := context.Background()
	tp := model.TP{Topic: "queue", Partition: 0}
	rejected, err := c.AlterShareOffsets(ctx, "jobs", map[model.TP]int64{tp: 1})
	if err != nil || len(rejected) != 1 || rejected[0].Code == nil || *rejected[0].Code != "NON_EMPTY_GROUP" || !strings.Contains(rejected[0].Message, "live members") {
		t.Errorf("alter with a live member: rejected %+v err %v; want NON_EMPTY_GROUP naming the live members", rejected, err)
	}
	stop()
	deadline = time.Now().Add(20 * time.Second)
	for {
		rejected, err = c.AlterShareOffsets(ctx, "jobs", map[model.TP]int64{tp: 1})
		if err == nil && len(rejected) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alter once Empty: rejected %+v err %v", rejected, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got, err := c.ShareStartOffsets(ctx, "jobs")
	if err != nil || got[tp] != 1 {
		t.Errorf("read back: %v %v, want queue-0 at 1", got, err)
	}
}

// controlListGroups makes every broker list, besides its own groups, the extra groups
// whose coordinator it is.
func controlListGroups(k *kfake.Cluster, extra ...kmsg.ListGroupsResponseGroup) {
	k.ControlKey(int16(kmsg.ListGroups), func(r kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		resp := r.ResponseKind().(*kmsg.ListGroupsResponse)
		resp.Version = r.GetVersion()
		for _, g := range extra {
			if k.CoordinatorFor(g.Group) == k.CurrentNode() {
				resp.Groups = append(resp.Groups, g)
			}
		}
		return resp, nil, true
	})
}

func listed(name, typ, state string) kmsg.ListGroupsResponseGroup {
	g := kmsg.NewListGroupsResponseGroup()
	g.Group, g.ProtocolType, g.GroupType, g.GroupState = name, strings.ToLower(typ), typ, state
	return g
}

// TestDescribeMergesDuplicateEntries: Kafka 4.0 answers ConsumerGroupDescribe with the
// group twice, once GROUP_ID_NOT_FOUND and once with its data. As in Kafka's admin client,
// the data entry wins in either order; a group answered only with an error keeps the error
// and its members unknown (null), never 0 members.
func TestDescribeMergesDuplicateEntries(t *testing.T) {
	notFound := func() kmsg.ConsumerGroupDescribeResponseGroup {
		g := kmsg.NewConsumerGroupDescribeResponseGroup()
		g.Group, g.ErrorCode = "dup", kerr.GroupIDNotFound.Code
		g.ErrorMessage = kmsg.StringPtr("Group dup not found.")
		return g
	}
	data := func() kmsg.ConsumerGroupDescribeResponseGroup {
		g := kmsg.NewConsumerGroupDescribeResponseGroup()
		g.Group, g.State, g.AssignorName, g.Epoch = "dup", "Stable", "uniform", 3
		m := kmsg.NewConsumerGroupDescribeResponseGroupMember()
		m.MemberID, m.ClientID, m.ClientHost = "m-1", "billing-1", "/10.0.0.7"
		tp := kmsg.NewAssignmentTopicPartition()
		tp.Topic, tp.Partitions = "orders", []int32{1, 0}
		m.Assignment.TopicPartitions = []kmsg.AssignmentTopicPartition{tp}
		g.Members = []kmsg.ConsumerGroupDescribeResponseGroupMember{m}
		return g
	}
	for _, tt := range []struct {
		name    string
		entries []kmsg.ConsumerGroupDescribeResponseGroup
		members bool
	}{
		{"error entry first", []kmsg.ConsumerGroupDescribeResponseGroup{notFound(), data()}, true},
		{"data entry first", []kmsg.ConsumerGroupDescribeResponseGroup{data(), notFound()}, true},
		{"only the error entry", []kmsg.ConsumerGroupDescribeResponseGroup{notFound()}, false},
		{"the group left out", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := kafkatest.Cluster(t)
			// kfake knows the listed group by its commit: else its OffsetFetch answers
			// GROUP_ID_NOT_FOUND, an error for a listed group.
			if err := k.CreateTopic("orders", 2, nil); err != nil {
				t.Fatal(err)
			}
			kafkatest.NewSeed(t, k.ListenAddrs()).Commit("dup", map[model.TP]int64{{Topic: "orders", Partition: 0}: 0})
			controlListGroups(k, listed("dup", "Consumer", "Stable"))
			k.ControlKey(int16(kmsg.ConsumerGroupDescribe), func(r kmsg.Request) (kmsg.Response, error, bool) {
				k.KeepControl()
				resp := r.ResponseKind().(*kmsg.ConsumerGroupDescribeResponse)
				resp.Version, resp.Groups = r.GetVersion(), tt.entries
				return resp, nil, true
			})
			snap, err := newClient(t, k.ListenAddrs(), nil).Snapshot(context.Background(), model.Query{})
			if err != nil {
				t.Fatal(err)
			}
			g := findGroup(t, snap, "dup")
			if tt.members {
				if g.Error != nil || len(g.Members) != 1 || g.Protocol != "uniform" || g.Members[0].Assignments[0].Topic != "orders" {
					t.Errorf("group %+v: want the data entry: 1 member on orders, assignor uniform, no error", g)
				}
				return
			}
			if g.Error == nil || g.Members != nil || display.MembersText(&g) != "members unknown" || g.WorstStatus != model.StatusUnknown {
				t.Errorf("group: error %v members %v (%s) worst %s; want the error, members null (unknown), worst unknown", g.Error, g.Members, display.MembersText(&g), g.WorstStatus)
			}
		})
	}
}

// TestUnknownGroupType: a group of a type offsettui does not know is listed as unknown,
// with its state as the broker gave it, an error naming the broker's type, members
// unknown, and nothing sent about it (no describe, no offset fetch); a reset is refused
// before anything is written.
func TestUnknownGroupType(t *testing.T) {
	k := kafkatest.Cluster(t)
	controlListGroups(k, listed("pipe", "Pipeline", "Flowing"))
	counter := kafkatest.CountRequests(k, kmsg.DescribeGroups, kmsg.ConsumerGroupDescribe, kmsg.OffsetFetch, kmsg.OffsetCommit)
	c := newClient(t, k.ListenAddrs(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	g := findGroup(t, snap, "pipe")
	if g.Type != model.TypeUnknown || g.State != "Flowing" || g.Members != nil || g.Error == nil ||
		g.Error.Kind != model.KindUnsupported || !strings.Contains(g.Error.Message, "Pipeline") {
		t.Errorf("group %+v: want type unknown, state Flowing, members null, an unsupported error naming Pipeline", g)
	}
	in, err := c.ReadPlanInput(context.Background(), "pipe", nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	p := plan.Make(plan.Scope{AllTopics: true}, plan.Strategy{Kind: plan.ToEarliest}, in)
	if p.Executable() || p.Blockers[0].Kind != plan.BlockGroupTypeUnknown {
		t.Errorf("plan blockers %+v, want group-type-unknown", p.Blockers)
	}
	for _, key := range []kmsg.Key{kmsg.DescribeGroups, kmsg.ConsumerGroupDescribe, kmsg.OffsetFetch, kmsg.OffsetCommit} {
		if n := counter.Hits(key); n != 0 {
			t.Errorf("%s: %d requests, want none for a group of an unknown type", kmsg.NameForKey(int16(key)), n)
		}
	}
	t.Logf("shown as: %s %s · %s · %s", display.Noun(g.Type), g.Type, display.StateText(&g), display.MembersText(&g))
}
