package model

import (
	"fmt"
	"testing"
	"time"
)

// fleetObservation is the fleet as Assemble receives it: groups × 50 committed partitions
// of one topic each (25 groups a topic), every watermark known, committed-record
// timestamps for a tenth of the commits, the configs of a 7-day delete topic.
func fleetObservation(groups int) Observation {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	obs := Observation{TakenAt: now, AllTopicsVisible: Ptr(true), OffsetsRetentionMinutes: Ptr(int64(10080)),
		Topics: map[string]Topic{}, Offsets: map[TP]PartitionOffsets{}, CommittedTimestamps: map[TPO]time.Time{}}
	for g := range groups {
		topic := fmt.Sprintf("t%03d", g/25)
		if _, ok := obs.Topics[topic]; !ok {
			obs.Topics[topic] = Topic{Topic: topic, Partitions: 50, CleanupPolicy: Ptr("delete"), RetentionMs: Ptr(int64(7 * 24 * 3_600_000))}
			for p := range int32(50) {
				obs.Offsets[TP{topic, p}] = PartitionOffsets{Low: Ptr(int64(0)), High: Ptr(int64(6)), LastStable: Ptr(int64(6)), RiskOffset: Ptr(int64(-1))}
			}
		}
		c := map[TP]int64{}
		for p := range int32(50) {
			c[TP{topic, p}] = int64((g + int(p)) % 7)
			if p%10 == 0 {
				obs.CommittedTimestamps[TPO{TP{topic, p}, c[TP{topic, p}]}] = now.Add(-time.Hour)
			}
		}
		obs.Groups = append(obs.Groups, GroupObservation{Group: fmt.Sprintf("g%05d", g), Type: TypeClassic, State: "Empty",
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
		if s := Assemble(obs, AssembleOptions{}); len(s.Groups) != 10_000 {
			b.Fatalf("%d groups", len(s.Groups))
		}
	}
}
