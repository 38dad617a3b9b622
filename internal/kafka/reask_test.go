package kafka_test

// A coordinator or a leader that moves (internal/kafka/wire/reask.go,
// internal/kafka/groupread/reask.go) and a group that ListGroups leaves out
// (internal/kafka/groupread/unlisted.go, internal/kafka/groupread/remember.go), on the
// fake cluster: kfake's control functions answer what a real cluster answers while its
// brokers move — NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, NOT_LEADER_OR_FOLLOWER, a
// ListGroups without the group and without an error.

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// movingWorld is a fake cluster with topic t (2 partitions of 5 records) and groups a
// and b committed on it.
func movingWorld(t *testing.T) (*kfake.Cluster, *kafkatest.Seed) {
	t.Helper()
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 2, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	for p := range int32(2) {
		s.ProduceN("t", p, 5, tsAt(time.Now().Unix()))
	}
	s.Commit("a", map[model.TP]int64{{Topic: "t", Partition: 0}: 1, {Topic: "t", Partition: 1}: 2})
	s.Commit("b", map[model.TP]int64{{Topic: "t", Partition: 0}: 3})
	return k, s
}

// answer controls every request of key while on is set: fn makes the reply (nil: kfake
// answers). It counts the requests it saw.
func answer(k *kfake.Cluster, key kmsg.Key, on *atomic.Bool, fn func(kmsg.Request) kmsg.Response) *atomic.Int32 {
	var n atomic.Int32
	k.ControlKey(int16(key), func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		if !on.Load() {
			return nil, nil, false
		}
		n.Add(1)
		if resp := fn(req); resp != nil {
			return resp, nil, true
		}
		return nil, nil, false
	})
	return &n
}

// noGroupsListed is a ListGroups answer without a group and without an error: what a
// broker whose coordinator shards are moving answers.
func noGroupsListed(req kmsg.Request) kmsg.Response {
	resp := req.ResponseKind().(*kmsg.ListGroupsResponse)
	resp.Version = req.GetVersion()
	return resp
}

func committedOf(t *testing.T, g model.Group) map[model.TP]int64 {
	t.Helper()
	out := map[model.TP]int64{}
	for _, p := range g.Partitions {
		if p.Committed != nil {
			out[model.TP{Topic: p.Topic, Partition: p.Partition}] = *p.Committed
		}
	}
	return out
}

