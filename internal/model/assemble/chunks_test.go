package assemble

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// inChunks covers every index exactly once, at every size around its chunk bounds.
func TestInChunks(t *testing.T) {
	for _, n := range []int{0, 1, chunkSize, 2*chunkSize - 1, 2 * chunkSize, 2*chunkSize + 1, 10*chunkSize + 7} {
		seen := make([]atomic.Int32, n)
		inChunks(n, func(from, to int) {
			for i := from; i < to; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d done %d times", n, i, c)
			}
		}
	}
}

// Assembling many groups at once gives every group exactly what assembling it alone gives.
func TestAssembleManyGroupsAsAlone(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	obs := model.Observation{TakenAt: now, AllTopicsVisible: model.Ptr(true), Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}}
	for tn := range 20 {
		topic := fmt.Sprintf("t%02d", tn)
		obs.Topics[topic] = model.Topic{Topic: topic, Partitions: 4, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(3_600_000))}
		for p := range int32(4) {
			obs.Offsets[model.TP{Topic: topic, Partition: p}] = model.PartitionOffsets{Low: model.Ptr(int64(10 * p)), High: model.Ptr(int64(100 + p)), LastStable: model.Ptr(int64(100 + p))}
		}
	}
	for g := range 3*chunkSize + 11 {
		c := map[model.TP]int64{}
		for p := range int32(g % 4) {
			c[model.TP{Topic: fmt.Sprintf("t%02d", g%20), Partition: p}] = int64(g % 120) // below low, within, at or past high
		}
		obs.Groups = append(obs.Groups, model.GroupObservation{Group: fmt.Sprintf("g%04d", g), Type: model.TypeClassic, State: "Empty", Committed: c})
	}
	s := Snapshot(obs, Options{})
	if len(s.Groups) != len(obs.Groups) {
		t.Fatalf("%d groups assembled of %d", len(s.Groups), len(obs.Groups))
	}
	ix := newAssembleIndex(obs)
	byName := map[string]model.Group{}
	for _, g := range s.Groups {
		byName[g.Group] = g
	}
	for i := range obs.Groups {
		alone := assembleGroup(&obs.Groups[i], obs, ix, Options{}, &assembleMemory{})
		if got := byName[alone.Group]; !reflect.DeepEqual(got, alone) {
			t.Fatalf("%s assembled with the others:\n%+v\nalone:\n%+v", alone.Group, got, alone)
		}
	}
}

// With --topic, a group takes rows only for the partitions on the topics named: the rows
// of the topics left out are never reserved, so a fleet filtered to one topic holds little.
func TestTopicFilterTakesOnlyItsRows(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	obs := model.Observation{TakenAt: now, AllTopicsVisible: model.Ptr(true), Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}}
	for _, topic := range []string{"a", "b"} {
		obs.Topics[topic] = model.Topic{Topic: topic, Partitions: 50, CleanupPolicy: model.Ptr("delete")}
		for p := range int32(50) {
			obs.Offsets[model.TP{Topic: topic, Partition: p}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(9)), LastStable: model.Ptr(int64(9))}
		}
	}
	for g := range 40 {
		c := map[model.TP]int64{}
		for p := range int32(50) {
			c[model.TP{Topic: "b", Partition: p}] = 3
			if g%10 == 0 {
				c[model.TP{Topic: "a", Partition: p}] = 3
			}
		}
		obs.Groups = append(obs.Groups, model.GroupObservation{Group: fmt.Sprintf("g%02d", g), Type: model.TypeClassic, State: "Empty", Committed: c})
	}
	s := Snapshot(obs, Options{Topics: []string{"a"}})
	if len(s.Groups) != 4 {
		t.Fatalf("%d groups on a, want 4", len(s.Groups))
	}
	for _, g := range s.Groups {
		if len(g.Partitions) != 50 || cap(g.Partitions) != 50 {
			t.Errorf("%s: %d rows in room for %d; want 50 in 50 (none reserved for b)", g.Group, len(g.Partitions), cap(g.Partitions))
		}
	}
}
