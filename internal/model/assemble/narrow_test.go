package assemble

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// narrowFleet is an observation of several groups as serve reads it (every group): a
// Stable group that subscribes to one of its two topics, an Empty group whose commit times
// were read (its commits expire within the risk window), a group whose offsets could not
// be read, a partition whose watermarks could not be read, a topic whose configs could not
// be read and a topic no group has a commit on.
func narrowFleet(visible bool) model.Observation {
	day := 24 * time.Hour
	a0, a1, b0, b1, c0 := model.TP{Topic: "a", Partition: 0}, model.TP{Topic: "a", Partition: 1}, model.TP{Topic: "b", Partition: 0}, model.TP{Topic: "b", Partition: 1}, model.TP{Topic: "c", Partition: 0}
	ret := func(ms int64) model.Topic {
		return model.Topic{CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(ms)}
	}
	topics := map[string]model.Topic{}
	for name, t := range map[string]model.Topic{"a": ret(7 * day.Milliseconds()), "b": ret(-1), "c": ret(-1), "lonely": ret(-1)} {
		t.Topic, t.Partitions = name, 2
		topics[name] = t
	}
	c := topics["c"]
	c.Partitions, c.CleanupPolicy, c.RetentionMs = 1, nil, nil
	c.Error = (&model.Error{Kind: model.KindDenied, Code: model.Ptr("TOPIC_AUTHORIZATION_FAILED"), Message: "describe configs"}).WithTopic("c")
	topics["c"] = c
	offErr := (&model.Error{Kind: model.KindBroker, Code: model.Ptr("NOT_LEADER_OR_FOLLOWER"), Message: "list offsets"}).WithPartition(b1)
	groupErr := (&model.Error{Kind: model.KindTimeout, Message: "offset fetch"}).WithGroup("broken")
	emptyLog := &model.CommitLog{Status: model.CommitLogRead, Partition: 3, ReadAt: now, Commits: []model.CommitRecord{
		{TP: a0, Offset: 1, CommittedAt: now.Add(-7*day + time.Hour)}, {TP: b0, Offset: 2, CommittedAt: now.Add(-time.Hour)}}}
	member := model.Member{MemberRef: model.MemberRef{MemberID: "m", ClientID: "c", Host: "/10.0.0.1"},
		Assignments: []model.Assignment{{Topic: "a", Partitions: []int32{0, 1}}}, Subscription: &model.Subscription{Topics: []string{"a"}}}
	return model.Observation{
		Bootstrap: "k:9092", ClusterID: model.Ptr("id"), Brokers: 1, AllTopicsVisible: model.Ptr(visible), TakenAt: now, RiskWindow: day,
		OffsetsRetentionMinutes: i64(7 * 24 * 60),
		Topics:                  topics,
		Offsets: map[model.TP]model.PartitionOffsets{
			a0: {Low: i64(0), High: i64(10), LastStable: i64(10), RiskOffset: i64(3)}, a1: {Low: i64(5), High: i64(9), LastStable: i64(9)},
			b0: {Low: i64(0), High: i64(4), LastStable: i64(4)}, b1: {Error: offErr},
			c0:                              {Low: i64(0), High: i64(3), LastStable: i64(3)},
			{Topic: "lonely", Partition: 0}: {Low: i64(0), High: i64(1)}, {Topic: "lonely", Partition: 1}: {Low: i64(0), High: i64(1)},
		},
		Groups: []model.GroupObservation{
			{Group: "live", Type: model.TypeClassic, State: "Stable", ProtocolType: "consumer", Protocol: "range", Listed: true,
				Members: []model.Member{member}, Committed: map[model.TP]int64{a0: 7, a1: 2, b0: 1}},
			{Group: "idle", Type: model.TypeConsumer, State: "Empty", ProtocolType: "consumer", Listed: true, Members: []model.Member{},
				Committed: map[model.TP]int64{a0: 1, b0: 2, c0: 3}, CommitLog: emptyLog},
			{Group: "broken", Type: model.TypeClassic, State: "Stable", Listed: true, Members: []model.Member{}, Error: groupErr},
			{Group: "b-only", Type: model.TypeClassic, State: "Empty", ProtocolType: "consumer", Listed: true, Members: []model.Member{},
				Committed: map[model.TP]int64{b0: 4, b1: 1}},
		},
		Errors: []model.Error{*c.Error, *offErr, *groupErr},
	}
}

