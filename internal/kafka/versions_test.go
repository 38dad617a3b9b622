package kafka_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafkatest"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// TestOffsetFetchBatchingFollowsTheBroker: a broker that supports OffsetFetch v8
// gets many groups per request; one that stops at v7 (negotiated through
// ApiVersions, never hard-coded) gets one group per request, with the same result.
func TestOffsetFetchBatchingFollowsTheBroker(t *testing.T) {
	const groups = 12
	for _, c := range []struct {
		name     string
		max      int16
		requests func(hits int) bool
	}{
		{"v8 batches per coordinator", 8, func(h int) bool { return h <= 3 }},
		{"v7 sends one group per request", 7, func(h int) bool { return h == groups }},
	} {
		t.Run(c.name, func(t *testing.T) {
			vs := kversion.Stable()
			vs.SetMaxKeyVersion(int16(kmsg.OffsetFetch), c.max)
			k := kafkatest.Cluster(t, kfake.MaxVersions(vs))
			if err := k.CreateTopic("t", 3, nil); err != nil {
				t.Fatal(err)
			}
			s := kafkatest.NewSeed(t, k.ListenAddrs())
			s.ProduceN("t", 0, 10, tsAt(time.Now().Unix()))
			for i := range groups {
				s.Commit(fmt.Sprintf("g%02d", i), map[model.TP]int64{{Topic: "t", Partition: 0}: int64(i)})
			}
			cl := newClient(t, k.ListenAddrs(), nil)
			rc := kafkatest.CountRequests(k, kmsg.OffsetFetch)
			snap, err := cl.Snapshot(context.Background(), model.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.requests(rc.Hits(kmsg.OffsetFetch)) {
				t.Errorf("%d OffsetFetch requests for %d groups", rc.Hits(kmsg.OffsetFetch), groups)
			}
			if len(snap.Groups) != groups {
				t.Fatalf("%d groups in the snapshot, want %d", len(snap.Groups), groups)
			}
			for i := range groups {
				g := findGroup(t, snap, fmt.Sprintf("g%02d", i))
				if g.Error != nil {
					t.Fatalf("%s: %v", g.Group, g.Error)
				}
				if p := findPartition(t, g, "t", 0); p.Committed == nil || *p.Committed != int64(i) || g.Error != nil {
					t.Errorf("%s: committed %v error %v", g.Group, val(p.Committed), g.Error)
				}
			}
		})
	}
}
