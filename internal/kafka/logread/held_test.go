package logread

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// The held positions of a random observation are, per partition, every group's position
// with low ≤ position < high, once each, sorted by topic, partition and offset; at-risk
// ones first when asked. Positions on partitions metadata does not know, or whose
// watermarks failed, are not held. Share groups hold start offsets, others commits.
func TestHeldPositions(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, seed))
		obs := &model.Observation{Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}}
		for ti := range 3 {
			name := fmt.Sprintf("t%d", ti)
			obs.Topics[name] = model.Topic{Topic: name, Partitions: 4}
			for p := range int32(4) {
				po := model.PartitionOffsets{Low: model.Ptr(int64(5)), High: model.Ptr(int64(15)), RiskOffset: model.Ptr(int64(r.IntN(20) - 1))}
				if r.IntN(8) == 0 {
					po.Error = &model.Error{Message: "list offsets"}
				}
				obs.Offsets[model.TP{Topic: name, Partition: p}] = po
			}
		}
		for gi := range 12 {
			g := model.GroupObservation{Group: fmt.Sprintf("g%d", gi), Type: []string{model.TypeClassic, model.TypeConsumer, model.TypeShare}[r.IntN(3)]}
			pos := map[model.TP]int64{}
			for range r.IntN(8) {
				pos[model.TP{Topic: fmt.Sprintf("t%d", r.IntN(4)), Partition: int32(r.IntN(6))}] = int64(r.IntN(20))
			}
			if g.Type == model.TypeShare {
				g.StartOffsets = pos
				g.Committed = map[model.TP]int64{{Topic: "t0", Partition: 0}: 7} // not a share group's position
			} else {
				g.Committed = pos
			}
			obs.Groups = append(obs.Groups, g)
		}
		for _, atRiskFirst := range []bool{false, true} {
			got := HoldPositions(obs).Want(atRiskFirst)
			if want := heldByHand(obs, atRiskFirst); !slices.Equal(got, want) {
				t.Fatalf("seed %d, at-risk first %v:\n got %v\nwant %v", seed, atRiskFirst, got, want)
			}
		}
	}
}

// heldByHand is the held positions the slow way.
func heldByHand(obs *model.Observation, atRiskFirst bool) []model.TPO {
	var all []model.TPO
	for _, g := range obs.Groups {
		for tp, off := range g.Positions() {
			po, ok := obs.Offsets[tp]
			if ok && tp.Partition < int32(obs.Topics[tp.Topic].Partitions) && po.Error == nil && off >= *po.Low && off < *po.High &&
				!slices.Contains(all, model.TPO{TP: tp, Offset: off}) {
				all = append(all, model.TPO{TP: tp, Offset: off})
			}
		}
	}
	slices.SortFunc(all, func(a, b model.TPO) int {
		if c := model.CompareTP(a.TP, b.TP); c != 0 {
			return c
		}
		return int(a.Offset - b.Offset)
	})
	if !atRiskFirst {
		return all
	}
	var first, rest []model.TPO
	for _, w := range all {
		if atRisk(obs.Offsets[w.TP], w.Offset) {
			first = append(first, w)
		} else {
			rest = append(rest, w)
		}
	}
	return append(first, rest...)
}
