package main

// A Kafka Streams application restoring a state store, against a real broker
// (docs/kafka.md#streams-groups): the restore lag offsettui shows is the broker's
// TaskEndOffsets − TaskOffsets.

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// restoreBatch is the most records StreamsApp.java's restore consumer takes in one poll.
const restoreBatch = 100

// TestRealKafkaStreamsRestoreLag: test/kafka/StreamsApp.java counting per key in a store
// whose changelog holds 20,000 records before it first starts, on the timers broker
// (group.streams.task.offset.interval.ms=1000: members report their tasks' changelog offsets
// every second while a task restores). While task 0_0 restores (until it has restored part
// of its changelog), describe's JSON and table
// show the restore lag of the task and its member, equal (within one restored batch) to
// TaskEndOffsets − TaskOffsets of StreamsGroupDescribe asked directly right before and right
// after them, when those two answers agree; once the task runs and the broker sends no
// offsets for it, the member's restore lag is absent (null, tasks []), never 0.
func TestRealKafkaStreamsRestoreLag(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	b.NeedStreamsGroups(t)
	b.NeedTaskOffsetInterval(t, time.Second)
	s := b.Seed(t)
	sh := b.StreamsRestore(t, 20000, 50*time.Millisecond)
	task := model.TaskID{Subtopology: "0", Partition: 0}
	ask := func() (offset, end *int64, active bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ms, err := s.StreamsMembers(ctx, sh.App)
		if err != nil || len(ms) != 1 {
			return nil, nil, false
		}
		m := ms[0]
		active = slices.ContainsFunc(m.Assignment.ActiveTasks, func(ti kmsg.TaskIDs) bool {
			return ti.SubtopologyID == task.Subtopology && slices.Contains(ti.Partitions, task.Partition)
		})
		return reported(m.TaskOffsets, task), reported(m.TaskEndOffsets, task), active
	}

	var compared []int64
	realkafka.WaitUntil(t, 3*time.Minute, "offsettui's restore lag beside StreamsGroupDescribe's while task 0_0 has restored some of its changelog", func() (bool, string) {
		o1, e1, active := ask()
		if !active || o1 == nil || e1 == nil || *e1 <= *o1 {
			return false, fmt.Sprintf("not restoring: active %v, offset %s, end %s", active, text.Num(o1), text.Num(e1))
		}
		if *e1 != sh.Records {
			t.Fatalf("StreamsGroupDescribe: task 0_0's changelog ends at %d, want %d (the records written to %s)", *e1, sh.Records, sh.Changelog)
		}
		code, snap, stderr := describeJSON(t, "--bootstrap-server", b.Addr, "--group", sh.App, "--timeout", "10s")
		var table, errb bytes.Buffer
		describeMain([]string{"--bootstrap-server", b.Addr, "--group", sh.App, "--timeout", "10s"}, &table, &errb)
		o2, e2, _ := ask()
		if o2 == nil || e2 == nil || *o1 != *o2 || *e1 != *e2 {
			return false, fmt.Sprintf("the member reported again in between (%d/%d, then %s/%s)", *o1, *e1, text.Num(o2), text.Num(e2))
		}
		if code != exitOK {
			return false, fmt.Sprintf("describe: exit %d: %s", code, stderr)
		}
		want := *e1 - *o1
		g := groupOf(t, snap, sh.App)
		if len(g.Members) != 1 {
			t.Fatalf("members %s, want the application's one", asJSON(g.Members))
		}
		m := g.Members[0]
		if len(m.TaskOffsets) != 1 || m.RestoreLag == nil {
			t.Fatalf("the member: restoreLag %s, taskOffsets %s; StreamsGroupDescribe: 0_0 at %d of %d", text.Num(m.RestoreLag), asJSON(m.TaskOffsets), *o1, *e1)
		}
		to := m.TaskOffsets[0]
		switch {
		case to.Subtopology != task.Subtopology || to.Partition != task.Partition || to.Role != model.RoleActive:
			t.Errorf("task %s, want 0_0 active", asJSON(to))
		case model.Deref(to.ChangelogOffset) != *o1 || model.Deref(to.ChangelogEndOffset) != *e1:
			t.Errorf("task 0_0 at %s of %s, StreamsGroupDescribe %d of %d", text.Num(to.ChangelogOffset), text.Num(to.ChangelogEndOffset), *o1, *e1)
		case abs(model.Deref(to.RestoreLag)-want) > restoreBatch || abs(*m.RestoreLag-want) > restoreBatch:
			t.Errorf("restore lag: task %s, member %s; TaskEndOffsets − TaskOffsets %d", text.Num(to.RestoreLag), text.Num(m.RestoreLag), want)
		}
		if line := "restore lag " + text.Thousands(want); !strings.Contains(table.String(), line) || !strings.Contains(table.String(), "RESTORING: ") {
			t.Errorf("describe's table lacks %q and RESTORING:\n%s%s", line, table.String(), errb.String())
		}
		compared = append(compared, want)
		return *o1 > 0, fmt.Sprintf("restore lag %d at offset 0: not restoring yet", want)
	})
	t.Logf("%s restoring: offsettui's restore lag as StreamsGroupDescribe's, %d times: %v", sh.App, len(compared), compared)

	realkafka.WaitUntil(t, 2*time.Minute, "task 0_0 restored: the broker sends no offsets for it", func() (bool, string) {
		o, e, active := ask()
		return active && o == nil && e == nil, fmt.Sprintf("active %v, offset %s, end %s", active, text.Num(o), text.Num(e))
	})
	code, snap, stderr := describeJSON(t, "--bootstrap-server", b.Addr, "--group", sh.App)
	if code != exitOK {
		t.Fatalf("describe: exit %d\n%s", code, stderr)
	}
	if g := groupOf(t, snap, sh.App); len(g.Members) != 1 || g.Members[0].RestoreLag != nil || g.Members[0].TaskOffsets == nil || len(g.Members[0].TaskOffsets) != 0 {
		t.Errorf("restored: members %s; want restoreLag null and taskOffsets []", asJSON(g.Members))
	}
}

// reported is the offset a member reported for task, or nil.
func reported(offs []kmsg.TaskOffset, task model.TaskID) *int64 {
	for _, o := range offs {
		if o.SubtopologyID == task.Subtopology && o.Partition == task.Partition {
			return model.Ptr(o.Offset)
		}
	}
	return nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
