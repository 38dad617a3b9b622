package serve_test

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/report"
)

// The demo has no streams group and no topic of the empty cleanup.policy: a document with a
// streams member restoring (its taskOffsets and restoreLag), one whose tasks run, and a topic
// never deleted is what /api/v1/openapi.json says too.
func TestRestoreAndNeverDeletedMatchTheSchema(t *testing.T) {
	doc, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	in := model.TP{Topic: "in", Partition: 0}
	tasks := &model.Tasks{Active: []model.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}
	restoring := model.Member{MemberRef: model.MemberRef{MemberID: "m1"}, ProcessID: model.Ptr("p1"), Tasks: tasks, Assignments: []model.Assignment{}}
	restoring.TaskOffsets, restoring.RestoreLag = model.StreamsRestore(tasks, map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 1200},
		map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 20000, {Subtopology: "1", Partition: 0}: 5})
	running := model.Member{MemberRef: model.MemberRef{MemberID: "m2"}, ProcessID: model.Ptr("p2"), Assignments: []model.Assignment{},
		Tasks: &model.Tasks{Active: []model.TaskIDs{}, Standby: []model.TaskIDs{}, Warmup: []model.TaskIDs{}}, TaskOffsets: []model.TaskOffsets{}}
	s := assemble.Snapshot(model.Observation{Bootstrap: "k:9092", Brokers: 1, TakenAt: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), AllTopicsVisible: model.Ptr(true),
		Topics:  map[string]model.Topic{"in": {Topic: "in", Partitions: 1, CleanupPolicy: model.Ptr(""), RetentionMs: model.Ptr(int64(60000)), RetentionBytes: model.Ptr(int64(-1))}},
		Offsets: map[model.TP]model.PartitionOffsets{in: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(10)), LastStable: model.Ptr(int64(10))}},
		Groups: []model.GroupObservation{{Group: "counter", Type: model.TypeStreams, State: "Stable", ProtocolType: "streams", Listed: true,
			Members: []model.Member{restoring, running}, Committed: map[model.TP]int64{in: 3},
			Topology: &model.Topology{Subtopologies: []model.Subtopology{{ID: "0", SourceTopics: []string{"in"}, RepartitionSourceTopics: []string{},
				RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{"counter-counts-changelog"}}}}}},
	}, assemble.Options{})
	var b bytes.Buffer
	if err := report.DescribeJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	validate(t, openAPISchema(t, doc, "Describe"), "a restoring streams group on a never-deleted topic", b.Bytes())
	if !bytes.Contains(b.Bytes(), []byte(`"role":"none","changelogOffset":null,"changelogEndOffset":5`)) {
		t.Errorf("the document lacks the task reported with an end offset alone:\n%s", b.String())
	}
}
