package views

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// bigSnapshot is n groups of model data, with every status represented.
func bigSnapshot(n int) model.Snapshot {
	s := model.Snapshot{Cluster: model.Cluster{Brokers: 9, TakenAt: model.Stamp{Time: fixtureNow.Add(-snapshot)}}}
	statuses := []model.Status{model.StatusOK, model.StatusOK, model.StatusOK, model.StatusAtRisk,
		model.StatusMissing, model.StatusAhead, model.StatusExpired, model.StatusUnknown}
	for i := range n {
		st := statuses[i%len(statuses)]
		var parts []model.GroupPartition
		for p := range int32(4) {
			parts = append(parts, model.GroupPartition{Topic: fmt.Sprintf("topic-%d", i%97), Partition: p,
				Low: c(0), High: c(1000), Committed: c(int64(900 + i%100)), Lag: c(int64(100 - i%100)), Status: st})
		}
		s.Groups = append(s.Groups, model.Group{
			Group: fmt.Sprintf("service-%05d-consumer", i), Type: "classic", State: "Stable",
			Members: []model.Member{{MemberRef: model.MemberRef{ClientID: "c"}}}, TotalLag: model.Ptr(int64(4 * (100 - i%100))),
			WorstStatus: st, Counts: model.Counts{st: 4}, Partitions: parts,
		})
	}
	model.SortGroupsByUrgency(s.Groups)
	return s
}

func benchApp(b *testing.B) *harness {
	b.Helper()
	snap := bigSnapshot(10_000)
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return snap, nil }}
	opts := Options{Source: src, Cluster: "bench", Refresh: 5 * time.Second, Now: func() time.Time { return fixtureNow }}
	hs := newHarness(b, opts, 120, 40)
	if got := len(hs.m.stack[0].(*groupsScreen).rows); got != 10_000 {
		b.Fatalf("%d rows", got)
	}
	return hs
}

// BenchmarkGroupsView: 10,000 groups, one keystroke (Update + View) per op.
func BenchmarkGroupsView(b *testing.B) {
	b.Run("cursor", func(b *testing.B) {
		m := benchApp(b).m
		down, up := tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyUp}
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			k := down
			if (i/500)%2 == 1 { // walk 500 rows down, then back up: the window scrolls
				k = up
			}
			m.Update(k)
			_ = m.View()
		}
	})
	b.Run("filter", func(b *testing.B) {
		m := benchApp(b).m
		m.Update(keyRunes("/"))
		m.Update(keyRunes("service-0"))
		typed := []tea.KeyMsg{keyRunes("1"), {Type: tea.KeyBackspace}}
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			m.Update(typed[i%2])
			_ = m.View()
		}
	})
}

// fleetSnapshot is the fleet's shape: n groups × 50 committed partitions,
// 25 groups per topic, taken at `at`.
func fleetSnapshot(n int, at time.Time) model.Snapshot {
	s := model.Snapshot{Cluster: model.Cluster{Brokers: 3, TakenAt: model.Stamp{Time: at}, AllTopicsVisible: model.Ptr(true)},
		Topics: []model.Topic{}, Errors: []model.Error{}}
	for i := range n {
		g := model.Group{Group: fmt.Sprintf("g%04d", i), Type: "classic", State: "Empty", Members: []model.Member{},
			TotalLag: model.Ptr(int64(50)), Counts: model.Counts{model.StatusOK: 50}}
		topic := fmt.Sprintf("t%03d", i/25)
		for p := range int32(50) {
			g.Partitions = append(g.Partitions, model.GroupPartition{Topic: topic, Partition: p, Low: c(0), High: c(6),
				Committed: c(5), Lag: c(1), Status: model.StatusOK})
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

// BenchmarkSnapshotApplied: what a refresh of the fleet (10,000 groups × 50
// partitions) costs. "loop" is what the program's loop spends, where keys
// wait meanwhile: the list rebuilds its rows and renders. "axis" is the time
// axis recording and evaluating the snapshot, done by the command that read
// it, off the loop. The history already holds 16 samples.
func BenchmarkSnapshotApplied(b *testing.B) {
	at := fixtureNow
	hs := newHarness(b, Options{Source: &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return fleetSnapshot(10, at), nil }},
		Cluster: "bench", Now: func() time.Time { return at }}, 200, 50)
	m := hs.m
	next := func() model.Snapshot {
		at = at.Add(5 * time.Second)
		return fleetSnapshot(10_000, at)
	}
	apply := func(s model.Snapshot) {
		m.ref.gen++
		m.ref.inFlight = true
		m.Update(snapshotLoadedMsg{gen: m.ref.gen, snap: s, started: at, ended: at})
		_ = m.View()
	}
	for range 16 { // as many samples as the TUI keeps (timeaxis.NewWatchHistory)
		s := next()
		m.axis.record(&s, true)
		apply(s)
	}
	b.Run("loop", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			s := next()
			m.axis.record(&s, true)
			b.StartTimer()
			apply(s)
		}
	})
	b.Run("axis", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			s := next()
			b.StartTimer()
			m.axis.record(&s, true)
		}
	})
}
