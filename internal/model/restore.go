package model

import (
	"cmp"
	"slices"
)

// TaskID names one streams task: a subtopology and a partition.
type TaskID struct {
	Subtopology string
	Partition   int32
}

// TaskOffsets is what a streams member last reported of one task's state stores
// (StreamsGroupDescribe's TaskOffsets and TaskEndOffsets, docs/kafka.md#streams-groups):
// its changelog offsets and their end offsets, each summed over the task's changelog
// partitions, and the difference, the records the task still has to restore.
type TaskOffsets struct {
	Subtopology string `json:"subtopology"`
	Partition   int32  `json:"partition"`
	// Role is how the member holds the task: "active", "standby", "warmup", or "none" (a
	// task whose local state the member keeps without being assigned it).
	Role               string `json:"role"`
	ChangelogOffset    *int64 `json:"changelogOffset"`
	ChangelogEndOffset *int64 `json:"changelogEndOffset"`
	// RestoreLag is ChangelogEndOffset − ChangelogOffset; null when either is missing or
	// negative, or the end lies below the offset (two reports apart).
	RestoreLag *int64 `json:"restoreLag"`
}

// Task roles (TaskOffsets.Role).
const (
	RoleActive  = "active"
	RoleStandby = "standby"
	RoleWarmup  = "warmup"
	RoleNone    = "none"
)

// StreamsRestore pairs a streams member's reported task offsets and end offsets with its
// tasks: one TaskOffsets per task named in either, ordered by subtopology and partition
// ([] when the broker sent none), and the member's restore lag: the records its active
// tasks still restore, null when it reported no active task or one without both offsets.
// A task the member runs is not reported: it has nothing left to restore.
func StreamsRestore(tasks *Tasks, offsets, ends map[TaskID]int64) ([]TaskOffsets, *int64) {
	ids := make([]TaskID, 0, len(offsets)+len(ends))
	for id := range offsets {
		ids = append(ids, id)
	}
	for id := range ends {
		if _, ok := offsets[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b TaskID) int {
		if c := CompareSubtopologies(a.Subtopology, b.Subtopology); c != 0 {
			return c
		}
		return cmp.Compare(a.Partition, b.Partition)
	})
	out := make([]TaskOffsets, 0, len(ids))
	var (
		sum    int64
		active int
		whole  = true
	)
	for _, id := range ids {
		t := TaskOffsets{Subtopology: id.Subtopology, Partition: id.Partition, Role: tasks.roleOf(id)}
		if v, ok := offsets[id]; ok {
			t.ChangelogOffset = Ptr(v)
		}
		if v, ok := ends[id]; ok {
			t.ChangelogEndOffset = Ptr(v)
		}
		if o, e := t.ChangelogOffset, t.ChangelogEndOffset; o != nil && e != nil && *o >= 0 && *e >= *o {
			t.RestoreLag = Ptr(*e - *o)
		}
		if t.Role == RoleActive {
			active++
			if t.RestoreLag == nil {
				whole = false
			} else {
				sum += *t.RestoreLag
			}
		}
		out = append(out, t)
	}
	if active == 0 || !whole {
		return out, nil
	}
	return out, &sum
}

// roleOf says how tasks hold id.
func (t *Tasks) roleOf(id TaskID) string {
	if t == nil {
		return RoleNone
	}
	for _, k := range []struct {
		role string
		ids  []TaskIDs
	}{{RoleActive, t.Active}, {RoleStandby, t.Standby}, {RoleWarmup, t.Warmup}} {
		for _, ti := range k.ids {
			if ti.Subtopology == id.Subtopology && slices.Contains(ti.Partitions, id.Partition) {
				return k.role
			}
		}
	}
	return RoleNone
}

// CompareSubtopologies orders subtopology ids numerically when they are numbers ("2"
// before "10"), else as strings.
func CompareSubtopologies(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return cmp.Compare(a, b)
}
