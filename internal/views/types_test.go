package views

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// typesSnapshot holds one group of each type beside a consumer group: a share group (a
// start offset below the log start, a partition without one, its share.auto.offset.reset),
// a live streams group (topology, a member's tasks), a group of a type offsettui does not
// know, and a consumer group whose describe failed (members unknown).
func typesSnapshot() model.Snapshot {
	now := fixtureNow.Add(-snapshot)
	topics := fixtureTopics()
	_ = now
	sm := model.Member{MemberRef: model.MemberRef{MemberID: "Ab3-streams-member", ClientID: "enricher-StreamThread-1-consumer", Host: "/10.0.0.9"},
		Assignments: []model.Assignment{{Topic: "clicks", Partitions: []int32{0, 1}}}, ProcessID: model.Ptr("5ce4866f-140e"),
		Tasks: &model.Tasks{Active: []model.TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}}
	obs := model.Observation{Bootstrap: "127.0.0.1:39092", Brokers: 3, TakenAt: now, AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{"outbox": topics["outbox"].Topic, "clicks": {Topic: "clicks", Partitions: 2, CleanupPolicy: model.Ptr("delete"),
			RetentionMs: model.Ptr(week.Milliseconds()), RetentionBytes: model.Ptr[int64](-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "outbox", Partition: 0}: {Low: c(30), High: c(40), RiskOffset: c(30)},
			{Topic: "clicks", Partition: 0}: {Low: c(0), High: c(100), RiskOffset: c(0)},
			{Topic: "clicks", Partition: 1}: {Low: c(0), High: c(100), RiskOffset: c(0)},
		},
		Groups: []model.GroupObservation{
			{Group: "mail-queue", Type: model.TypeShare, State: "Empty", ProtocolType: "share", Coordinator: 1, Listed: true,
				Members: []model.Member{}, StartOffsets: map[model.TP]int64{{Topic: "outbox", Partition: 0}: 20},
				ShareLag: map[model.TP]int64{{Topic: "outbox", Partition: 0}: 20}, ShareAutoOffsetReset: model.Ptr("earliest")},
			{Group: "enricher", Type: model.TypeStreams, State: "Stable", ProtocolType: "streams", Protocol: "sticky", Coordinator: 2, Listed: true,
				Members: []model.Member{sm}, Committed: map[model.TP]int64{{Topic: "clicks", Partition: 0}: 99, {Topic: "clicks", Partition: 1}: 100},
				Topology: &model.Topology{Epoch: 0, Subtopologies: []model.Subtopology{{ID: "0", SourceTopics: []string{"clicks"},
					RepartitionSourceTopics: []string{}, RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{}}}}},
			{Group: "pipeline-7", Type: model.TypeUnknown, RawType: "Pipeline", State: "Flowing", Coordinator: 3, Listed: true,
				DescribeError: (&model.Error{Kind: model.KindUnsupported, Message: `group type "Pipeline" (ListGroups) is not known to offsettui: not described, not reset`}).WithGroup("pipeline-7")},
			{Group: "billing", Type: model.TypeConsumer, State: "Stable", Coordinator: 1, Listed: true,
				DescribeError: (&model.Error{Kind: model.KindNotFound, Message: "describe consumer group: GROUP_ID_NOT_FOUND"}).WithGroup("billing")},
		},
	}
	for i := range obs.Groups {
		if g := &obs.Groups[i]; g.DescribeError != nil {
			g.Error = g.DescribeError
		}
	}
	return assemble.Snapshot(obs, assemble.Options{})
}

// typesLoaded is a harness on typesSnapshot.
func typesLoaded(t *testing.T, w, h int) *harness {
	t.Helper()
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := typesSnapshot()
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}}
	return newHarness(t, optsWith(src, newClock()), w, h)
}

