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

// The fleet of scripts/bench-versions.sh: 1,000 groups, each committed on the 10 partitions of
// one of 100 topics (10 records a partition), on any Kafka 2.8+ broker.
const (
	benchVersionTopics = 100
	benchVersionGroups = 1000
	benchVersionParts  = 10
)

// TestSeedVersionBench seeds that fleet on the broker OFFSETTUI_BENCH_SEED_BOOTSTRAP names
// (skipped without it): scripts/bench-versions.sh runs it once per broker.
func TestSeedVersionBench(t *testing.T) {
	addr := os.Getenv("OFFSETTUI_BENCH_SEED_BOOTSTRAP")
	if addr == "" {
		t.Skip("set OFFSETTUI_BENCH_SEED_BOOTSTRAP to seed a broker with the version benchmark's fleet")
	}
	start := time.Now()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	topics := make([]string, benchVersionTopics)
	for i := range topics {
		topics[i] = fmt.Sprintf("bench-t%03d", i)
	}
	if _, err := adm.CreateTopics(ctx, benchVersionParts, 1, nil, topics...); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := adm.Metadata(ctx, topics...)
		if err != nil {
			t.Fatal(err)
		}
		led := 0
		for _, td := range m.Topics {
			for _, p := range td.Partitions {
				if p.Err == nil && p.Leader >= 0 {
					led++
				}
			}
		}
		if led == benchVersionTopics*benchVersionParts {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%d of %d partitions led", led, benchVersionTopics*benchVersionParts)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var recs []*kgo.Record
	for _, topic := range topics {
		for p := range int32(benchVersionParts) {
			for range 10 {
				recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Value: []byte("x")})
			}
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	for g := range benchVersionGroups {
		offs := kadm.Offsets{}
		topic := topics[g%benchVersionTopics]
		for p := range int32(benchVersionParts) {
			offs.Add(kadm.Offset{Topic: topic, Partition: p, At: int64((g + int(p)) % 11), LeaderEpoch: -1})
		}
		resp, err := adm.CommitOffsets(ctx, fmt.Sprintf("bench-g%04d", g), offs)
		if err == nil {
			err = resp.Error()
		}
		if err != nil {
			t.Fatalf("commit bench-g%04d: %v", g, err)
		}
	}
	t.Logf("seeded %d groups on %d topics of %d partitions in %s", benchVersionGroups, benchVersionTopics, benchVersionParts, time.Since(start).Round(time.Millisecond))
}
