package model

import (
	"fmt"
	"testing"
	"time"
)

// The commit-expiry clock's cost at fleet scale: Assemble of 10,000 groups × 50 partitions
// (classic Empty groups with their commit logs read, the clock's most work), with the
// clock (logs read) and without it (no logs: only the rule). Run with
// `go test -bench CommitExpiry -benchmem ./internal/model/`; docs/kafka.md has the figures.
func BenchmarkCommitExpiry(b *testing.B) {
	const groups, parts = 10_000, 50
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	obs := Observation{TakenAt: now, RiskWindow: 24 * time.Hour, OffsetsRetentionMinutes: Ptr(int64(10080)),
		Topics: map[string]Topic{}, Offsets: map[TP]PartitionOffsets{}}
	for t := range 200 {
		name := fmt.Sprintf("topic-%03d", t)
		obs.Topics[name] = Topic{Topic: name, Partitions: parts}
		for p := range int32(parts) {
			obs.Offsets[TP{name, p}] = PartitionOffsets{Low: Ptr(int64(0)), High: Ptr(int64(1000))}
		}
	}
	for g := range groups {
		topic := fmt.Sprintf("topic-%03d", g%200)
		o := GroupObservation{Group: fmt.Sprintf("group-%05d", g), Type: TypeClassic, State: "Empty", ProtocolType: "consumer",
			Members: []Member{}, Committed: map[TP]int64{}}
		l := &CommitLog{Status: CommitLogRead, ReadAt: now, Classic: &ClassicRecord{ProtocolType: "consumer", StateAt: now.Add(-time.Hour)}}
		for p := range int32(parts) {
			tp := TP{topic, p}
			o.Committed[tp] = 500
			l.Commits = append(l.Commits, CommitRecord{TP: tp, Offset: 500, CommittedAt: now.Add(-2 * time.Hour)})
		}
		o.CommitLog = l
		obs.Groups = append(obs.Groups, o)
	}
	// The clock alone, over every partition of every group (what Assemble adds for it).
	b.Run("clock-only", func(b *testing.B) {
		b.ReportAllocs()
		tps := make([][]TP, len(obs.Groups))
		for i := range obs.Groups {
			for _, c := range obs.Groups[i].CommitLog.Commits {
				tps[i] = append(tps[i], c.TP)
			}
		}
		for b.Loop() {
			for i := range obs.Groups {
				g := &obs.Groups[i]
				grp := Group{Group: g.Group, Type: g.Type, State: g.State, ProtocolType: g.ProtocolType, Members: g.Members}
				c := newExpiryClock(&grp, g, &obs, len(g.Committed))
				for _, tp := range tps[i] {
					p := GroupPartition{Topic: tp.Topic, Partition: tp.Partition}
					off := g.Committed[tp]
					c.partition(&p, &off)
				}
				c.finish(&grp)
			}
		}
	})
	b.Run("with-logs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := Assemble(obs, AssembleOptions{})
			if s.Groups[0].CommitsExpireAt == nil {
				b.Fatal("no clock")
			}
		}
	})
	noLogs := obs
	noLogs.Groups = make([]GroupObservation, len(obs.Groups))
	for i, g := range obs.Groups {
		g.CommitLog = nil
		noLogs.Groups[i] = g
	}
	b.Run("without-logs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := Assemble(noLogs, AssembleOptions{})
			if s.Groups[0].CommitsExpiry.Latest == nil {
				b.Fatal("no bound")
			}
		}
	})
}
