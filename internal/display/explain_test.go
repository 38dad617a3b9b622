package display

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

func TestExplainGrammar(t *testing.T) {
	p := &model.GroupPartition{Topic: "outbox", Status: model.StatusExpired, Committed: model.Ptr[int64](29), Low: model.Ptr[int64](30), High: model.Ptr[int64](40)}
	p.SetLost(model.Ptr[int64](1))
	if got, want := Explain("fanout", p, nil, time.Hour), "1 record (29..29) was deleted before fanout read it"; got[:len(want)] != want {
		t.Errorf("Explain = %q, want it to start %q", got, want)
	}
}

// A live consumer on an expired partition is not told it jumps "on restart":
// it is running; it jumps when it fetches there.
func TestExplainExpiredWithALiveConsumer(t *testing.T) {
	p := &model.GroupPartition{Topic: "outbox", Status: model.StatusExpired, Committed: model.Ptr[int64](12),
		Low: model.Ptr[int64](30), High: model.Ptr[int64](40), Member: &model.MemberRef{ClientID: "fanout-1"}}
	p.SetLost(model.Ptr[int64](18))
	got := Explain("fanout", p, nil, time.Hour)
	if strings.Contains(got, "on restart") || !strings.Contains(got, "its live consumer fanout-1 gets OFFSET_OUT_OF_RANGE when it fetches there") {
		t.Errorf("Explain = %q", got)
	}
	p.Member = nil
	if got := Explain("fanout", p, nil, time.Hour); !strings.Contains(got, "on restart the consumer jumps to auto.offset.reset") {
		t.Errorf("without a member: %q", got)
	}
}

// A record whose retention ran out (it goes at the broker's next retention
// check) is deleted "now", never "in -8s".
func TestExplainNeverANegativeDuration(t *testing.T) {
	for _, st := range []model.Status{model.StatusAtRisk, model.StatusOK} {
		p := &model.GroupPartition{Topic: "events", Status: st, Committed: model.Ptr[int64](12), Lag: model.Ptr[int64](5),
			Low: model.Ptr[int64](0), High: model.Ptr[int64](17), ExpiresInMs: model.Ptr[int64](-8000)}
		got := Explain("event-sink", p, nil, time.Hour)
		if strings.Contains(got, "-8s") || !strings.Contains(got, "now (its retention ran out 8s ago)") {
			t.Errorf("%s: Explain = %q", st, got)
		}
	}
}

// TestExplainAtRiskWithoutExpiryKeepsOneDeadline: an at-risk partition whose next record's
// expiry is unknown says "before G reads it" only when G is not measured reading in time.
func TestExplainAtRiskWithoutExpiryKeepsOneDeadline(t *testing.T) {
	p := &model.GroupPartition{Topic: "events", Status: model.StatusAtRisk, Committed: model.Ptr[int64](12), Lag: model.Ptr[int64](5),
		Low: model.Ptr[int64](0), High: model.Ptr[int64](17)}
	if got := Explain("event-sink", p, nil, time.Hour); !strings.Contains(got, "before event-sink reads it") {
		t.Errorf("stopped: %q", got)
	}
	p.Time = &model.PartitionTime{ConsumeRate: model.Opt[float64]{V: 2, OK: true}}
	if got := Explain("event-sink", p, nil, time.Hour); strings.Contains(got, "before event-sink reads it") || !strings.Contains(got, "at its rate event-sink reads it first") {
		t.Errorf("reading in time: %q", got)
	}
}
