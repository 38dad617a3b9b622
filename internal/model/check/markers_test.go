package check

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// A read_committed consumer one commit marker behind passes, and the note says why.
func TestCheckTransactionMarkers(t *testing.T) {
	p := ckPart(0, 0, 60, model.Ptr(int64(59)), model.StatusOK)
	p.Lag = model.Ptr(int64(0))
	p.SetTransactionMarkers(&model.TransactionMarkers{ControlRecords: 1, KafkaLag: 1})
	r := Check(one(p), "g", Options{})
	if r.Verdict != VerdictPass || len(r.Partitions) != 1 {
		t.Fatalf("verdict %s (%s), want pass", r.Verdict, r.Summary)
	}
	var note string
	for _, n := range r.Partitions[0].Notes {
		if n.Code == CodeMarkers {
			note = n.Message
		}
	}
	if want := "caught up: offsets 59..59 hold 1 transaction marker and 0 aborted records, which no read_committed consumer receives (Kafka's CLI shows LAG 1)"; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if !strings.Contains(r.Summary, "1 transaction marker") {
		t.Errorf("summary %q does not say why", r.Summary)
	}
}

// Where the fetch could not tell, the partition keeps Kafka's lag and the note says why.
func TestCheckTransactionMarkersUnknown(t *testing.T) {
	p := ckPart(0, 0, 60, model.Ptr(int64(59)), model.StatusOK)
	p.SetMarkersUnknown(model.Ptr("read_committed Fetch from broker 1: NOT_LEADER_OR_FOLLOWER"))
	r := Check(one(p), "g", Options{})
	var note string
	for _, n := range r.Partitions[0].Notes {
		if n.Code == CodeMarkersUnknown {
			note = n.Message
		}
	}
	if want := "lag as Kafka's CLI counts it: whether only transaction markers lie before high could not be told: read_committed Fetch from broker 1: NOT_LEADER_OR_FOLLOWER"; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
}
