package realkafka_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
)

// The cost of reading a partition of __consumer_offsets that holds many groups' commits:
// OFFSETTUI_MEASURE_OFFSETS_TOPIC=<groups> commits every group once on all 50 partitions of a
// topic (kadm), then reads one group's partition with GroupRecords. Not run by default (it
// writes <groups> × 50 commits to the main broker).
func TestRealKafkaMeasureOffsetsTopicRead(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("OFFSETTUI_MEASURE_OFFSETS_TOPIC"))
	if n <= 0 {
		t.Skip("set OFFSETTUI_MEASURE_OFFSETS_TOPIC=<groups> to measure")
	}
	b := realkafka.Main(t)
	s := b.Seed(t)
	topic := realkafka.Name("measure")
	s.CreateTopic(topic, 50, nil)
	prefix := realkafka.Name("measure-grp")
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			offs := kadm.Offsets{}
			for p := int32(0); p < 50; p++ {
				offs.Add(kadm.Offset{Topic: topic, Partition: p, At: int64(i), LeaderEpoch: -1})
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := s.Adm.CommitOffsets(ctx, fmt.Sprintf("%s-%d", prefix, i), offs); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	t.Logf("committed %d groups × 50 partitions in %s", n, time.Since(start).Round(time.Millisecond))
	for _, g := range []string{prefix + "-0", prefix + "-1"} {
		recs, scan, err := realkafka.GroupRecords(context.Background(), []string{b.Addr}, g)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("group %s: partition %d of __consumer_offsets: %d records, %d bytes (keys+values) read in %s (%.1f MB/s, %.0f records/s); %d of them the group's",
			g, scan.Partition, scan.Records, scan.Bytes, scan.Took.Round(time.Millisecond),
			float64(scan.Bytes)/scan.Took.Seconds()/1e6, float64(scan.Records)/scan.Took.Seconds(), len(recs))
	}
}
