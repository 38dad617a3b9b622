package model

import (
	"errors"
	"testing"
)

// TestApplyResults: each row's result comes from the broker's answer and the read-back;
// verified is yes only when every row reads back at its target, NO (with its causes) when
// the read-back shows otherwise, and not checked (null) when nothing was read back.
func TestApplyResults(t *testing.T) {
	tp0, tp1, tp2 := TP{"orders", 0}, TP{"orders", 1}, TP{"orders", 2}
	plan := func() Plan { // restore: orders-0 → 7, orders-1 → 12, orders-2 deleted
		return MakePlan(Scope{}, mustFile(t, Restore, "orders,0,7\norders,2,\norders,1,12\n"), fixture())
	}
	lost := errors.New("no answer within --timeout")
	rejected := Error{Kind: KindBroker, Message: "UNKNOWN_MEMBER_ID"}
	for _, c := range []struct {
		name     string
		ans      CommitAnswer
		readBack map[TP]int64
		outcome  ResetOutcome
		results  []WriteResult // orders-0, orders-1, orders-2
		verdict  string
		why      string
	}{
		{"the planned state read back", CommitAnswer{}, map[TP]int64{tp0: 7, tp1: 12}, OutcomeApplied,
			[]WriteResult{WriteWritten, WriteWritten, WriteWritten}, "yes", "the offsets read back equal the plan"},
		{"changed since, missing, not deleted", CommitAnswer{}, map[TP]int64{tp0: 8, tp2: 3}, OutcomePartlyApplied,
			[]WriteResult{WriteChanged, WriteChanged, WriteChanged}, "NO", "3 partitions changed by another client since the write"},
		{"never read back", CommitAnswer{}, nil, OutcomeFailed,
			[]WriteResult{WriteUnverified, WriteUnverified, WriteUnverified}, "not checked", "the offsets could not be read back"},
		{"never read back, the request unanswered", CommitAnswer{RequestErr: lost}, nil, OutcomeFailed,
			[]WriteResult{WriteUnknown, WriteUnknown, WriteUnknown}, "not checked", "the offsets could not be read back"},
		{"one rejected, the rest read back", CommitAnswer{Rejected: map[TP]Error{tp1: rejected}}, map[TP]int64{tp0: 7, tp1: 10}, OutcomePartlyApplied,
			[]WriteResult{WriteWritten, WriteRejected, WriteWritten}, "NO", "1 partition rejected by the broker (not written)"},
		{"unanswered, read back elsewhere", CommitAnswer{RequestErr: lost}, map[TP]int64{tp0: 50, tp1: 12}, OutcomeFailed,
			[]WriteResult{WriteUnknown, WriteWritten, WriteWritten}, "NO", "1 partition not at the target, and the request got no answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := plan()
			if got := p.ApplyResults(c.ans, c.readBack); got != c.outcome {
				t.Errorf("outcome %s, want %s", got, c.outcome)
			}
			got := map[TP]WriteResult{}
			for _, r := range p.Rows {
				got[r.TP()] = r.Result
			}
			for i, tp := range []TP{tp0, tp1, tp2} {
				if got[tp] != c.results[i] {
					t.Errorf("%s: %s, want %s", tp, got[tp], c.results[i])
				}
			}
			if (c.readBack == nil) != (p.Verified == nil) {
				t.Errorf("verified %v with a read-back %v", p.Verified, c.readBack)
			}
			if verdict, why := p.VerifiedText(); verdict != c.verdict || why != c.why {
				t.Errorf("verified: %s: %s; want %s: %s", verdict, why, c.verdict, c.why)
			}
		})
	}
}
