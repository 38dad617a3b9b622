package assemble

import (
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// fleetObservation is the fleet as Snapshot receives it: groups × 50 committed partitions
// of one topic each (25 groups a topic), every watermark known, committed-record
// timestamps for a tenth of the commits, the configs of a 7-day delete topic.
func fleetObservation(groups int) model.Observation {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	obs := model.Observation{TakenAt: now, AllTopicsVisible: model.Ptr(true), OffsetsRetentionMinutes: model.Ptr(int64(10080)),
		Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}, CommittedTimestamps: map[model.TPO]time.Time{}}
	for g := range groups {
		topic := fmt.Sprintf("t%03d", g/25)
		if _, ok := obs.Topics[topic]; !ok {
			obs.Topics[topic] = model.Topic{Topic: topic, Partitions: 50, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(7 * 24 * 3_600_000))}
			for p := range int32(50) {
				obs.Offsets[model.TP{Topic: topic, Partition: p}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(6)), LastStable: model.Ptr(int64(6)), RiskOffset: model.Ptr(int64(-1))}
			}
		}
		c := map[model.TP]int64{}
		for p := range int32(50) {
			c[model.TP{Topic: topic, Partition: p}] = int64((g + int(p)) % 7)
			if p%10 == 0 {
				obs.CommittedTimestamps[model.TPO{TP: model.TP{Topic: topic, Partition: p}, Offset: c[model.TP{Topic: topic, Partition: p}]}] = now.Add(-time.Hour)
			}
		}
		obs.Groups = append(obs.Groups, model.GroupObservation{Group: fmt.Sprintf("g%05d", g), Type: model.TypeClassic, State: "Empty",
			Listed: true, Committed: c})
	}
	return obs
}

// BenchmarkAssembleFleet: the fleet's 10,000 groups × 50 partitions (500,000 rows)
// classified and rolled up, as one describe does after its reads.
func BenchmarkAssembleFleet(b *testing.B) {
	obs := fleetObservation(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if s := Snapshot(obs, Options{}); len(s.Groups) != 10_000 {
			b.Fatalf("%d groups", len(s.Groups))
		}
	}
}
