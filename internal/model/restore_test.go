package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// StreamsRestore pairs what a member reported with its tasks: a restoring active task's lag
// is end − offset; a task with one of the two, or inconsistent ones, has none, and then the
// member's sum is unknown, never partial; standby and unassigned tasks keep their own lag
// outside the member's; nothing reported is [] with no lag, never 0.
func TestStreamsRestore(t *testing.T) {
	tasks := &Tasks{Active: []TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}, {Subtopology: "10", Partitions: []int32{0}}},
		Standby: []TaskIDs{{Subtopology: "2", Partitions: []int32{3}}}}
	id := func(s string, p int32) TaskID { return TaskID{Subtopology: s, Partition: p} }
	for _, c := range []struct {
		name       string
		offs, ends map[TaskID]int64
		tasks      string
		member     *int64
	}{
		{"nothing reported", nil, nil, "", nil},
		{"one active restoring", map[TaskID]int64{id("0", 0): 1200}, map[TaskID]int64{id("0", 0): 10000},
			"0/0 active 1200 10000 8800", Ptr(int64(8800))},
		{"two active and a standby", map[TaskID]int64{id("0", 1): 5, id("10", 0): 0, id("2", 3): 40}, map[TaskID]int64{id("0", 1): 15, id("10", 0): 7, id("2", 3): 50},
			"0/1 active 5 15 10, 2/3 standby 40 50 10, 10/0 active 0 7 7", Ptr(int64(17))},
		{"an end offset not yet reported", map[TaskID]int64{id("0", 0): 0}, nil, "0/0 active 0 - -", nil},
		{"an offset without its end, beside one with both", map[TaskID]int64{id("0", 0): 3, id("0", 1): 2}, map[TaskID]int64{id("0", 1): 9},
			"0/0 active 3 - -, 0/1 active 2 9 7", nil},
		{"an end below the offset", map[TaskID]int64{id("0", 0): 30}, map[TaskID]int64{id("0", 0): 20}, "0/0 active 30 20 -", nil},
		{"a negative offset", map[TaskID]int64{id("0", 0): -2}, map[TaskID]int64{id("0", 0): 20}, "0/0 active -2 20 -", nil},
		{"only a standby", map[TaskID]int64{id("2", 3): 1}, map[TaskID]int64{id("2", 3): 4}, "2/3 standby 1 4 3", nil},
		{"local state of a task not assigned", map[TaskID]int64{id("5", 0): 1}, map[TaskID]int64{id("5", 0): 2}, "5/0 none 1 2 1", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, member := StreamsRestore(tasks, c.offs, c.ends)
			var parts []string
			for _, o := range got {
				parts = append(parts, o.Subtopology+"/"+itoa(int64(o.Partition))+" "+o.Role+" "+opt(o.ChangelogOffset)+" "+opt(o.ChangelogEndOffset)+" "+opt(o.RestoreLag))
			}
			if s := strings.Join(parts, ", "); s != c.tasks || got == nil {
				t.Errorf("tasks %q (nil %v), want %q", s, got == nil, c.tasks)
			}
			if (member == nil) != (c.member == nil) || (member != nil && *member != *c.member) {
				t.Errorf("member restore lag %s, want %s", opt(member), opt(c.member))
			}
		})
	}
	if got, _ := StreamsRestore(nil, map[TaskID]int64{id("0", 0): 1}, nil); got[0].Role != RoleNone {
		t.Errorf("without tasks the role is %q, want none", got[0].Role)
	}
	b, _ := json.Marshal(Member{TaskOffsets: []TaskOffsets{{Subtopology: "0", Role: RoleActive, ChangelogOffset: Ptr(int64(1)), ChangelogEndOffset: Ptr(int64(3)), RestoreLag: Ptr(int64(2))}}, RestoreLag: Ptr(int64(2))})
	if want := `"restoreLag":2,"taskOffsets":[{"subtopology":"0","partition":0,"role":"active","changelogOffset":1,"changelogEndOffset":3,"restoreLag":2}]`; !strings.Contains(string(b), want) {
		t.Errorf("JSON %s lacks %s", b, want)
	}
}

func opt(p *int64) string {
	if p == nil {
		return "-"
	}
	return itoa(*p)
}

func itoa(v int64) string { b, _ := json.Marshal(v); return string(b) }