func snapshot(t *testing.T, ctx context.Context, cl interface {
	Snapshot(context.Context, model.Query) (model.Snapshot, error)
}, q model.Query) model.Snapshot {
	t.Helper()
	s, err := cl.Snapshot(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hasGroup(s model.Snapshot, name string) bool {
	for _, g := range s.Groups {
		if g.Group == name {
			return true
		}
	}
	return false
}

// TestGroupLeftOutOfListGroupsIsKept: a group of the previous snapshot that ListGroups
// leaves out, with no error, is asked of its coordinator and shown with its numbers; a
// fresh client, with no previous snapshot, cannot know of it (which shows the omission
// is real).
func TestGroupLeftOutOfListGroupsIsKept(t *testing.T) {
	k, _ := movingWorld(t)
	var omit atomic.Bool
	answer(k, kmsg.ListGroups, &omit, noGroupsListed)
	cl := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()
	before := snapshot(t, ctx, cl, model.Query{})
	omit.Store(true)
	after := snapshot(t, ctx, cl, model.Query{})
	for _, name := range []string{"a", "b"} {
		was, is := findGroup(t, before, name), findGroup(t, after, name)
		if is.Error != nil || is.State != was.State || is.Type != was.Type || len(committedOf(t, is)) != len(committedOf(t, was)) {
			t.Errorf("group %s left out of ListGroups: state %q type %q commits %v error %v; the snapshot before: %q %q %v",
				name, is.State, is.Type, committedOf(t, is), is.Error, was.State, was.Type, committedOf(t, was))
		}
		for tp, c := range committedOf(t, was) {
			if committedOf(t, is)[tp] != c {
				t.Errorf("group %s %v: committed %d, before %d", name, tp, committedOf(t, is)[tp], c)
			}
		}
	}
	if fresh := snapshot(t, ctx, newClient(t, k.ListenAddrs(), nil), model.Query{}); hasGroup(fresh, "a") || hasGroup(fresh, "b") {
		t.Errorf("a fresh client saw the groups ListGroups left out: the omission did not happen")
	}
}

// TestLeftOutGroupWhoseCoordinatorFailsIsUnknown: when the coordinator of a group left
// out of ListGroups keeps answering NOT_COORDINATOR, the group is shown unknown with that
// error and says it was listed a moment ago; the coordinator is asked again four times,
// within about 1.5 s.
func TestLeftOutGroupWhoseCoordinatorFailsIsUnknown(t *testing.T) {
	k, _ := movingWorld(t)
	var on atomic.Bool
	answer(k, kmsg.ListGroups, &on, noGroupsListed)
	var asked atomic.Int32 // DescribeGroups naming group a
	answer(k, kmsg.DescribeGroups, &on, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.DescribeGroupsResponse)
		resp.Version = req.GetVersion()
		for _, g := range req.(*kmsg.DescribeGroupsRequest).Groups {
			if g == "a" {
				asked.Add(1)
			}
			dg := kmsg.NewDescribeGroupsResponseGroup()
			dg.Group, dg.ErrorCode = g, kerr.NotCoordinator.Code
			resp.Groups = append(resp.Groups, dg)
		}
		return resp
	})
	cl := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()
	snapshot(t, ctx, cl, model.Query{})
	on.Store(true)
	start := time.Now()
	s := snapshot(t, ctx, cl, model.Query{})
	took := time.Since(start)
	g := findGroup(t, s, "a")
	if g.Error == nil || g.Error.Code == nil || *g.Error.Code != "NOT_COORDINATOR" ||
		!strings.Contains(g.Error.Message, "listed in the previous one") || g.WorstStatus != model.StatusUnknown || g.Members != nil {
		t.Errorf("group a: error %v worst %s members %v; want unknown, NOT_COORDINATOR, saying it was listed before, members null",
			g.Error, g.WorstStatus, g.Members)
	}
	if n := asked.Load(); n != 5 || took > 4*time.Second || took < 1500*time.Millisecond {
		t.Errorf("DescribeGroups asked %d times in %v; want 5 (once and four re-asks, 1.5 s apart in all)", n, took)
	}
}

// TestDeletedGroupGoesAfterItsCoordinatorSaysSoForTenSeconds: a group deleted (by another
// client) since the previous snapshot is shown gone — state Dead, GROUP_ID_NOT_FOUND, no
// problem, never an error of the broker — until its coordinator has said so for 10 s (a
// coordinator that has just moved can say so for a moment), then left out. It read as
// "ERROR broker", lag unknown, counted with the problems.
func TestDeletedGroupGoesAfterItsCoordinatorSaysSoForTenSeconds(t *testing.T) {
	k, s := movingWorld(t)
	var (
		mu  sync.Mutex
		now = time.Now()
	)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	cl := newClient(t, k.ListenAddrs(), clock)
	ctx := context.Background()
	snapshot(t, ctx, cl, model.Query{})
	if _, err := s.Adm.DeleteGroup(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, ctx, cl, model.Query{})
	g := findGroup(t, after, "b")
	if g.Error == nil || g.Error.Code == nil || *g.Error.Code != "GROUP_ID_NOT_FOUND" || !g.Gone() || g.State != "Dead" || g.HasProblem() {
		t.Fatalf("group b just deleted: error %v state %q gone %v problem %v; want gone (Dead, GROUP_ID_NOT_FOUND), no problem",
			g.Error, g.State, g.Gone(), g.HasProblem())
	}
	mu.Lock()
	now = now.Add(9 * time.Second)
	mu.Unlock()
	if !hasGroup(snapshot(t, ctx, cl, model.Query{}), "b") {
		t.Errorf("group b left out 9 s after its coordinator first said it does not exist; want it kept until 10 s")
	}
	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	if last := snapshot(t, ctx, cl, model.Query{}); hasGroup(last, "b") || !hasGroup(last, "a") {
		t.Errorf("11 s on: group b shown %v, a shown %v; want b gone, a kept", hasGroup(last, "b"), hasGroup(last, "a"))
	}
}

