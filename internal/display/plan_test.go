package display

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

func TestTotalsText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{TotalsText(plan.Totals{Duplicates: 1, Skipped: 1200, Partitions: 1}), "re-delivers 1 record · skips 1,200 · 0 already lost · 1 partition"},
		{TotalsText(plan.Totals{Duplicates: 3, Partitions: 2}), "re-delivers 3 records · skips 0 · 0 already lost · 2 partitions"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestTotalsNameTheAssumption: a plan whose counts depend on auto.offset.reset (a partition
// without a commit, or a delete) names the assumption and what the other one would count;
// one whose counts do not, nothing.
func TestTotalsNameTheAssumption(t *testing.T) {
	scope := plan.Scope{Topics: []plan.TopicScope{{Topic: "orders"}}}
	p := mustPlan(t, scope, plan.ToEarliest, "")
	if got, want := TotalsText(p.Totals)+" · "+AssumptionText(p), "re-delivers 150 records · skips 0 · 30 already lost · 3 partitions · "+
		"assuming auto.offset.reset=latest, the Kafka client default; with earliest: re-delivers 50 · skips 0"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := AssumptionText(p.WithAssumeReset(model.ResetNone)), "assuming auto.offset.reset=none (without a commit the consumer refuses to start: counted from the log start); with latest: re-delivers 150 · skips 0"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	one := mustPlan(t, plan.Scope{Topics: []plan.TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, plan.ToEarliest, "")
	if got := AssumptionText(one); got != "" {
		t.Errorf("a plan of committed partitions only names an assumption: %q", got)
	}
}

// orders: an Empty group on orders (3 partitions).
//
//	orders-0  low 0   high 100  committed 50
//	orders-1  low 40  high 100  committed 10   (expired: 30 already lost)
//	orders-2  low 0   high 100  no commit
func orders() plan.Input {
	wm := func(lo, hi int64) model.PartitionOffsets {
		return model.PartitionOffsets{Low: model.Ptr(lo), High: model.Ptr(hi)}
	}
	o0, o1, o2 := model.TP{Topic: "orders", Partition: 0}, model.TP{Topic: "orders", Partition: 1}, model.TP{Topic: "orders", Partition: 2}
	return plan.Input{
		Group: "g", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed:  map[model.TP]int64{o0: 50, o1: 10},
		Partitions: map[string]int{"orders": 3},
		Offsets:    map[model.TP]model.PartitionOffsets{o0: wm(0, 100), o1: wm(40, 100), o2: wm(0, 100)},
	}
}

func mustPlan(t *testing.T, scope plan.Scope, kind plan.StrategyKind, value string) plan.Plan {
	t.Helper()
	var st plan.Strategy
	var err error
	if kind.FromFileKind() {
		st, err = plan.FileStrategy(kind, "plan.csv", strings.NewReader(value))
	} else {
		st, err = plan.ParseStrategy(kind, value, time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))
	}
	if err != nil {
		t.Fatal(err)
	}
	return plan.Make(scope, st, orders())
}

func TestPlanRowNote(t *testing.T) {
	p := mustPlan(t, plan.Scope{Topics: []plan.TopicScope{{Topic: "orders"}}}, plan.ToCurrent, "")
	if n := Note(p.Rows[2], p.AssumeReset); n != "no commit today: auto.offset.reset=latest would start at 100 too" {
		t.Errorf("no-commit-to-latest note %q", n)
	}
	if n := Note(p.Rows[0], p.AssumeReset); n != "" {
		t.Errorf("plain row note = %q, want none", n)
	}
	p = mustPlan(t, plan.Scope{}, plan.Restore, "orders,2,\norders,0,500\n")
	if n := Note(p.Rows[1], p.AssumeReset); !strings.Contains(n, "deletes the commit") {
		t.Errorf("restore delete note = %q", n)
	}
	if n := Note(p.Rows[0], p.AssumeReset); !strings.Contains(n, "OFFSET_OUT_OF_RANGE") {
		t.Errorf("restore beyond high note = %q", n)
	}
}

// TestVerifiedText: yes only when every row reads back at its target, NO (with its
// causes) when the read-back shows otherwise, and not checked when nothing was read back.
func TestVerifiedText(t *testing.T) {
	tp0, tp1, tp2 := model.TP{Topic: "orders", Partition: 0}, model.TP{Topic: "orders", Partition: 1}, model.TP{Topic: "orders", Partition: 2}
	lost := errors.New("no answer within --timeout")
	rejected := model.Error{Kind: model.KindBroker, Message: "UNKNOWN_MEMBER_ID"}
	for _, c := range []struct {
		name     string
		ans      plan.CommitAnswer
		readBack map[model.TP]int64
		verdict  string
		why      string
	}{
		{"the planned state read back", plan.CommitAnswer{}, map[model.TP]int64{tp0: 7, tp1: 12}, "yes", "the offsets read back equal the plan"},
		{"changed since, missing, not deleted", plan.CommitAnswer{}, map[model.TP]int64{tp0: 8, tp2: 3}, "NO", "3 partitions changed by another client since the write"},
		{"never read back", plan.CommitAnswer{}, nil, "not checked", "the offsets could not be read back"},
		{"never read back, the request unanswered", plan.CommitAnswer{RequestErr: lost}, nil, "not checked", "the offsets could not be read back"},
		{"one rejected, the rest read back", plan.CommitAnswer{Rejected: map[model.TP]model.Error{tp1: rejected}}, map[model.TP]int64{tp0: 7, tp1: 10},
			"NO", "1 partition rejected by the broker (not written)"},
		{"unanswered, read back elsewhere", plan.CommitAnswer{RequestErr: lost}, map[model.TP]int64{tp0: 50, tp1: 12},
			"NO", "1 partition not at the target, and the request got no answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// restore: orders-0 → 7, orders-1 → 12, orders-2 deleted
			p := mustPlan(t, plan.Scope{}, plan.Restore, "orders,0,7\norders,2,\norders,1,12\n")
			p.ApplyResults(c.ans, c.readBack)
			if verdict, why := VerifiedText(p); verdict != c.verdict || why != c.why {
				t.Errorf("verified: %s: %s; want %s: %s", verdict, why, c.verdict, c.why)
			}
		})
	}
}
