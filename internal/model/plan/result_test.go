package plan

import (
	"errors"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestApplyResults: each row's result comes from the broker's answer and the read-back;
// verified is true only when every row reads back at its target, and null when nothing
// was read back (display.VerifiedText words it).
func TestApplyResults(t *testing.T) {
	tp0, tp1, tp2 := model.TP{Topic: "orders", Partition: 0}, model.TP{Topic: "orders", Partition: 1}, model.TP{Topic: "orders", Partition: 2}
	plan := func() Plan { // restore: orders-0 → 7, orders-1 → 12, orders-2 deleted
		return Make(Scope{}, mustFile(t, Restore, "orders,0,7\norders,2,\norders,1,12\n"), fixture())
	}
	lost := errors.New("no answer within --timeout")
	rejected := model.Error{Kind: model.KindBroker, Message: "UNKNOWN_MEMBER_ID"}
	for _, c := range []struct {
		name     string
		ans      CommitAnswer
		readBack map[model.TP]int64
		outcome  ResetOutcome
		results  []WriteResult // orders-0, orders-1, orders-2
	}{
		{"the planned state read back", CommitAnswer{}, map[model.TP]int64{tp0: 7, tp1: 12}, OutcomeApplied,
			[]WriteResult{WriteWritten, WriteWritten, WriteWritten}},
		{"changed since, missing, not deleted", CommitAnswer{}, map[model.TP]int64{tp0: 8, tp2: 3}, OutcomePartlyApplied,
			[]WriteResult{WriteChanged, WriteChanged, WriteChanged}},
		{"never read back", CommitAnswer{}, nil, OutcomeFailed,
			[]WriteResult{WriteUnverified, WriteUnverified, WriteUnverified}},
		{"never read back, the request unanswered", CommitAnswer{RequestErr: lost}, nil, OutcomeFailed,
			[]WriteResult{WriteUnknown, WriteUnknown, WriteUnknown}},
		{"one rejected, the rest read back", CommitAnswer{Rejected: map[model.TP]model.Error{tp1: rejected}}, map[model.TP]int64{tp0: 7, tp1: 10}, OutcomePartlyApplied,
			[]WriteResult{WriteWritten, WriteRejected, WriteWritten}},
		{"unanswered, read back elsewhere", CommitAnswer{RequestErr: lost}, map[model.TP]int64{tp0: 50, tp1: 12}, OutcomeFailed,
			[]WriteResult{WriteUnknown, WriteWritten, WriteWritten}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := plan()
			if got := p.ApplyResults(c.ans, c.readBack); got != c.outcome {
				t.Errorf("outcome %s, want %s", got, c.outcome)
			}
			got := map[model.TP]WriteResult{}
			for _, r := range p.Rows {
				got[r.TP()] = r.Result
			}
			for i, tp := range []model.TP{tp0, tp1, tp2} {
				if got[tp] != c.results[i] {
					t.Errorf("%s: %s, want %s", tp, got[tp], c.results[i])
				}
			}
			if (c.readBack == nil) != (p.Verified == nil) {
				t.Errorf("verified %v with a read-back %v", p.Verified, c.readBack)
			}
		})
	}
}