// TestOwnDeletedGroupLeavesAtOnce: a group this client deleted (delete-group, the TUI's
// planner) is left out of its next snapshot at once: it is no group gone missing to ask
// about for 10 s.
func TestOwnDeletedGroupLeavesAtOnce(t *testing.T) {
	k, _ := movingWorld(t)
	cl := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()
	snapshot(t, ctx, cl, model.Query{})
	if rejected, err := cl.DeleteGroup(ctx, "b", []model.TP{{Topic: "t", Partition: 0}}); err != nil || len(rejected) > 0 {
		t.Fatalf("delete b: %v %v", rejected, err)
	}
	if s := snapshot(t, ctx, cl, model.Query{}); hasGroup(s, "b") || !hasGroup(s, "a") {
		t.Errorf("the snapshot after deleting b: b shown %v, a shown %v; want b left out, a kept", hasGroup(s, "b"), hasGroup(s, "a"))
	}
}

// failTimes answers the first n requests of key (while on) with what fail makes of
// them, and counts every request.
func failTimes(k *kfake.Cluster, key kmsg.Key, n int32, fail func(kmsg.Request) kmsg.Response) *atomic.Int32 {
	var on atomic.Bool
	on.Store(true)
	var seen atomic.Int32
	answer(k, key, &on, func(req kmsg.Request) kmsg.Response {
		if seen.Add(1) > n {
			return nil
		}
		return fail(req)
	})
	return &seen
}

// notCoordinatorFetch answers an OffsetFetch with NOT_COORDINATOR for every group.
func notCoordinatorFetch(req kmsg.Request) kmsg.Response {
	resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
	resp.Version = req.GetVersion()
	for _, g := range req.(*kmsg.OffsetFetchRequest).Groups {
		rg := kmsg.NewOffsetFetchResponseGroup()
		rg.Group, rg.ErrorCode = g.Group, kerr.NotCoordinator.Code
		resp.Groups = append(resp.Groups, rg)
	}
	return resp
}

// TestMovedCoordinatorIsAskedAgain: committed offsets answered NOT_COORDINATOR (the
// coordinator moved between ListGroups and OffsetFetch) are asked again of the
// coordinator FindCoordinator names now, and shown whole; one that keeps answering so
// leaves its groups unknown, members null, after four re-asks.
func TestMovedCoordinatorIsAskedAgain(t *testing.T) {
	t.Run("once", func(t *testing.T) {
		k, _ := movingWorld(t)
		asked := failTimes(k, kmsg.OffsetFetch, 2, notCoordinatorFetch)
		s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
		a := findGroup(t, s, "a")
		if a.Error != nil || a.TotalLag == nil || *a.TotalLag != 4+3 || asked.Load() < 3 {
			t.Errorf("group a: error %v total lag %v after %d OffsetFetch; want read again, lag 7", a.Error, val(a.TotalLag), asked.Load())
		}
	})
	t.Run("persistent", func(t *testing.T) {
		k, _ := movingWorld(t)
		failTimes(k, kmsg.OffsetFetch, 1<<30, notCoordinatorFetch)
		start := time.Now()
		s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
		took := time.Since(start)
		a := findGroup(t, s, "a")
		if a.Error == nil || a.Error.Code == nil || *a.Error.Code != "NOT_COORDINATOR" || a.WorstStatus != model.StatusUnknown || a.TotalLag != nil {
			t.Errorf("group a: error %v worst %s lag %v; want unknown with NOT_COORDINATOR", a.Error, a.WorstStatus, val(a.TotalLag))
		}
		if took < 1500*time.Millisecond || took > 4*time.Second {
			t.Errorf("took %v; four re-asks wait 1.5 s in all", took)
		}
	})
	t.Run("describe persistent", func(t *testing.T) {
		k, _ := movingWorld(t)
		failTimes(k, kmsg.DescribeGroups, 1<<30, func(req kmsg.Request) kmsg.Response {
			resp := req.ResponseKind().(*kmsg.DescribeGroupsResponse)
			resp.Version = req.GetVersion()
			for _, g := range req.(*kmsg.DescribeGroupsRequest).Groups {
				dg := kmsg.NewDescribeGroupsResponseGroup()
				dg.Group, dg.ErrorCode = g, kerr.CoordinatorLoadInProgress.Code
				resp.Groups = append(resp.Groups, dg)
			}
			return resp
		})
		s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
		a := findGroup(t, s, "a")
		if a.Error == nil || a.Members != nil || a.WorstStatus != model.StatusUnknown {
			t.Errorf("group a: error %v members %v worst %s; want unknown, members null", a.Error, a.Members, a.WorstStatus)
		}
	})
}

