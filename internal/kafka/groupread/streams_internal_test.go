package groupread

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A streams member as StreamsGroupDescribe gives it while its active task 0_0 restores: the
// task's changelog offsets and end offsets become its restore lag and the member's; a member
// the broker sent none for has [] and no lag (the real broker's answer is in
// TestRealKafkaStreamsRestoreLag, cmd/offsettui).
func TestStreamsMemberRestore(t *testing.T) {
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID, m.ProcessID = "m1", "p1"
	m.Assignment.ActiveTasks = []kmsg.TaskIDs{{SubtopologyID: "0", Partitions: []int32{0}}}
	m.TaskOffsets = []kmsg.TaskOffset{{SubtopologyID: "0", Partition: 0, Offset: 1200}}
	m.TaskEndOffsets = []kmsg.TaskOffset{{SubtopologyID: "0", Partition: 0, Offset: 20000}}
	got := streamsMember(m, nil)
	if model.Deref(got.RestoreLag) != 18800 || len(got.TaskOffsets) != 1 || got.TaskOffsets[0].Role != model.RoleActive ||
		model.Deref(got.TaskOffsets[0].RestoreLag) != 18800 {
		t.Errorf("restoring: lag %v, tasks %+v; want 18800 for the member and its active task 0_0", got.RestoreLag, got.TaskOffsets)
	}
	m.TaskOffsets, m.TaskEndOffsets = []kmsg.TaskOffset{}, []kmsg.TaskOffset{}
	if got := streamsMember(m, nil); got.RestoreLag != nil || got.TaskOffsets == nil || len(got.TaskOffsets) != 0 {
		t.Errorf("none sent: lag %v, tasks %+v; want null and []", got.RestoreLag, got.TaskOffsets)
	}
}
