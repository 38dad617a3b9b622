package groupread

import (
	"testing"

	"github.com/offsettui/offsettui/internal/kafka/wire"
)

// TestShardProbes: each probe's name maps to the partition it probes. On the real
// cluster the probes' coordinators are the leaders of their partitions
// (TestRealClusterShardProbes).
func TestShardProbes(t *testing.T) {
	probes := shardProbes(50)
	for p, name := range probes {
		if name == "" || wire.OffsetsPartition(name, 50) != int32(p) {
			t.Errorf("probe of partition %d is %q, which maps to %d", p, name, wire.OffsetsPartition(name, 50))
		}
	}
}

// TestMovingShards: a shard moving in either check, or led by another broker in the
// second, makes the listing incomplete; the error says which partitions and why.
func TestMovingShards(t *testing.T) {
	before := shardState{leader: map[int32]int32{0: 1, 1: 2, 2: 3}, moving: map[int32]string{}}
	after := shardState{leader: map[int32]int32{0: 1, 1: 3, 2: 3}, moving: map[int32]string{2: "COORDINATOR_LOAD_IN_PROGRESS"}}
	got := movingShards(before, after)
	if len(got) != 2 || got[1] != "leader 2, then 3" || got[2] != "COORDINATOR_LOAD_IN_PROGRESS" {
		t.Fatalf("moving %v", got)
	}
	if m := movingShards(before, before); len(m) != 0 {
		t.Errorf("settled shards read as moving: %v", m)
	}
	e := movingShardsErr(got)
	want := "list groups: __consumer_offsets partitions 1, 2 were moving (leader 2, then 3): the groups they coordinate may be missing from this snapshot"
	if e.Message != want {
		t.Errorf("error %q\nwant  %q", e.Message, want)
	}
}
