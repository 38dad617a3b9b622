package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestErrorOnOnePartitionOnly: a ListOffsets failure on one partition makes that
// partition unknown, with the error on it and in errors, and leaves the rest whole.
func TestErrorOnOnePartitionOnly(t *testing.T) {
	d := startDemo(t)
	d.Fake().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "orders", Partitions: []int32{3},
		Err: kerr.TopicAuthorizationFailed, Count: -1})
	c := newClient(t, d.Bootstrap(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	ae := findGroup(t, snap, "audit-export")
	p3 := findPartition(t, ae, "orders", 3)
	if p3.Status != model.StatusUnknown || p3.Error == nil || p3.Error.Kind != model.KindDenied || p3.Low != nil || p3.High != nil {
		t.Fatalf("orders-3: status %v error %+v low %v high %v; want unknown, denied, no numbers", p3.Status, p3.Error, val(p3.Low), val(p3.High))
	}
	if p3.Error.Code == nil || *p3.Error.Code != "TOPIC_AUTHORIZATION_FAILED" {
		t.Errorf("code = %v", p3.Error.Code)
	}
	if p3.Committed == nil || *p3.Committed != 70 {
		t.Errorf("orders-3 committed = %v, want 70 (the commit was readable)", val(p3.Committed))
	}
	if p0 := findPartition(t, ae, "orders", 0); p0.Status != model.StatusAtRisk {
		t.Errorf("orders-0 = %v, want at-risk (unaffected)", p0.Status)
	}
	if ae.WorstStatus != model.StatusUnknown || ae.Counts[model.StatusUnknown] != 1 {
		t.Errorf("audit-export worst %v counts %v", ae.WorstStatus, ae.Counts)
	}
	if g := findGroup(t, snap, "fanout"); g.WorstStatus != model.StatusExpired {
		t.Errorf("fanout = %v, want expired (unaffected)", g.WorstStatus)
	}
	found := false
	for _, e := range snap.Errors {
		if e.Topic != nil && *e.Topic == "orders" && e.Partition != nil && *e.Partition == 3 {
			found = true
		}
	}
	if !found {
		t.Errorf("errors do not name orders-3: %+v", snap.Errors)
	}
}

// TestErrorOnOneGroupOnly: an OffsetFetch failure for one group makes that group
// unknown and no other.
func TestErrorOnOneGroupOnly(t *testing.T) {
	d := startDemo(t)
	d.Fake().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch}, Group: "ledger",
		Err: kerr.GroupAuthorizationFailed, Count: -1})
	c := newClient(t, d.Bootstrap(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	led := findGroup(t, snap, "ledger")
	if led.Error == nil || led.Error.Kind != model.KindDenied || led.WorstStatus != model.StatusUnknown {
		t.Fatalf("ledger: error %+v worst %v; want denied and unknown", led.Error, led.WorstStatus)
	}
	for _, p := range led.Partitions {
		if p.Status != model.StatusUnknown || p.Committed != nil {
			t.Errorf("ledger %s-%d: %v committed %v; want unknown without numbers", p.Topic, p.Partition, p.Status, val(p.Committed))
		}
	}
	if g := findGroup(t, snap, "ship-svc"); g.Error != nil || findPartition(t, g, "shipments", 0).Lag == nil {
		t.Errorf("ship-svc should be complete: %+v", g)
	}
}

// TestUnknownGroup: a group nobody knows (kfake answers GROUP_ID_NOT_FOUND, Kafka
// returns nothing) has no offsets and no error.
func TestUnknownGroup(t *testing.T) {
	d := startDemo(t)
	c := newClient(t, d.Bootstrap(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{Groups: []string{"no-such-group", "ship-svc"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 2 {
		t.Fatalf("groups = %d, want 2", len(snap.Groups))
	}
	g := findGroup(t, snap, "no-such-group")
	if g.Error == nil || g.Error.Kind != model.KindNotFound || len(g.Partitions) != 0 || g.TotalLag != nil ||
		len(snap.Errors) != 1 || snap.Errors[0].Kind != model.KindNotFound {
		t.Errorf("unknown group: %+v errors %+v; want a not-found error on the group and in errors", g, snap.Errors)
	}
	if s := findGroup(t, snap, "ship-svc"); len(s.Partitions) != 1 {
		t.Errorf("ship-svc partitions = %d", len(s.Partitions))
	}
}

// TestOffsetsOnlyGroup: commits without members are listed (protocol type "")
// and Empty.
func TestOffsetsOnlyGroup(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 2, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 4, tsAt(time.Now().Unix()))
	s.Commit("offsets-only", map[model.TP]int64{{Topic: "t", Partition: 0}: 1})
	c := newClient(t, k.ListenAddrs(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	g := findGroup(t, snap, "offsets-only")
	if g.State != "Empty" || g.ProtocolType != "" || len(g.Members) != 0 {
		t.Errorf("state %q protocolType %q members %d", g.State, g.ProtocolType, len(g.Members))
	}
	if p := findPartition(t, g, "t", 1); p.Status != model.StatusMissing {
		t.Errorf("t-1 (no commit, same topic) = %v, want missing", p.Status)
	}
	if p := findPartition(t, g, "t", 0); p.Status != model.StatusOK || *p.Lag != 3 {
		t.Errorf("t-0 = %v lag %v", p.Status, val(p.Lag))
	}
}
