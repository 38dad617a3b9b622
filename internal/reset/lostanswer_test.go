package reset

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestCommitAnswerLostButCommitLanded: the broker applies the commit, then the
// connection is cut before its answer arrives. The read-back reconnects (fresh
// connection, coordinator looked up again) and finds every target: applied,
// verified, with a note that the answer was lost.
func TestCommitAnswerLostButCommitLanded(t *testing.T) {
	e := newEnv(t)
	k := e.d.Fake()
	var calls atomic.Int32
	k.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if calls.Add(1) != 1 {
			return nil, nil, false // the commit made below, on its own connection
		}
		r := req.(*kmsg.OffsetCommitRequest)
		offs := map[model.TP]int64{}
		for _, tt := range r.Topics {
			for _, p := range tt.Partitions {
				offs[model.TP{Topic: tt.Topic, Partition: p.Partition}] = p.Offset
			}
		}
		// Apply it through another connection, then cut this one: the commit
		// landed, its answer is lost.
		k.SleepControl(func() { e.seed.Commit(r.Group, offs) })
		return nil, errors.New("connection cut after the commit landed"), true
	})
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, true), strategy(t, plan.ToOffset, "1"))
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeApplied || res.Plan.Verified == nil || !*res.Plan.Verified || res.Plan.Undo == nil {
		t.Fatalf("outcome %s verified %v undo %v; want applied and verified (notes %v)", res.Outcome, res.Plan.Verified, res.Plan.Undo, res.Notes)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "got no answer") {
		t.Errorf("notes %v do not say the answer was lost", res.Notes)
	}
	if got := e.truth(t, "ship-svc")[tp("shipments", 0)]; got != 1 {
		t.Errorf("committed = %d, want 1", got)
	}
}