// readOf is the observation a read of only the group named (and with topics, of only
// those, whole when whole) would make of the cluster fleet observed: internal/kafka's
// query (internal/kafka/snapshot/snapshot.go: the group's topics, plus the whole topics)
// and its judgement of a group no broker lists (markNotFound, internal/kafka/snapshot).
func readOf(fleet model.Observation, group string, topics []string, whole bool) model.Observation {
	obs := fleet
	obs.Groups, obs.Topics, obs.Offsets, obs.Errors = nil, map[string]model.Topic{}, map[model.TP]model.PartitionOffsets{}, nil
	read := map[string]bool{}
	for _, g := range fleet.Groups {
		if g.Group != group {
			continue
		}
		obs.Groups = append(obs.Groups, g)
		for tp := range g.Committed {
			read[tp.Topic] = true
		}
		for _, m := range g.Members {
			for _, a := range m.Assignments {
				read[a.Topic] = true
			}
		}
	}
	if len(obs.Groups) == 0 {
		e := (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"),
			Message: "the group does not exist: no broker lists it and it has no committed offsets"}).WithGroup(group)
		obs.Groups = []model.GroupObservation{{Group: group, Type: model.TypeClassic, State: "Dead", Coordinator: -1, Members: []model.Member{}, Error: e}}
		obs.Errors = append(obs.Errors, *e)
	}
	for t := range read {
		if len(topics) > 0 && !slices.Contains(topics, t) {
			delete(read, t)
		}
	}
	if whole {
		for _, t := range topics {
			read[t] = true
		}
	}
	for t := range read {
		if tt, ok := fleet.Topics[t]; ok {
			obs.Topics[t] = tt
			for tp, o := range fleet.Offsets {
				if tp.Topic == t {
					obs.Offsets[tp] = o
				}
			}
		}
	}
	for _, e := range fleet.Errors {
		if (e.Group == nil || *e.Group == group) && (e.Topic == nil || read[*e.Topic]) {
			obs.Errors = append(obs.Errors, e)
		}
	}
	return obs
}

// Narrow of a snapshot of every group is what a read of one group (and topics) makes,
// byte for byte in JSON: for every group, one that does not exist, and every topic
// filter, with and without whole topics, with all topics visible and not. Snapshot of
// the read is the oracle.
func TestNarrowIsARead(t *testing.T) {
	filters := [][]string{nil, {"a"}, {"b"}, {"a", "b"}, {"c"}, {"lonely"}, {"nosuch"}}
	for _, visible := range []bool{true, false} {
		fleet := narrowFleet(visible)
		all := Snapshot(fleet, Options{})
		for _, group := range []string{"live", "idle", "broken", "b-only", "absent"} {
			for _, topics := range filters {
				for _, whole := range []bool{false, true} {
					if whole && (len(topics) == 0 || slices.Contains(topics, "lonely")) { // lonely: TestNarrowWholeTopicUnread
						continue
					}
					name := fmt.Sprintf("visible=%v/%s/%v/whole=%v", visible, group, topics, whole)
					t.Run(name, func(t *testing.T) {
						want := Snapshot(readOf(fleet, group, topics, whole), Options{Topics: topics, WholeTopics: whole})
						got := Narrow(&all, NarrowOptions{Groups: []string{group}, Topics: topics, WholeTopics: whole, ByName: true,
							RiskWindow: fleet.RiskWindow})
						if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
							t.Errorf("narrowed:\n%s\nread:\n%s", g, w)
						}
					})
				}
			}
		}
	}
}

