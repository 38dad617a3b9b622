package views

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// restoringSnapshot is a Stable streams group with two members: one restoring its active
// task 0_0 (1,200 of 20,000 changelog records), one whose tasks run (the broker sent no
// offsets for it).
func restoringSnapshot() model.Snapshot {
	in := model.TP{Topic: "in", Partition: 0}
	tasks := &model.Tasks{Active: []model.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}
	restoring := model.Member{MemberRef: model.MemberRef{MemberID: "m-restoring", ClientID: "counter-1"}, ProcessID: model.Ptr("p1"), Tasks: tasks,
		Assignments: []model.Assignment{{Topic: "in", Partitions: []int32{0}}}}
	restoring.TaskOffsets, restoring.RestoreLag = model.StreamsRestore(tasks, map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 1200},
		map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 20000})
	running := model.Member{MemberRef: model.MemberRef{MemberID: "m-running", ClientID: "counter-2"}, ProcessID: model.Ptr("p2"),
		Tasks: &model.Tasks{Active: []model.TaskIDs{}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}, Assignments: []model.Assignment{},
		TaskOffsets: []model.TaskOffsets{}}
	return assemble.Snapshot(model.Observation{Bootstrap: "127.0.0.1:39092", Brokers: 1, TakenAt: fixtureNow, AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"in": {Topic: "in", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(-1)), RetentionBytes: model.Ptr(int64(-1))}},
		Offsets: map[model.TP]model.PartitionOffsets{in: {Low: c(0), High: c(10), LastStable: c(10)}},
		Groups: []model.GroupObservation{{Group: "counter", Type: model.TypeStreams, State: "Stable", ProtocolType: "streams", Listed: true,
			Members: []model.Member{restoring, running}, Committed: map[model.TP]int64{in: 10},
			Topology: &model.Topology{Subtopologies: []model.Subtopology{{ID: "0", SourceTopics: []string{"in"}, RepartitionSourceTopics: []string{},
				RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{"counter-counts-changelog"}}}}}},
	}, assemble.Options{})
}

// The streams screen says how much the group still restores, and each member what it
// reported; the member whose tasks run shows no restore, not a lag of 0.
func TestStreamsRestoreOnScreen(t *testing.T) {
	snap := restoringSnapshot()
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) { return snap, nil }}
	hs := newHarness(t, optsWith(src, newClock()), 200, 30)
	hs.openGroup("counter")
	v := hs.view()
	for _, want := range []string{"RESTORING  18,800 changelog records left to restore in 1 active task",
		"restore lag 18,800 (0_0 active at 1,200 of 20,000)"} {
		if !strings.Contains(v, want) {
			t.Errorf("streams screen lacks %q:\n%s", want, v)
		}
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "counter-2") && strings.Contains(l, "restore") {
			t.Errorf("the running member shows a restore: %q", l)
		}
	}
}
