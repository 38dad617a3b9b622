package logread

import (
	"fmt"
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// The candidates are the distinct commits low ≤ committed < high with no open transaction,
// of every group but share groups, not known to have data after them, smallest gaps first,
// cut at markerCandidates; a partition whose number is beyond the partitions watermarks were
// read for is still found.
func TestMarkerCandidateOffsets(t *testing.T) {
	w := func(topic string, p int32, off int64) model.TPO {
		return model.TPO{TP: model.TP{Topic: topic, Partition: p}, Offset: off}
	}
	po := func(low, high, stable int64) model.PartitionOffsets {
		return model.PartitionOffsets{Low: model.Ptr(low), High: model.Ptr(high), LastStable: model.Ptr(stable)}
	}
	obs := &model.Observation{
		Topics: map[string]model.Topic{"a": {Partitions: 8}, "b": {Partitions: 1}},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "a", Partition: 0}: po(10, 100, 100),
			{Topic: "a", Partition: 7}: po(0, 50, 50), // the only other partition of a with watermarks
			{Topic: "b", Partition: 0}: po(0, 40, 30), // an open transaction
		},
		Groups: []model.GroupObservation{
			{Group: "g1", Type: model.TypeClassic, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 99, {Topic: "a", Partition: 7}: 45, {Topic: "b", Partition: 0}: 39}},
			{Group: "g2", Type: model.TypeConsumer, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 99, {Topic: "a", Partition: 7}: 48}},
			{Group: "g3", Type: model.TypeClassic, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 100, {Topic: "a", Partition: 7}: 49}}, // at high; data known after 49
			{Group: "g4", Type: model.TypeClassic, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 5}},                                   // below low
			{Group: "g5", Type: model.TypeClassic, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 60, {Topic: "a", Partition: 9}: 1}},   // 9: not in metadata
			{Group: "s", Type: model.TypeShare, Committed: map[model.TP]int64{{Topic: "a", Partition: 0}: 98}},
		},
	}
	known := w("a", 7, 49)
	want, skipped := markerCandidateOffsets(HoldPositions(obs), func(x model.TPO) bool { return x == known })
	exp := []model.TPO{w("a", 0, 99), w("a", 7, 48), w("a", 7, 45), w("a", 0, 60)} // gaps 1, 2, 5, 40
	if !slices.Equal(want, exp) || len(skipped) != 0 {
		t.Errorf("candidates %v, skipped %v; want %v and none", want, skipped, exp)
	}

	// Past markerCandidates, the largest gaps are left apart.
	many := &model.Observation{Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}}
	g := model.GroupObservation{Group: "g", Type: model.TypeClassic, Committed: map[model.TP]int64{}}
	for i := range markerCandidates + 6 {
		topic := fmt.Sprintf("t%04d", i)
		many.Topics[topic] = model.Topic{Partitions: 1}
		many.Offsets[model.TP{Topic: topic}] = po(0, 10_000, 10_000)
		g.Committed[model.TP{Topic: topic}] = int64(10_000 - 1 - i) // gap i+1
	}
	many.Groups = []model.GroupObservation{g}
	want, skipped = markerCandidateOffsets(HoldPositions(many), func(model.TPO) bool { return false })
	if len(want) != markerCandidates || len(skipped) != 6 || want[0].Topic != "t0000" || skipped[5].Topic != fmt.Sprintf("t%04d", markerCandidates+5) {
		t.Errorf("%d candidates from %v, %d skipped to %v; want %d from t0000 and 6 to the largest gap", len(want), want[0], len(skipped), skipped[len(skipped)-1], markerCandidates)
	}
}
