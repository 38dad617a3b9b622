package logread

import (
	"maps"
	"slices"

	"github.com/offsettui/offsettui/internal/model"
)

// HeldPositions is every distinct position the groups hold inside their partition's
// stored log (low ≤ position < high), per topic and partition, sorted: where the reads
// after the watermarks look (transaction markers, compacted topics, committed-record
// timestamps). Hundreds of thousands of rows share a few offsets each, so one pass over
// the rows collects them per partition and makes them distinct there.
type HeldPositions struct {
	offsets model.OffsetIndex
	topics  []string            // sorted
	at      map[string][]heldAt // per topic, indexed by partition
}

// heldAt is one partition's held positions, committed offsets (classic, consumer and
// streams groups) apart from share groups' start offsets: only at a committed offset does
// a consumer's read_committed Fetch resume.
type heldAt struct {
	committed, started []int64
}

// HoldPositions collects the positions of obs.Groups on the partitions metadata knows
// (obs.Topics) whose watermarks were read without an error.
func HoldPositions(obs *model.Observation) HeldPositions {
	h := HeldPositions{offsets: model.IndexOffsets(obs.Offsets), at: map[string][]heldAt{}}
	for i := range obs.Groups {
		g := &obs.Groups[i]
		share := g.Type == model.TypeShare
		var (
			to     model.TopicOffsets
			slots  []heldAt
			looked bool
		)
		for tp, off := range g.Positions() {
			if !looked || tp.Topic != to.Name() {
				to, looked = h.offsets.Topic(tp.Topic), true
				if slots = h.at[tp.Topic]; slots == nil {
					slots = make([]heldAt, obs.Topics[tp.Topic].Partitions)
					h.at[tp.Topic] = slots
				}
			}
			if tp.Partition < 0 || int(tp.Partition) >= len(slots) {
				continue // not in metadata: no watermarks
			}
			po := to.Get(tp.Partition)
			if po.Error != nil || po.Low == nil || po.High == nil || off < *po.Low || off >= *po.High {
				continue
			}
			if s := &slots[tp.Partition]; share {
				s.started = append(s.started, off)
			} else {
				s.committed = append(s.committed, off)
			}
		}
	}
	for _, slots := range h.at {
		for i := range slots {
			s := &slots[i]
			slices.Sort(s.committed)
			s.committed = slices.Compact(s.committed)
			slices.Sort(s.started)
			s.started = slices.Compact(s.started)
		}
	}
	h.topics = slices.Sorted(maps.Keys(h.at))
	return h
}

// Want lists every held position in topic, partition and offset order; with atRiskFirst,
// the ones below their partition's at-risk threshold come first.
func (h HeldPositions) Want(atRiskFirst bool) []model.TPO {
	var first, rest []model.TPO
	for _, topic := range h.topics {
		to := h.offsets.Topic(topic)
		for p, s := range h.at[topic] {
			po := to.Get(int32(p))
			for _, off := range s.all() {
				dst := &first
				if atRiskFirst && !atRisk(po, off) {
					dst = &rest
				}
				*dst = append(*dst, model.TPO{TP: model.TP{Topic: topic, Partition: int32(p)}, Offset: off})
			}
		}
	}
	return append(first, rest...)
}

// all is the partition's positions of every group type, sorted and distinct.
func (s heldAt) all() []int64 {
	if len(s.started) == 0 {
		return s.committed
	}
	out := slices.Concat(s.committed, s.started)
	slices.Sort(out)
	return slices.Compact(out)
}

// atRisk reports whether a commit at off points below the first record that
// retention cannot delete within the risk window (internal/model/status/classify.go).
func atRisk(po model.PartitionOffsets, off int64) bool {
	if po.RiskOffset == nil {
		return false
	}
	risk := *po.RiskOffset
	if risk < 0 {
		risk = *po.High
	}
	return off < risk
}
