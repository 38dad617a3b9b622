package main

// Tiered storage against a real broker (docs/statuses.md#tiered-storage): the timers
// broker's tiered shape (LocalTieredStorage), a Stable group committed at 15, between the
// log start 0 (remote) and the local log start 50.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

func TestRealKafkaTieredLocalStart(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	s := b.Seed(t)
	sh := b.Tiered(t)
	tp := model.TP{Topic: sh.Topic, Partition: 0}
	// The oracle: ListOffsets EARLIEST_LOCAL asked directly (GetOffsetShell --time -4 prints
	// the same, TestRealKafkaShapeTiered).
	local, err := realkafka.ListOffset(context.Background(), s.Client, sh.Topic, 0, realkafka.TimestampEarliestLocal, false)
	if err != nil {
		t.Fatal(err)
	}
	var (
		snap model.Snapshot
		row  *model.GroupPartition
	)
	// A read the broker fails for a moment (the timers broker copies and deletes segments
	// every few seconds) makes the row unknown, never ok: that is logged and read again;
	// the semantics below are judged on a read without an error.
	realkafka.WaitUntil(t, 30*time.Second, "a describe of the tiered partition without an error", func() (bool, string) {
		var code int
		var errs string
		code, snap, errs = describeJSON(t, "--bootstrap-server", b.Addr, "--group", sh.Group)
		if code != exitOK {
			t.Fatalf("describe: exit %d\n%s", code, errs)
		}
		row = nil
		for i := range snap.Groups {
			for j := range snap.Groups[i].Partitions {
				if p := &snap.Groups[i].Partitions[j]; p.TP() == tp {
					row = p
				}
			}
		}
		if row == nil {
			t.Fatalf("no row of %s", tp)
		}
		if row.Status == model.StatusUnknown {
			t.Logf("%s unknown in this read: row error %v, snapshot errors %s", tp, row.Error, asJSON(snap.Errors))
			return false, fmt.Sprintf("%s unknown: %v", tp, row.Error)
		}
		return true, ""
	})
	t.Logf("%s: low %v, localLow %v, high %v, committed %v, status %s, readsRemote %v", tp, *row.Low, model.Deref(row.LocalLow()),
		*row.High, *row.Committed, row.Status, model.Deref(row.ReadsRemote()))
	switch {
	case row.Status != model.StatusOK || *row.Low != 0 || *row.Committed != sh.Committed:
		t.Errorf("status %s, low %d, committed %d: want ok at %d above the log start 0 (the remote one)", row.Status, *row.Low, *row.Committed, sh.Committed)
	case row.LocalLow() == nil || *row.LocalLow() != local || local <= sh.Committed:
		t.Errorf("localLow %v, want %d (EARLIEST_LOCAL asked directly), above the commit %d", row.LocalLow(), local, sh.Committed)
	case row.ReadsRemote() == nil || !*row.ReadsRemote():
		t.Errorf("readsRemote %v: the commit %d lies below the local start %d", row.ReadsRemote(), sh.Committed, local)
	}
	var topic *model.Topic
	for i := range snap.Topics {
		if snap.Topics[i].Topic == sh.Topic {
			topic = &snap.Topics[i]
		}
	}
	if topic == nil || !topic.Tiered() || model.Deref(topic.LocalRetentionBytes) != sh.LocalRetentionBytes || topic.LocalRetentionMs == nil {
		t.Errorf("the topic's configs: %s, want remote.storage.enable, local.retention.bytes %d and local.retention.ms", asJSON(topic), sh.LocalRetentionBytes)
	}
	var out, errb bytes.Buffer
	if code := describeMain([]string{"--bootstrap-server", b.Addr, "--group", sh.Group}, &out, &errb); code != exitOK {
		t.Fatalf("describe: exit %d\n%s", code, errb.String())
	}
	for _, want := range []string{"tiered: local log starts at", "the group's next record, 15, is read from remote storage", "local.retention.bytes 1 B"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe lacks %q:\n%s", want, out.String())
		}
	}

	// A rewind to the earliest offset: the plan's row says the consumer will read from
	// remote storage (the group is Stable, so the plan is not executed).
	out.Reset()
	errb.Reset()
	resetMain([]string{"--bootstrap-server", b.Addr, "--group", sh.Group, "--topic", sh.Topic, "--to-earliest", "-o", "json"}, &out, &errb)
	var p plan.Plan
	if err := json.Unmarshal(out.Bytes(), &p); err != nil || len(p.Rows) != 1 {
		t.Fatalf("reset --to-earliest: %v\n%s\n%s", err, out.String(), errb.String())
	}
	if r := p.Rows[0]; model.Deref(r.Target) != 0 || model.Deref(r.LocalLow) != local || !r.ReadsRemote {
		t.Errorf("the rewind's row: %s, want target 0 below the local start %d, readsRemote", asJSON(r), local)
	}
	out.Reset()
	resetMain([]string{"--bootstrap-server", b.Addr, "--group", sh.Group, "--topic", sh.Topic, "--to-earliest"}, &out, &errb)
	if !strings.Contains(out.String(), "the consumer will read from remote storage") {
		t.Errorf("the plan's table does not say the rewind reads from remote storage:\n%s", out.String())
	}
}
