package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// reviewedPlan is p as read back from a plan file of cluster id.
func reviewedPlan(p Plan, id string) Plan {
	p.Reviewed = &Reviewed{ClusterID: id, Bootstrap: "kafka:9092", PlannedBy: "alice", File: "plan.json"}
	return p
}

// TestReviewedTargetsStay: a reviewed --to-earliest or --to-latest plan writes the targets
// a person reviewed; the plan made here re-reads them (Kafka's semantics at execution time).
// A low watermark past a reviewed earliest target is drift: those records are gone.
func TestReviewedTargetsStay(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	in := fixture()
	in.ClusterID = model.Ptr("c1")
	now := fixture()
	now.ClusterID = model.Ptr("c1")
	now.Offsets[model.TP{Topic: "orders", Partition: 2}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(150))}

	latest := Make(orders, mustStrategy(t, ToLatest, ""), in)
	if latest.ClusterID == nil || *latest.ClusterID != "c1" {
		t.Fatalf("Make kept cluster id %v, want c1", latest.ClusterID)
	}
	if got := *latest.Refresh(now).Rows[2].Target; got != 150 {
		t.Errorf("a plan made here: latest target %d after the refresh, want 150 (re-read)", got)
	}
	r := reviewedPlan(latest, "c1").Refresh(now)
	rowWant{"orders-2", 100, ReasonAsRequested, 50, 0, 0}.check(t, "reviewed latest", r.Rows[2])
	if !r.Executable() || *r.Rows[2].High != 150 {
		t.Errorf("reviewed latest: blockers %+v, high %d (want the new 150, the target kept)", r.Blockers, *r.Rows[2].High)
	}

	setLow(&now, "orders", 0, 30)
	r = reviewedPlan(Make(orders, mustStrategy(t, ToEarliest, ""), in), "c1").Refresh(now)
	if fmt.Sprint(blockerKinds(r.Blockers)) != "[drift]" || !strings.Contains(r.Blockers[0].Message, "log start of orders-0 moved from 0 to 30, past the target 0") {
		t.Errorf("reviewed earliest past its target: blockers %+v, want drift of orders-0", r.Blockers)
	}
	if *r.Rows[0].Target != 0 {
		t.Errorf("reviewed earliest target %d, want 0 as reviewed", *r.Rows[0].Target)
	}
}

// TestReviewedOnAnotherCluster: a reviewed plan is refused on another cluster and where
// the cluster's id cannot be read; a plan made here is not checked (it was read on the
// connection it writes on).
func TestReviewedOnAnotherCluster(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	in := fixture()
	in.ClusterID = model.Ptr("c1")
	p := Make(orders, mustStrategy(t, ToOffset, "60"), in)
	for _, tc := range []struct {
		name string
		id   *string
		want string
	}{
		{"same cluster", model.Ptr("c1"), ""},
		{"another cluster", model.Ptr("c2"), "was planned on cluster c1 (kafka:9092), and this is cluster c2"},
		{"id unknown", nil, "this cluster's id cannot be read"},
	} {
		now := fixture()
		now.ClusterID = tc.id
		bs := reviewedPlan(p, "c1").Refresh(now).Blockers
		switch {
		case tc.want == "" && len(bs) > 0:
			t.Errorf("%s: blockers %+v", tc.name, bs)
		case tc.want != "" && (fmt.Sprint(blockerKinds(bs)) != "[other-cluster]" || !strings.Contains(bs[0].Message, tc.want)):
			t.Errorf("%s: blockers %+v, want other-cluster saying %q", tc.name, bs, tc.want)
		}
		if bs := p.Refresh(now).Blockers; len(bs) > 0 {
			t.Errorf("%s: a plan made here is refused: %+v", tc.name, bs)
		}
	}
}
