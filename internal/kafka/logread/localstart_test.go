package logread

import (
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func localStartResp(parts ...kmsg.ListOffsetsResponseTopicPartition) *kmsg.ListOffsetsResponse {
	resp := kmsg.NewPtrListOffsetsResponse()
	rt := kmsg.NewListOffsetsResponseTopic()
	rt.Topic = "t"
	rt.Partitions = parts
	resp.Topics = append(resp.Topics, rt)
	return resp
}

func localStartPart(p int32, code int16, off int64) kmsg.ListOffsetsResponseTopicPartition {
	rp := kmsg.NewListOffsetsResponseTopicPartition()
	rp.Partition, rp.ErrorCode, rp.Offset = p, code, off
	return rp
}

// TestLocalStartAnswer: each partition asked gets its local start or its error: a broker
// older than ListOffsets v8 (UNSUPPORTED_VERSION) cannot say, never a zero.
func TestLocalStartAnswer(t *testing.T) {
	tps := []model.TP{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}, {Topic: "t", Partition: 2}, {Topic: "t", Partition: 3}}
	got, errs := localStartAnswer(localStartResp(
		localStartPart(0, 0, 50),
		localStartPart(1, kerr.UnsupportedVersion.Code, -1),
		localStartPart(2, 0, -1),
		localStartPart(7, 0, 9), // not asked
	), tps)
	if len(got) != 1 || got[tps[0]] != 50 {
		t.Errorf("offsets %v, want t-0 at 50 alone", got)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, model.TP{Topic: *e.Topic, Partition: *e.Partition}.String()+" "+e.Message)
	}
	want := []string{
		"t-1 local log start: the broker cannot say (ListOffsets EARLIEST_LOCAL needs v8, Kafka 3.6+)",
		"t-2 local log start: the broker answered no offset",
		"t-3 local log start: the broker's reply left the partition out",
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("errors %q, want %q", msgs, want)
	}
}

// FuzzLocalStartAnswer reads arbitrary ListOffsets answers: every partition asked ends up
// with an offset or an error, exactly one of them, and no offset is negative.
func FuzzLocalStartAnswer(f *testing.F) {
	seed := localStartResp(localStartPart(0, 0, 50), localStartPart(1, 35, -1))
	seed.Version = 8
	f.Add(seed.AppendTo(nil), int16(8))
	f.Add([]byte{0, 0, 0, 0}, int16(10))
	f.Fuzz(func(t *testing.T, data []byte, version int16) {
		resp := kmsg.NewPtrListOffsetsResponse()
		resp.Version = version%11 + 1
		if resp.Version < 1 {
			resp.Version = -resp.Version
		}
		if err := resp.ReadFrom(data); err != nil {
			return
		}
		tps := []model.TP{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}, {Topic: "u", Partition: 0}}
		got, errs := localStartAnswer(resp, tps)
		for _, tp := range tps {
			n := slices.IndexFunc(errs, func(e model.Error) bool { return *e.Topic == tp.Topic && *e.Partition == tp.Partition })
			off, ok := got[tp]
			if ok == (n >= 0) {
				t.Fatalf("%s: offset %v (%v) and error index %d", tp, off, ok, n)
			}
			if ok && off < 0 {
				t.Fatalf("%s: negative offset %d", tp, off)
			}
		}
		if len(got)+len(errs) != len(tps) {
			t.Fatalf("%d offsets and %d errors for %d partitions", len(got), len(errs), len(tps))
		}
	})
}
