package serve

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// A streams member restoring its active task 0_0 (and a standby 1_2 behind) has one series
// per task with a known restore lag; a task whose end offset the broker has not sent and a
// member the broker sent nothing for have none, never 0.
func TestStreamsRestoreLagSeries(t *testing.T) {
	clk := &fixedClock{now: t0}
	tasks := &model.Tasks{Active: []model.TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}}, Standby: []model.TaskIDs{{Subtopology: "1", Partitions: []int32{2}}}}
	restoring := model.Member{MemberRef: model.MemberRef{MemberID: "m1"}, Tasks: tasks}
	restoring.TaskOffsets, restoring.RestoreLag = model.StreamsRestore(tasks,
		map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 1200, {Subtopology: "0", Partition: 1}: 7, {Subtopology: "1", Partition: 2}: 40},
		map[model.TaskID]int64{{Subtopology: "0", Partition: 0}: 20000, {Subtopology: "1", Partition: 2}: 50})
	running := model.Member{MemberRef: model.MemberRef{MemberID: "m2"}, Tasks: &model.Tasks{}, TaskOffsets: []model.TaskOffsets{}}
	g := group("app", 0, part("in", 0, 10, 10, model.StatusOK))
	g.Type, g.Members = model.TypeStreams, []model.Member{restoring, running}
	e := newTestExporter(t, &scripted{snap: snapshotAt(t0, g)}, clk, 0)
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_streams_restore_lag_records")
	want := []string{
		`offsettui_streams_restore_lag_records{cluster="prod",group="app",member="m1",partition="0",role="active",subtopology="0",type="streams"} 18800`,
		`offsettui_streams_restore_lag_records{cluster="prod",group="app",member="m1",partition="2",role="standby",subtopology="1",type="streams"} 10`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
