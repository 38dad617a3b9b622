package expiry_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/expiry"
)

// The commit-expiry clock's cost at fleet scale: assembling 10,000 groups × 50 partitions
// (classic Empty groups with their commit logs read, the clock's most work), with the
// clock (logs read) and without it (no logs: only the rule). Run with
// `go test -bench CommitExpiry -benchmem ./internal/model/expiry/`; docs/kafka.md has the figures.
func BenchmarkCommitExpiry(b *testing.B) {
	const groups, parts = 10_000, 50
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	obs := model.Observation{TakenAt: now, RiskWindow: 24 * time.Hour, OffsetsRetentionMinutes: model.Ptr(int64(10080)),
		Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{}}
	for t := range 200 {
		name := fmt.Sprintf("topic-%03d", t)
		obs.Topics[name] = model.Topic{Topic: name, Partitions: parts}
		for p := range int32(parts) {
			obs.Offsets[model.TP{Topic: name, Partition: p}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(1000))}
		}
	}
	for g := range groups {
		topic := fmt.Sprintf("topic-%03d", g%200)
		o := model.GroupObservation{Group: fmt.Sprintf("group-%05d", g), Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer",
			Members: []model.Member{}, Committed: map[model.TP]int64{}}
		l := &model.CommitLog{Status: model.CommitLogRead, ReadAt: now, Classic: &model.ClassicRecord{ProtocolType: "consumer", StateAt: now.Add(-time.Hour)}}
		for p := range int32(parts) {
			tp := model.TP{Topic: topic, Partition: p}
			o.Committed[tp] = 500
			l.Commits = append(l.Commits, model.CommitRecord{TP: tp, Offset: 500, CommittedAt: now.Add(-2 * time.Hour)})
		}
		o.CommitLog = l
		obs.Groups = append(obs.Groups, o)
	}
	// The clock alone, over every partition of every group (what assembling adds for it).
	b.Run("clock-only", func(b *testing.B) {
		b.ReportAllocs()
		tps := make([][]model.TP, len(obs.Groups))
		for i := range obs.Groups {
			for _, c := range obs.Groups[i].CommitLog.Commits {
				tps[i] = append(tps[i], c.TP)
			}
		}
		for b.Loop() {
			for i := range obs.Groups {
				g := &obs.Groups[i]
				grp := model.Group{Group: g.Group, Type: g.Type, State: g.State, ProtocolType: g.ProtocolType, Members: g.Members}
				c := expiry.NewClock(&grp, g, &obs, len(g.Committed))
				for _, tp := range tps[i] {
					p := model.GroupPartition{Topic: tp.Topic, Partition: tp.Partition}
					off := g.Committed[tp]
					c.Partition(&p, &off)
				}
				c.Finish(&grp)
			}
		}
	})
	b.Run("with-logs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := assemble.Snapshot(obs, assemble.Options{})
			if s.Groups[0].CommitsExpireAt == nil {
				b.Fatal("no clock")
			}
		}
	})
	noLogs := obs
	noLogs.Groups = make([]model.GroupObservation, len(obs.Groups))
	for i, g := range obs.Groups {
		g.CommitLog = nil
		noLogs.Groups[i] = g
	}
	b.Run("without-logs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := assemble.Snapshot(noLogs, assemble.Options{})
			if s.Groups[0].CommitsExpiry.Latest == nil {
				b.Fatal("no bound")
			}
		}
	})
}
