package views

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// staleSnapshot is a Stable group whose member subscribes to "active" (lag 3) and that holds
// an expired commit on "stale", classified by assemble.Snapshot.
func staleSnapshot() model.Snapshot {
	active, stale := model.TP{Topic: "active", Partition: 0}, model.TP{Topic: "stale", Partition: 0}
	m := member("svc-1", "active", 0)
	m.Subscription = &model.Subscription{Topics: []string{"active"}}
	return assemble.Snapshot(model.Observation{
		Bootstrap: "127.0.0.1:39092", Brokers: 1, TakenAt: fixtureNow, AllTopicsVisible: model.Ptr(true), OffsetsRetentionMinutes: model.Ptr(int64(10080)),
		Topics: map[string]model.Topic{
			"active": {Topic: "active", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1)), RetentionBytes: model.Ptr(int64(-1))},
			"stale":  {Topic: "stale", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1)), RetentionBytes: model.Ptr(int64(-1))}},
		Offsets: map[model.TP]model.PartitionOffsets{active: {Low: c(0), High: c(10), LastStable: c(10)}, stale: {Low: c(80), High: c(100), LastStable: c(100)}},
		Groups: []model.GroupObservation{{Group: "svc", Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []model.Member{m}, Committed: map[model.TP]int64{active: 7, stale: 20}}},
	}, assemble.Options{})
}

// The list shows the group ok with active's lag alone and the stale partition counted
// apart; the group screen marks the row, says why and when Kafka deletes the commit, and
// neither puts the cursor on it nor keeps it among the problems.
func TestNotConsumedOnScreen(t *testing.T) {
	snap := staleSnapshot()
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return snap, nil }}
	hs := newHarness(t, optsWith(src, newClock()), 220, 30)
	list := hs.view()
	if !strings.Contains(list, "OK 1  NOT-CONSUMED 1") || strings.Contains(list, "EXPIRED") {
		t.Errorf("groups list: want OK 1 and NOT-CONSUMED 1, no EXPIRED:\n%s", list)
	}
	hs.openGroup("svc")
	g := hs.m.top().(*groupScreen)
	if p := g.current(); p == nil || p.Topic != "active" {
		t.Errorf("cursor on %+v, want active (the stale partition is no problem)", p)
	}
	v := hs.view()
	for _, want := range []string{"total lag 3", "NOT CONSUMED  no member subscribes to topic stale (members subscribe to active)",
		"Kafka deletes each of its commits 7d after it was made (offsets.retention.minutes, KIP-496)", "NOT-CONSUMED"} {
		if !strings.Contains(v, want) {
			t.Errorf("group screen lacks %q:\n%s", want, v)
		}
	}
	hs.send(keyType(tea.KeyDown))
	if v := hs.view(); !strings.Contains(v, "NOT-CONSUMED  no member subscribes to stale (members subscribe to active): not in the group's total or status. As a commit it is EXPIRED") {
		t.Errorf("the stale row's explanation:\n%s", v)
	}
	hs.send(keyRunes("p"))
	if len(g.visible) != 0 {
		t.Errorf("problems only keeps %d partitions, want none", len(g.visible))
	}
}