// TestLeaderMovedWatermarksAreAskedAgain: ListOffsets answered NOT_LEADER_OR_FOLLOWER
// (an election) is asked again of the leader a fresh Metadata names, and the partitions
// are read.
func TestLeaderMovedWatermarksAreAskedAgain(t *testing.T) {
	k, _ := movingWorld(t)
	asked := failTimes(k, kmsg.ListOffsets, 1, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.ListOffsetsResponse)
		resp.Version = req.GetVersion()
		for _, rt := range req.(*kmsg.ListOffsetsRequest).Topics {
			st := kmsg.NewListOffsetsResponseTopic()
			st.Topic = rt.Topic
			for _, rp := range rt.Partitions {
				sp := kmsg.NewListOffsetsResponseTopicPartition()
				sp.Partition, sp.ErrorCode = rp.Partition, kerr.NotLeaderForPartition.Code
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp
	})
	s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
	for _, name := range []string{"a", "b"} {
		g := findGroup(t, s, name)
		if g.WorstStatus == model.StatusUnknown || g.TotalLag == nil {
			t.Errorf("group %s: worst %s lag %v after %d ListOffsets; want read again", name, g.WorstStatus, val(g.TotalLag), asked.Load())
		}
	}
}

// TestLoadingBrokerListGroupsIsAskedAgain: a broker loading a coordinator shard answers
// ListGroups COORDINATOR_LOAD_IN_PROGRESS; it is asked again, and its groups are listed
// (no previous snapshot to remember them from).
func TestLoadingBrokerListGroupsIsAskedAgain(t *testing.T) {
	k, _ := movingWorld(t)
	failTimes(k, kmsg.ListGroups, 3, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.ListGroupsResponse)
		resp.Version, resp.ErrorCode = req.GetVersion(), kerr.CoordinatorLoadInProgress.Code
		return resp
	})
	s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
	if !hasGroup(s, "a") || !hasGroup(s, "b") || len(s.Errors) != 0 {
		t.Errorf("groups a %v b %v, errors %v; want both listed, no error", hasGroup(s, "a"), hasGroup(s, "b"), s.Errors)
	}
}

// TestNamedGroupLeftOutIsAskedAgainBeforeNotFound: `describe --group a` while ListGroups
// leaves a out and its coordinator at first says it does not exist (a coordinator that
// has just moved, reading at a trailing high watermark): asked again, a is found, with
// its commits, never "does not exist".
func TestNamedGroupLeftOutIsAskedAgainBeforeNotFound(t *testing.T) {
	k, _ := movingWorld(t)
	var omit atomic.Bool
	omit.Store(true)
	answer(k, kmsg.ListGroups, &omit, noGroupsListed)
	failTimes(k, kmsg.DescribeGroups, 2, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.DescribeGroupsResponse)
		resp.Version = req.GetVersion()
		for _, g := range req.(*kmsg.DescribeGroupsRequest).Groups {
			dg := kmsg.NewDescribeGroupsResponseGroup()
			dg.Group, dg.State = g, "Dead"
			resp.Groups = append(resp.Groups, dg)
		}
		return resp
	})
	s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{Groups: []string{"a"}})
	a := findGroup(t, s, "a")
	if a.Error != nil || a.State != "Empty" || len(committedOf(t, a)) != 2 {
		t.Errorf("group a: state %q error %v commits %v; want Empty with its two commits", a.State, a.Error, committedOf(t, a))
	}
}

// TestConfigsFromTheNextBrokerWhenOneClosesTheConnection: the broker asked for the
// topics' configs closes the connection (shutting down): the next broker is asked, and
// the statuses that need retention are read.
func TestConfigsFromTheNextBrokerWhenOneClosesTheConnection(t *testing.T) {
	k, _ := movingWorld(t)
	var closed atomic.Int32
	k.ControlKey(int16(kmsg.DescribeConfigs), func(kmsg.Request) (kmsg.Response, error, bool) {
		closed.Add(1)
		return nil, errors.New("shutting down"), true
	})
	s := snapshot(t, context.Background(), newClient(t, k.ListenAddrs(), nil), model.Query{})
	if closed.Load() != 1 || len(s.Topics) != 1 || s.Topics[0].Error != nil || s.Topics[0].RetentionMs == nil {
		t.Errorf("connection closed %d times; topics %+v; want the configs read from the next broker", closed.Load(), s.Topics)
	}
	for _, e := range s.Errors {
		if strings.Contains(e.Message, "describe configs") {
			t.Errorf("error %v; want the configs read from the next broker", e.Error())
		}
	}
}
