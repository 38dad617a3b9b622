package groupread

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealClusterShardProbes: on the real three-node cluster (scripts/kafka.sh cluster),
// Kafka's FindCoordinator names, for each shard probe, the leader of the __consumer_offsets
// partition the probe was made for, and checkShards finds every shard settled. It holds the
// cluster as the cluster tests do (realcluster.Get: their lock across test processes, every
// node up and in sync with its preferred leader), so that no bounce of theirs runs beside it.
func TestRealClusterShardProbes(t *testing.T) {
	cl := realcluster.Get(t)
	adm := cl.Adm
	conn, err := wire.Dial(context.Background(), wire.Config{Bootstrap: strings.Split(cl.Bootstrap, ","), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := New(conn)
	// Leaders settle within seconds of the cluster being in sync. A cluster no group has
	// used yet has no __consumer_offsets: asking for a group's coordinator makes Kafka
	// create it, and its metadata lists it once its partitions are led.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	adm.FindGroupCoordinators(ctx, realkafka.Name("shards"))
	var wrong []string
	var moving map[int32]string
	var shardsOK bool
	for attempt := 1; ; attempt++ {
		wrong, moving, shardsOK = nil, nil, false
		actx, acancel := context.WithTimeout(ctx, 5*time.Second)
		md, err := adm.Metadata(actx, wire.OffsetsTopic)
		acancel()
		ps := md.Topics[wire.OffsetsTopic].Partitions
		if err == nil && md.Topics[wire.OffsetsTopic].Err == nil && len(ps) > 0 {
			probes := shardProbes(len(ps))
			co := adm.FindGroupCoordinators(ctx, probes...)
			for p, name := range probes {
				if got, want := co[name].NodeID, ps[int32(p)].Leader; got != want {
					wrong = append(wrong, name)
				}
			}
			st, ok := c.checkShards(ctx)
			moving, shardsOK = st.moving, ok && len(st.leader) == len(ps)
			if len(wrong) == 0 && shardsOK && len(moving) == 0 {
				t.Logf("%d shard probes, each coordinated by its partition's leader; every shard settled (attempt %d)", len(ps), attempt)
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("after %d attempts: metadata of %s %v (%d partitions); probes coordinated elsewhere than their partitions' leaders: %v; checkShards ok %v, moving %v",
				attempt, wire.OffsetsTopic, err, len(ps), wrong, shardsOK, moving)
		}
		time.Sleep(time.Second)
	}
}
