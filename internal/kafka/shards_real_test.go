package kafka

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
)

// TestRealClusterShardProbes: on the real three-node cluster (scripts/kafka.sh cluster),
// Kafka's FindCoordinator names, for each shard probe, the leader of the __consumer_offsets
// partition the probe was made for, and checkShards finds every shard settled. It holds the
// cluster as the cluster tests do (realcluster.Get: their lock across test processes, every
// node up and in sync with its preferred leader), so that no bounce of theirs runs beside it.
func TestRealClusterShardProbes(t *testing.T) {
	cl := realcluster.Get(t)
	adm := cl.Adm
	c, err := NewContext(context.Background(), Config{Bootstrap: strings.Split(cl.Bootstrap, ","), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Leaders settle within seconds of the cluster being in sync.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wrong []string
	for attempt := 0; ; attempt++ {
		wrong = nil
		md, err := adm.Metadata(ctx, offsetsTopic)
		if err != nil {
			t.Fatal(err)
		}
		ps := md.Topics[offsetsTopic].Partitions
		probes := shardProbes(len(ps))
		co := adm.FindGroupCoordinators(ctx, probes...)
		for p, name := range probes {
			if got, want := co[name].NodeID, ps[int32(p)].Leader; got != want {
				wrong = append(wrong, name)
			}
		}
		st, ok := c.checkShards(ctx)
		if len(wrong) == 0 && ok && len(st.moving) == 0 && len(st.leader) == len(ps) {
			t.Logf("%d shard probes, each coordinated by its partition's leader; every shard settled (attempt %d)", len(ps), attempt+1)
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("probes coordinated elsewhere than their partitions' leaders: %v; checkShards ok %v, moving %v", wrong, ok, st.moving)
		}
		time.Sleep(time.Second)
	}
}
