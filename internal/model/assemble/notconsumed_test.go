package assemble

import (
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// A Stable group whose member subscribes to "active" and that still holds a commit on
// "stale", below its log start: the stale partitions are marked not consumed and left out of
// counts, worst status and total lag; the same commits in an Empty group are judged as ever.
func TestAssembleNotConsumed(t *testing.T) {
	active, stale := model.TP{Topic: "active", Partition: 0}, model.TP{Topic: "stale", Partition: 0}
	member := model.Member{MemberRef: model.MemberRef{MemberID: "m"}, Assignments: []model.Assignment{{Topic: "active", Partitions: []int32{0}}},
		Subscription: &model.Subscription{Topics: []string{"active"}}}
	obs := model.Observation{
		TakenAt: now, AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{"active": {Topic: "active", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1)},
			"stale": {Topic: "stale", Partitions: 2, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{
			active: {Low: i64(0), High: i64(10)},
			stale:  {Low: i64(80), High: i64(100)}, {Topic: "stale", Partition: 1}: {Low: i64(0), High: i64(5)},
		},
		Groups: []model.GroupObservation{
			{Group: "stable", Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer", Members: []model.Member{member},
				Committed: map[model.TP]int64{active: 7, stale: 20}},
			{Group: "empty", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []model.Member{},
				Committed: map[model.TP]int64{active: 7, stale: 20}},
		},
	}
	s := Snapshot(obs, Options{})
	byName := map[string]model.Group{}
	for _, g := range s.Groups {
		byName[g.Group] = g
	}
	g := byName["stable"]
	var marks []string
	for _, p := range g.Partitions {
		marks = append(marks, p.TP().String()+"="+text.OrDash(boolText(p.Subscribed))+"/"+p.Status.String())
	}
	if want := []string{"active-0=true/ok", "stale-0=false/expired", "stale-1=false/missing"}; !slices.Equal(marks, want) {
		t.Errorf("stable: partitions %v, want %v", marks, want)
	}
	if g.TotalLag == nil || *g.TotalLag != 3 || g.WorstStatus != model.StatusOK || len(g.Counts) != 1 || g.Counts[model.StatusOK] != 1 ||
		!slices.Equal(g.UnsubscribedTopics, []string{"stale"}) || g.HasProblem() {
		t.Errorf("stable: totalLag %s worst %v counts %v unsubscribed %v problem %v; want 3 (active's alone), ok, {ok:1}, [stale], no problem",
			text.Num(g.TotalLag), g.WorstStatus, g.Counts, g.UnsubscribedTopics, g.HasProblem())
	}
	// The lag of a partition nobody consumes is still shown.
	if p := g.Partitions[1]; p.Lag == nil || *p.Lag != 80 || p.Lost() == nil || *p.Lost() != 60 {
		t.Errorf("stale-0: lag %s lost %s, want 80 and 60", text.Num(p.Lag), text.Num(p.Lost()))
	}
	e := byName["empty"]
	for _, p := range e.Partitions {
		if p.Subscribed != nil {
			t.Errorf("empty %s: subscribed %v, want null (no members: nobody consumes now, the group is judged whole)", p.TP(), *p.Subscribed)
		}
	}
	if e.TotalLag == nil || *e.TotalLag != 3+80 || e.WorstStatus != model.StatusExpired || e.UnsubscribedTopics != nil {
		t.Errorf("empty: totalLag %s worst %v unsubscribed %v; want 83, expired, null", text.Num(e.TotalLag), e.WorstStatus, e.UnsubscribedTopics)
	}
	// A member whose subscription is not known marks nothing.
	obs.Groups = obs.Groups[:1]
	obs.Groups[0].Members = []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}}}
	u := Snapshot(obs, Options{}).Groups[0]
	if u.WorstStatus != model.StatusExpired || u.UnsubscribedTopics != nil || u.Partitions[1].Subscribed != nil {
		t.Errorf("unknown subscription: worst %v unsubscribed %v, want expired and null", u.WorstStatus, u.UnsubscribedTopics)
	}
}

func boolText(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "true"
	}
	return "false"
}
