package groupread

// A listing of all groups that a moving coordinator shard left incomplete. Kafka's
// ListGroups answers only from the __consumer_offsets partitions its broker has loaded:
// while a partition's leadership moves (a controlled shutdown, a broker fenced after
// kill -9, a preferred election) the groups of that partition are left out for a moment,
// with no error (unlisted.go). A watch remembers the groups it showed (remember.go); a
// one-shot listing has no memory, so it checks the shards instead: before and after
// ListGroups each partition's leader is asked to describe a group that maps to that
// partition, which it answers only from a shard it has loaded (COORDINATOR_LOAD_IN_PROGRESS,
// NOT_COORDINATOR otherwise). A shard that was moving, or whose leader changed between the
// two checks, makes the listing be asked again (reask.go); one still moving when the
// re-asks run out is reported as a listing error, so the snapshot says its groups may be
// missing instead of leaving them out silently.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// shardState is what one check of the coordinator shards found: each partition's leader
// and the partitions whose leader did not answer from a loaded shard, with its answer.
type shardState struct {
	leader map[int32]int32
	moving map[int32]string
}

// ListGroupsSettled is ListGroups for a listing of all groups, asked again while a
// coordinator shard moves under it. When the shards cannot be checked (the topic is not
// visible, its leaders unknown) the listing is what ListGroups said, as before.
func (c *Reader) ListGroupsSettled(ctx context.Context) ([]ListedGroup, []model.Error) {
	r := wire.NewReasker(c.conn)
	for {
		before, okBefore := c.checkShards(ctx)
		listed, errs := c.ListGroups(ctx)
		after, okAfter := c.checkShards(ctx)
		if !okBefore || !okAfter {
			return listed, errs
		}
		moving := movingShards(before, after)
		if len(moving) == 0 {
			return listed, errs
		}
		if !r.Wait(ctx) {
			return listed, append(errs, movingShardsErr(moving))
		}
		c.conn.Logf("ListGroups ran while %d coordinator shards moved (%s); listing again", len(moving), shardList(moving))
	}
}

// movingShards are the partitions moving in either check, or led by another broker in
// the second than in the first.
func movingShards(before, after shardState) map[int32]string {
	out := map[int32]string{}
	for p, why := range before.moving {
		out[p] = why
	}
	for p, why := range after.moving {
		out[p] = why
	}
	for p, l := range after.leader {
		if b, ok := before.leader[p]; ok && b != l {
			if _, ok := out[p]; !ok {
				out[p] = fmt.Sprintf("leader %d, then %d", b, l)
			}
		}
	}
	return out
}

// movingShardsErr is the listing error of shards still moving when the re-asks ran out.
func movingShardsErr(moving map[int32]string) model.Error {
	return model.Error{Kind: model.KindUnreachable, Message: fmt.Sprintf(
		"list groups: %s partitions %s were moving (%s): the groups they coordinate may be missing from this snapshot",
		wire.OffsetsTopic, shardList(moving), moving[slices.Min(shardIDs(moving))])}
}

func shardIDs(m map[int32]string) []int32 {
	ids := make([]int32, 0, len(m))
	for p := range m {
		ids = append(ids, p)
	}
	slices.Sort(ids)
	return ids
}

func shardList(m map[int32]string) string {
	var s []string
	for _, p := range shardIDs(m) {
		s = append(s, fmt.Sprint(p))
	}
	return strings.Join(s, ", ")
}

// checkShards asks each __consumer_offsets partition's leader, one DescribeGroups per
// broker, to describe a group that maps to that partition. ok is false when the check
// could not be made (the topic not visible to the principal, Metadata failed); the shards
// of a leader that did not answer count as moving.
func (c *Reader) checkShards(ctx context.Context) (st shardState, ok bool) {
	lay, err := c.conn.Metadata(ctx, []string{wire.OffsetsTopic})
	n := lay.Partitions[wire.OffsetsTopic]
	if err != nil || n == 0 || lay.TopicErrs[wire.OffsetsTopic] != nil {
		return st, false
	}
	st = shardState{leader: map[int32]int32{}, moving: map[int32]string{}}
	probes := shardProbes(n)
	byLeader := map[int32][]int32{}
	for p := range int32(n) {
		tp := model.TP{Topic: wire.OffsetsTopic, Partition: p}
		l, led := lay.Leader[tp]
		if e := lay.Errs[tp]; e != nil || !led || l < 0 {
			st.moving[p] = "no leader"
			continue
		}
		st.leader[p] = l
		byLeader[l] = append(byLeader[l], p)
	}
	var mu sync.Mutex
	leaders := make([]int32, 0, len(byLeader))
	for l := range byLeader {
		leaders = append(leaders, l)
	}
	wire.Run(c.conn, leaders, func(l int32) {
		parts := byLeader[l]
		b, err := c.conn.Broker(l)
		var resp *sarama.DescribeGroupsResponse
		if err == nil {
			req := &sarama.DescribeGroupsRequest{Version: 5}
			for _, p := range parts {
				req.Groups = append(req.Groups, probes[p])
			}
			resp, err = wire.Call(ctx, c.conn, b, func() (*sarama.DescribeGroupsResponse, error) { return b.DescribeGroups(req) })
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			// A leader that cannot be asked (killed, not yet fenced): its shards may be
			// moving, and a listing that did not reach it cannot say so.
			for _, p := range parts {
				st.moving[p] = fmt.Sprintf("leader %d did not answer", l)
			}
			return
		}
		answered := map[string]sarama.KError{}
		for _, d := range resp.Groups {
			answered[d.GroupId] = d.Err
		}
		for _, p := range parts {
			if k, found := answered[probes[p]]; !found {
				st.moving[p] = "no answer"
			} else if wire.MovedKError(k) {
				st.moving[p] = wire.CodeName(int16(k))
			}
		}
	})
	return st, true
}

// shardProbes names, for each of n partitions, a group Kafka maps to that partition: the
// partition of a group is Utils.abs(groupId.hashCode()) % n, with Java's String.hashCode
// and Kafka's Utils.abs (Math.abs, but 0 for Integer.MIN_VALUE).
func shardProbes(n int) []string {
	out := make([]string, n)
	left := n
	for i := 0; left > 0; i++ {
		name := fmt.Sprintf("offsettui-shard-probe-%d", i)
		if p := wire.OffsetsPartition(name, int32(n)); out[p] == "" {
			out[p] = name
			left--
		}
	}
	return out
}
