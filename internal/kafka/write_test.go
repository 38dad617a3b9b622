package kafka_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
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
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
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

// TestListedGroupOffsetFetchNotFound: a listed group whose OffsetFetch answers
// GROUP_ID_NOT_FOUND has unknown commits (an error, no total), never "no commits".
func TestListedGroupOffsetFetchNotFound(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 5, tsAt(time.Now().Unix()))
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	k.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		r, ok := req.(*kmsg.OffsetFetchRequest)
		if !ok {
			return nil, nil, false
		}
		resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.SetVersion(r.Version)
		resp.ErrorCode = 69 // GROUP_ID_NOT_FOUND
		for _, rg := range r.Groups {
			g := kmsg.NewOffsetFetchResponseGroup()
			g.Group, g.ErrorCode = rg.Group, 69
			resp.Groups = append(resp.Groups, g)
		}
		return resp, nil, true
	})
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	snap, err := cl.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 1 {
		t.Fatalf("groups %+v", snap.Groups)
	}
	g := snap.Groups[0]
	if g.Error == nil || g.Error.IsGroupNotFound() || g.TotalLag != nil || g.WorstStatus != model.StatusUnknown {
		t.Errorf("group %s: error %v, total lag %s, worst %s; want an error that is not not-found, no total, unknown",
			g.Group, g.Error, text.Num(g.TotalLag), g.WorstStatus)
	}
}
