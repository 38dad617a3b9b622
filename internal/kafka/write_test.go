package kafka_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafkatest"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestWriteReplyLeavingPartitionsOut: a write whose reply leaves a partition (or, for a
// share-group delete, its topic) out counts that partition as not written, for every
// write: commit, delete, share alter, share delete.
func TestWriteReplyLeavingPartitionsOut(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 2, nil); err != nil {
		t.Fatal(err)
	}
	k.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		switch req.(type) { // every reply empty: it answers for no partition
		case *kmsg.OffsetCommitRequest, *kmsg.OffsetDeleteRequest, *kmsg.AlterShareGroupOffsetsRequest, *kmsg.DeleteShareGroupOffsetsRequest:
			resp := req.ResponseKind()
			resp.SetVersion(req.GetVersion())
			return resp, nil, true
		}
		return nil, nil, false
	})
	cl, err := kafka.New(kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	tps := []model.TP{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}}
	offsets := map[model.TP]int64{tps[0]: 0, tps[1]: 0}
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		write func() ([]model.Error, error)
	}{
		{"commit", func() ([]model.Error, error) { return cl.CommitOffsets(ctx, "g", offsets) }},
		{"delete", func() ([]model.Error, error) { return cl.DeleteOffsets(ctx, "g", tps) }},
		{"share alter", func() ([]model.Error, error) { return cl.AlterShareOffsets(ctx, "g", offsets) }},
		{"share delete", func() ([]model.Error, error) { return cl.DeleteShareOffsets(ctx, "g", tps) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rejected, err := c.write()
			if err != nil {
				t.Fatal(err)
			}
			if len(rejected) != len(tps) {
				t.Fatalf("%d partitions counted as not written, want %d: %v", len(rejected), len(tps), rejected)
			}
			for _, e := range rejected {
				if !strings.Contains(e.Message, "left the partition out") || e.Partition == nil || e.Group == nil {
					t.Errorf("rejection %+v", e)
				}
			}
		})
	}
}
