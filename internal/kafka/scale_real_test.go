package kafka_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// scaleReal is the fleet on a real three-node cluster: 10,000 groups and 500,000 rows as
// scale10k, on 40 topics of 50 partitions (2,000 partitions, replication factor 3)
// rather than 400: twenty thousand replicated partitions would outgrow the test nodes.
var scaleReal = scaleSpec{topics: 40, groupsPerTopic: 250, oneGroup: "g5000"}

// TestSeedScaleRealCluster is not a test: with OFFSETTUI_SCALE_SEED_BOOTSTRAP set to a real
// cluster (scripts/kafka.sh cluster), it seeds it with scaleReal — topics created with
// replication factor 3, every partition's records, every group's 50 commits — for
// scripts/bench-process.sh with SCALE_BOOTSTRAP (docs/testing.md).
func TestSeedScaleRealCluster(t *testing.T) {
	addr := os.Getenv("OFFSETTUI_SCALE_SEED_BOOTSTRAP")
	if addr == "" {
		t.Skip("set OFFSETTUI_SCALE_SEED_BOOTSTRAP to seed a real cluster with the fleet")
	}
	start := time.Now()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.MaxBufferedRecords(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	names := make([]string, scaleReal.topics)
	for i := range names {
		names[i] = scaleReal.topic(i)
	}
	if _, err := adm.CreateTopics(ctx, scalePartitions, 3, nil, names...); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := adm.Metadata(ctx, names...)
		if err != nil {
			t.Fatal(err)
		}
		led := 0
		for _, td := range m.Topics {
			for _, p := range td.Partitions {
				if p.Err == nil && p.Leader >= 0 && len(p.ISR) == 3 {
					led++
				}
			}
		}
		if led == scaleReal.topics*scalePartitions {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%d of %d partitions led and in sync", led, scaleReal.topics*scalePartitions)
		}
		time.Sleep(time.Second)
	}
	records := produceScale(t, cl, scaleReal, start.Add(-time.Hour))
	commitScale(t, adm, scaleReal)
	fmt.Printf("seeded %s: %d topics × %d partitions (RF 3), %d records, %d groups × %d commits in %v\n", addr,
		scaleReal.topics, scalePartitions, records, scaleReal.groups(), scalePartitions, time.Since(start).Round(time.Second))
}
