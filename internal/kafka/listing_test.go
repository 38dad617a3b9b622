package kafka_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestOnlyAFailedListingHidesAGroup: a group may be hidden only by a broker
// whose ListGroups failed. Any other broker-wide failure — here the broker's own
// configs denied, as for every principal without DescribeConfigs on the
// cluster — still lets a named group that does not exist be not-found, and a
// reset of it be planned; a failed ListGroups does neither. A group its
// coordinator describes can be planned whatever the listings did.
func TestOnlyAFailedListingHidesAGroup(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 5, tsAt(time.Now().Unix()))
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	cl := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()

	cases := []struct {
		name     string
		fault    kfake.Fault
		hidden   bool // a group may be hiding: no not-found, no plan
		errMatch string
	}{
		{"broker configs denied", kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeConfigs}, Err: kerr.ClusterAuthorizationFailed, Count: -1}, false, "CLUSTER_AUTHORIZATION_FAILED"},
		{"one broker's ListGroups failed", kfake.Fault{Keys: []kmsg.Key{kmsg.ListGroups}, Nodes: []int32{0}, Err: kerr.CoordinatorNotAvailable, Count: -1, TopLevel: true}, true, "COORDINATOR_NOT_AVAILABLE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := k.Fault(c.fault)
			defer h.Remove()
			snap, err := cl.Snapshot(ctx, model.Query{Groups: []string{"nosuch"}})
			if err != nil {
				t.Fatal(err)
			}
			if !hasCode(snap.Errors, c.errMatch) {
				t.Fatalf("the fault did not act: errors %+v", snap.Errors)
			}
			g := findGroup(t, snap, "nosuch")
			if got := g.Error.IsGroupNotFound(); got == c.hidden {
				t.Errorf("nosuch: not-found = %v, want %v (error %v)", got, !c.hidden, g.Error)
			}
			if g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
				t.Errorf("nosuch: worst %s, totalLag %s; want unknown and null", g.WorstStatus, text.Num(g.TotalLag))
			}
			_, err = cl.ReadPlanInput(ctx, "nosuch", nil, time.Time{})
			if got := errors.Is(err, kafka.ErrCannotProveInactive); got != c.hidden {
				t.Errorf("plan input of nosuch: %v; want cannot-prove-inactive = %v", err, c.hidden)
			}
			in, err := cl.ReadPlanInput(ctx, "g", nil, time.Time{})
			if err != nil || !in.GroupExists || in.State != "Empty" {
				t.Errorf("plan input of g: exists %v state %q, %v; want Empty, read from its coordinator", in.GroupExists, in.State, err)
			}
		})
	}
}

func hasCode(errs []model.Error, code string) bool {
	for _, e := range errs {
		if e.Code != nil && *e.Code == code {
			return true
		}
	}
	return false
}
