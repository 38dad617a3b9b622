package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestPlanInputForATimeIsOnePass: reading a plan's state for --to-datetime costs
// the same requests as for any other strategy (the timestamp lookup replaces the
// at-risk lookup in the same pass), and gives the first offset at or after the time.
func TestPlanInputForATimeIsOnePass(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 3, map[string]string{"retention.ms": "604800000"}); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	for p := int32(0); p < 3; p++ {
		s.ProduceN("t", p, 10, func(i int) time.Time { return base.Add(time.Duration(i) * time.Minute) })
	}
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	c := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()
	count := func(at time.Time) (int, int, plan.Input) {
		rc := kafkatest.CountRequests(k, kmsg.Metadata, kmsg.ListOffsets)
		defer rc.Remove()
		in, err := c.ReadPlanInput(ctx, "g", []string{"t"}, at)
		if err != nil {
			t.Fatal(err)
		}
		return rc.Hits(kmsg.Metadata), rc.Hits(kmsg.ListOffsets), in
	}
	count(time.Time{}) // connect and warm up
	meta0, lo0, in0 := count(time.Time{})
	meta1, lo1, in1 := count(base.Add(4*time.Minute + time.Second))
	if meta1 != meta0 || lo1 != lo0 {
		t.Errorf("with a time: %d Metadata + %d ListOffsets; without: %d + %d; want the same", meta1, lo1, meta0, lo0)
	}
	if in0.TimeOffsets != nil {
		t.Errorf("time offsets without a time: %v", in0.TimeOffsets)
	}
	for p := int32(0); p < 3; p++ { // record 5 is the first at or after base+4m1s
		if got, ok := in1.TimeOffsets[model.TP{Topic: "t", Partition: p}]; !ok || got != 5 {
			t.Errorf("t-%d: time offset %d (%v), want 5", p, got, ok)
		}
	}
}