// Narrow without a group keeps every group, each with its partitions on the topics; and
// it leaves the snapshot it narrows as it was.
func TestNarrowEveryGroup(t *testing.T) {
	fleet := narrowFleet(true)
	all := Snapshot(fleet, Options{})
	before := jsonOf(t, all)
	for _, topics := range [][]string{nil, {"a"}, {"b"}} {
		obs := fleet
		obs.Errors = slices.DeleteFunc(slices.Clone(fleet.Errors), func(e model.Error) bool {
			return len(topics) > 0 && e.Topic != nil && !slices.Contains(topics, *e.Topic) && !slices.Contains([]string{"a", "b"}, *e.Topic)
		})
		got := Narrow(&all, NarrowOptions{Topics: topics})
		want := Snapshot(obs, Options{Topics: topics})
		used := map[string]bool{}
		for _, g := range want.Groups {
			for _, p := range g.Partitions {
				used[p.Topic] = true
			}
		}
		want.Errors = slices.DeleteFunc(want.Errors, func(e model.Error) bool { return e.Topic != nil && !used[*e.Topic] })
		if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
			t.Errorf("topics %v: narrowed:\n%s\nread:\n%s", topics, g, w)
		}
	}
	if got := Narrow(&all, NarrowOptions{Groups: []string{"absent", "live"}}); len(got.Groups) != 1 || got.Groups[0].Group != "live" {
		t.Errorf("a filter by name made up a group it does not hold: %s", jsonOf(t, got.Groups))
	}
	if after := jsonOf(t, all); after != before {
		t.Errorf("Narrow changed the snapshot it narrowed:\n%s\nwas:\n%s", after, before)
	}
}

// A whole topic's partition that no group of the snapshot has a row on is left out (its
// watermarks were never read), and one whose only rows belong to a group that could not
// be read is too: check then says it is missing from the snapshot.
func TestNarrowWholeTopicUnread(t *testing.T) {
	fleet := narrowFleet(true)
	all := Snapshot(fleet, Options{})
	got := Narrow(&all, NarrowOptions{Groups: []string{"absent"}, Topics: []string{"lonely"}, WholeTopics: true, ByName: true})
	if len(got.Groups) != 1 || len(got.Groups[0].Partitions) != 0 {
		t.Fatalf("groups %s, want absent without partitions", jsonOf(t, got.Groups))
	}
	if len(got.Topics) != 0 {
		t.Errorf("topics %s, want none: the snapshot never read lonely", jsonOf(t, got.Topics))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNarrowKeepsALossThatGrew: a group the time axis saw losing (its lost count grew) is
// still losing now when a read API or check narrows it to one of its topics; one losing only
// because of a live consumer behind the log start on another topic is not.
func TestNarrowKeepsALossThatGrew(t *testing.T) {
	member := []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}}}
	ok := model.GroupPartition{Topic: "a", Partition: 0, Status: model.StatusOK, Low: model.Ptr(int64(0)), High: model.Ptr(int64(9)), Committed: model.Ptr(int64(9))}
	expired := model.GroupPartition{Topic: "b", Partition: 0, Status: model.StatusExpired, Low: model.Ptr(int64(5)), High: model.Ptr(int64(9)), Committed: model.Ptr(int64(1))}.
		With(model.PartitionDetail{Lost: model.Ptr(int64(4))})
	for _, c := range []struct {
		name    string
		members []model.Member
		want    bool
	}{{"grew (idle)", []model.Member{}, true}, {"live behind on b", member, false}} {
		g := model.Group{Group: "g", Members: c.members, Partitions: []model.GroupPartition{ok, expired}, LosingNow: true}
		s := model.Snapshot{Cluster: model.Cluster{AllTopicsVisible: model.Ptr(true)}, Groups: []model.Group{g}, Topics: []model.Topic{{Topic: "a"}, {Topic: "b"}}}
		n := Narrow(&s, NarrowOptions{Topics: []string{"a"}})
		if len(n.Groups) != 1 || n.Groups[0].LosingNow != c.want {
			t.Errorf("%s: narrowed to a, losingNow %v, want %v", c.name, len(n.Groups) == 1 && n.Groups[0].LosingNow, c.want)
		}
	}
}
