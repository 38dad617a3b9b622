package groupread

import "testing"

// TestGroupPartition: the partition of a group is Kafka's abs(groupId.hashCode()) %
// partitions, with Java's String.hashCode (values well known from Java) and Utils.abs
// (Math.abs, 0 for Integer.MIN_VALUE, which "polygenelubricants" hashes to). On the real
// cluster the probes' coordinators are the leaders of their partitions
// (TestRealClusterShardProbes).
func TestGroupPartition(t *testing.T) {
	for _, c := range []struct {
		group string
		n     int
		want  int32
	}{
		{"abc", 50, 96354 % 50},
		{"hello", 50, 99162322 % 50},
		{"polygenelubricants", 50, 0},
		{"Aa", 7, 2112 % 7}, // "Aa" and "BB" collide in Java
		{"BB", 7, 2112 % 7},
		{"", 50, 0},
		{"offsettui-shard-probe-0", 6, 2}, // hashCode -727707860: Math.abs gives 2, the sign bit cleared 0
		{"€", 50, 0x20AC % 50},            // one UTF-16 unit
		{"😀", 50, (0xD83D*31 + 0xDE00) % 50},
	} {
		if got := groupPartition(c.group, c.n); got != c.want {
			t.Errorf("groupPartition(%q, %d) = %d, want %d", c.group, c.n, got, c.want)
		}
	}
	probes := shardProbes(50)
	for p, name := range probes {
		if name == "" || groupPartition(name, 50) != int32(p) {
			t.Errorf("probe of partition %d is %q, which maps to %d", p, name, groupPartition(name, 50))
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