// TestGoldenGroupTypes: the groups list shows each group's type; a group whose describe
// failed has members "?", not 0; a type offsettui does not know is "unknown".
func TestGoldenGroupTypes(t *testing.T) {
	hs := typesLoaded(t, 120, 24)
	v := hs.view()
	for _, want := range []string{"share", "streams", "unknown", "consumer"} {
		if !strings.Contains(v, want) {
			t.Errorf("groups list lacks type %q:\n%s", want, v)
		}
	}
	goldenView(t, hs, 120, 24)
}

// TestGoldenShareGroup: a share group's screen says share.auto.offset.reset and that its
// start offsets never expire, and its position column is START.
func TestGoldenShareGroup(t *testing.T) {
	hs := typesLoaded(t, 120, 24).send(keyRunes(":")).typeText("g mail-queue").send(keyType(tea.KeyEnter))
	v := hs.view()
	for _, want := range []string{"share.auto.offset.reset=earliest", "never expire", "START", "EXPIRED",
		"10 records (20..29) were deleted before share group mail-queue delivered them"} {
		if !strings.Contains(v, want) {
			t.Errorf("share group screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "COMMITTED") {
		t.Errorf("share group screen has a COMMITTED column:\n%s", v)
	}
	goldenView(t, hs, 120, 24)
}

// TestGoldenStreamsGroup: a streams group's screen shows its topology and each member's
// tasks.
func TestGoldenStreamsGroup(t *testing.T) {
	hs := typesLoaded(t, 120, 24).send(keyRunes(":")).typeText("g enricher").send(keyType(tea.KeyEnter))
	v := hs.view()
	for _, want := range []string{"subtopology 0 reads clicks", "ACTIVE: 0:[0,1];", "COMMITTED"} {
		if !strings.Contains(v, want) {
			t.Errorf("streams group screen lacks %q:\n%s", want, v)
		}
	}
	goldenView(t, hs, 120, 24)
}

// TestFilterByType: /share, /type:share, /streams, /type:unknown and !share keep the
// groups of those types; bare "unknown" stays the status.
func TestFilterByType(t *testing.T) {
	hs := typesLoaded(t, 120, 24)
	g := hs.m.stack[0].(*groupsScreen)
	for _, tc := range []struct {
		filter string
		want   []string
	}{
		{"share", []string{"mail-queue"}},
		{"type:share", []string{"mail-queue"}},
		{"streams", []string{"enricher"}},
		{"type:unknown", []string{"pipeline-7"}},
		{"consumer", []string{"billing"}},
		{"!share !streams", []string{"billing", "pipeline-7"}},
		{"unknown", nil}, // the status: no partition here is unknown
	} {
		g.setFilter(tc.filter)
		var got []string
		for _, i := range g.visible {
			got = append(got, g.rows[i].g.Group)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("/%s kept %v, want %v", tc.filter, got, tc.want)
		}
	}
}

// The planner of a share group never offers --shift-by or --by-duration, which
// kafka-share-groups.sh does not have: ←/→ walk past them. They were offered
// and blocked only once a value was typed.
func TestPlannerOffersShareGroupsTheirStrategies(t *testing.T) {
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := typesSnapshot()
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}}
	opts := optsWith(src, newClock())
	opts.Resetter = &fakeResetter{}
	hs := newHarness(t, opts, 120, 40).send(keyRunes(":")).typeText("g mail-queue").send(keyType(tea.KeyEnter), keyRunes("R"))
	p := hs.planner()
	if p == nil {
		t.Fatal("R did not open the planner")
	}
	var offered []plan.StrategyKind
	for range plannerKinds {
		offered = append(offered, plannerKinds[p.kind])
		hs.send(keyRunes("l"))
	}
	for _, k := range offered {
		if k == plan.ShiftBy || k == plan.ByDuration {
			t.Errorf("a share group is offered %s: offered %v", k.Flag(), offered)
		}
	}
	if !slices.Contains(offered, plan.ToDatetime) || !slices.Contains(offered, plan.Restore) {
		t.Errorf("offered %v, want share groups' own strategies", offered)
	}
}
