package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// A streams member restoring its active task 0_0 beside one whose tasks run: describe's
// table says what is left to restore, per group and per member; the JSON has the member's
// restoreLag and its tasks' offsets, and null (not 0) for the member the broker sent none for.
func TestDescribeStreamsRestore(t *testing.T) {
	in := model.TP{Topic: "in", Partition: 0}
	tasks := &model.Tasks{Active: []model.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}
	restoring := model.Member{MemberRef: model.MemberRef{MemberID: "m1"}, ProcessID: model.Ptr("p1"), Tasks: tasks, Assignments: []model.Assignment{}}
	restoring.TaskOffsets, restoring.RestoreLag = model.StreamsRestore(tasks, map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 1200},
		map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 20000})
	running := model.Member{MemberRef: model.MemberRef{MemberID: "m2"}, ProcessID: model.Ptr("p2"), Assignments: []model.Assignment{},
		Tasks: &model.Tasks{Active: []model.TaskIDs{}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}, TaskOffsets: []model.TaskOffsets{}}
	s := assemble.Snapshot(model.Observation{Bootstrap: "k:9092", Brokers: 1, TakenAt: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"in": {Topic: "in", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{in: {Low: i64(0), High: i64(10), LastStable: i64(10)}},
		Groups: []model.GroupObservation{{Group: "counter", Type: model.TypeStreams, State: "Stable", ProtocolType: "streams", Listed: true,
			Members: []model.Member{restoring, running}, Committed: map[model.TP]int64{in: 10},
			Topology: &model.Topology{Subtopologies: []model.Subtopology{{ID: "0", SourceTopics: []string{"in"}, RepartitionSourceTopics: []string{},
				RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{"counter-counts-changelog"}}}}}},
	}, assemble.Options{})
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  RESTORING: 18,800 changelog records left to restore in 1 active task\n",
		"  member m1 process p1: ACTIVE: 0:[0]; · restore lag 18,800 (0_0 active at 1,200 of 20,000)\n", "  member m2 process p2: -\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("describe lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := DescribeJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"memberId":"m1",`, `"restoreLag":18800,"taskOffsets":[{"subtopology":"0","partition":0,"role":"active","changelogOffset":1200,"changelogEndOffset":20000,"restoreLag":18800}]`,
		`"restoreLag":null,"taskOffsets":[]`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}
