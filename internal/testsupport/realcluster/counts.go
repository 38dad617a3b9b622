package realcluster

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// leaderEpochs returns every partition's leader epoch ("topic-partition" → epoch).
func (c *Cluster) leaderEpochs() map[string]int32 {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	m, err := c.Adm.Metadata(ctx)
	if err != nil {
		c.t.Fatalf("metadata: %v", err)
	}
	out := map[string]int32{}
	for _, td := range m.Topics {
		for _, p := range td.Partitions {
			out[fmt.Sprintf("%s-%d", td.Topic, p.Partition)] = p.LeaderEpoch
		}
	}
	return out
}

// controllerEpoch is the KRaft quorum's leader epoch (DescribeQuorum, which a broker
// forwards to the active controller); it grows by one per controller election.
func (c *Cluster) controllerEpoch() int32 {
	epoch, _ := c.Controller()
	return epoch
}

// Controller returns the KRaft quorum's epoch and its leader: the active controller.
func (c *Cluster) Controller() (epoch, leader int32) {
	c.t.Helper()
	var out *kmsg.DescribeQuorumResponse
	c.waitFor(time.Minute, "the controller quorum described", func(ctx context.Context) (bool, string) {
		req := kmsg.NewPtrDescribeQuorumRequest()
		tp := kmsg.NewDescribeQuorumRequestTopic()
		tp.Topic = "__cluster_metadata"
		p := kmsg.NewDescribeQuorumRequestTopicPartition()
		tp.Partitions = append(tp.Partitions, p)
		req.Topics = append(req.Topics, tp)
		resp, err := req.RequestWith(ctx, c.Client)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		if err == nil && (len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1) {
			err = fmt.Errorf("the answer names no __cluster_metadata partition")
		}
		if err == nil {
			err = kerr.ErrorForCode(resp.Topics[0].Partitions[0].ErrorCode)
		}
		if err != nil {
			return false, err.Error()
		}
		out = resp
		return true, ""
	})
	p := out.Topics[0].Partitions[0]
	return p.LeaderEpoch, p.LeaderID
}

// Tally is what a test went through on the cluster.
type Tally struct {
	// Restarts counts nodes started again; Kills those of them stopped with SIGKILL.
	Restarts, Kills int
	// Elections counts partition leader changes (leader epochs gained), of which
	// Coordinator were of __consumer_offsets partitions (group coordinators moving).
	Elections, CoordinatorMoves int
	// ControllerElections counts KRaft controller elections.
	ControllerElections int
}

// Tally counts what the test went through since Get.
func (c *Cluster) Tally() Tally {
	c.t.Helper()
	now := c.leaderEpochs()
	var t Tally
	for tp, e := range now {
		d := int(e - c.epochs[tp])
		t.Elections += d
		if len(tp) > len("__consumer_offsets-") && tp[:len("__consumer_offsets-")] == "__consumer_offsets-" {
			t.CoordinatorMoves += d
		}
	}
	t.ControllerElections = int(c.controllerEpoch() - c.quorumEpoch)
	c.mu.Lock()
	t.Restarts, t.Kills = c.restarts, c.kills
	c.mu.Unlock()
	return t
}

func (t Tally) String() string {
	return fmt.Sprintf("%d restarts (%d after kill -9), %d leader elections (%d of them group coordinators moving), %d controller elections",
		t.Restarts, t.Kills, t.Elections, t.CoordinatorMoves, t.ControllerElections)
}

// OffsetsPartition is the __consumer_offsets partition of a group, as Kafka computes
// it: abs(Java's String.hashCode of the id) mod the partition count.
func OffsetsPartition(group string) int32 {
	var h int32
	for _, r := range group { // Java hashes UTF-16 units; the tests' names are ASCII
		h = 31*h + int32(r)
	}
	if h == -1<<31 {
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % OffsetsPartitions
}

// Coordinator returns the node that coordinates group now (FindCoordinator).
func (c *Cluster) Coordinator(group string) int32 {
	c.t.Helper()
	var id int32
	c.waitFor(time.Minute, "the coordinator of "+group, func(ctx context.Context) (bool, string) {
		r := c.Adm.FindGroupCoordinators(ctx, group)
		d, ok := r[group]
		switch {
		case !ok:
			return false, "no answer"
		case d.Err != nil:
			return false, d.Err.Error()
		}
		id = d.NodeID
		return true, ""
	})
	return id
}

// Leader returns the node that leads a partition now.
func (c *Cluster) Leader(topic string, partition int32) int32 {
	c.t.Helper()
	var id int32
	c.waitFor(time.Minute, fmt.Sprintf("the leader of %s-%d", topic, partition), func(ctx context.Context) (bool, string) {
		m, err := c.Adm.Metadata(ctx, topic)
		if err != nil {
			return false, err.Error()
		}
		p, ok := m.Topics[topic].Partitions[partition]
		if !ok || p.Leader < 0 {
			return false, "no leader"
		}
		id = p.Leader
		return true, ""
	})
	return id
}
