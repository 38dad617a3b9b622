package main

// Compacted topics against a real broker (docs/statuses.md#compacted-topics): the timers
// broker's compacted shape (test/kafka/Shapes.java), a group that read keys k0..k9 and
// committed 20 before their tombstones at 20..29 were written and then removed by the
// cleaner, and a group at the first offset.

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

func TestRealKafkaCompactedMissedDeletes(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	s := b.Seed(t)
	sh := b.Compacted(t)
	tp := model.TP{Topic: sh.Topic, Partition: 0}
	stored := func() int64 {
		recs, err := realkafka.ReadFrom(s.Client, sh.Topic, 0, sh.ReaderCommitted, sh.Offsets.High)
		if err != nil {
			t.Fatal(err)
		}
		return int64(len(recs))
	}
	before := stored()
	code, snap, errs := describeJSON(t, "--bootstrap-server", b.Addr, "--group", sh.Reader, "--group", sh.Fresh)
	after := stored()
	if code != exitOK {
		t.Fatalf("describe: exit %d\n%s", code, errs)
	}
	row := func(group string) model.GroupPartition {
		for _, g := range snap.Groups {
			for _, p := range g.Partitions {
				if g.Group == group && p.TP() == tp {
					return p
				}
			}
		}
		t.Fatalf("no row of %s on %s", group, tp)
		return model.GroupPartition{}
	}
	reader, fresh := row(sh.Reader), row(sh.Fresh)
	t.Logf("reader: committed %d, lag %v, status %s, compaction %s", *reader.Committed, *reader.Lag, reader.Status, asJSON(reader.Compaction()))
	t.Logf("fresh: committed %d, lag %v, status %s, compaction %s", *fresh.Committed, *fresh.Lag, fresh.Status, asJSON(fresh.Compaction()))

	// The reader read k0..k9 and their tombstones at 20..29 are gone: flagged, with the numbers.
	cp := reader.Compaction()
	switch {
	case cp == nil:
		t.Fatal("the reader's row has no compaction")
	case !cp.MayMissDeletes || !slices.Contains(cp.Why, model.CompactionWhyRemoved):
		t.Errorf("the reader is not flagged for records removed at its position: %s", asJSON(cp))
	case cp.NextStored == nil || *cp.NextStored <= sh.TombstoneLast || *cp.Removed != *cp.NextStored-sh.ReaderCommitted:
		t.Errorf("next stored %v, removed %v: want past the tombstones at %d..%d", cp.NextStored, cp.Removed, sh.TombstoneFirst, sh.TombstoneLast)
	case cp.StoredRecords == nil || *cp.StoredRecords > before || *cp.StoredRecords < after:
		t.Errorf("stored records %v, want what a direct read saw (%d before describe, %d after)", cp.StoredRecords, before, after)
	case *reader.Lag != sh.Offsets.High-sh.ReaderCommitted || *cp.StoredRecords >= *reader.Lag:
		t.Errorf("lag %d (want Kafka's high - committed, %d), stored records %d: want fewer", *reader.Lag, sh.Offsets.High-sh.ReaderCommitted, *cp.StoredRecords)
	case cp.TimeLagFrom == nil || *cp.TimeLagFrom != *cp.NextStored || cp.DeleteRetentionMs == nil || *cp.DeleteRetentionMs != sh.DeleteRetention.Milliseconds():
		t.Errorf("time lag from %v (want the next stored), delete.retention.ms %v", cp.TimeLagFrom, cp.DeleteRetentionMs)
	}
	if reader.Status != model.StatusOK {
		t.Errorf("the reader's status is %s: the flag is beside the status, not an unknown", reader.Status)
	}
	// The fresh group has read nothing: it bootstraps from the compacted state.
	if fresh.Compaction() == nil || fresh.Compaction().MayMissDeletes || fresh.Compaction().Unknown != nil {
		t.Errorf("the group at the first offset: %s, want examined and not flagged", asJSON(fresh.Compaction()))
	}

	// check fails on the reader (exit 1) naming the reason, passes it when told the consumer
	// does not care about deletes, and passes the fresh group.
	conn := []string{"--bootstrap-server", b.Addr, "-o", "json"}
	code, r := checkRun(t, append(conn, "--group", sh.Reader)...)
	if code != exitFailure || !hasReason(r, check.CodeMissedDeletes) {
		t.Errorf("check %s: exit %d, reasons %s; want exit 1 with %s", sh.Reader, code, asJSON(r.Partitions), check.CodeMissedDeletes)
	}
	if code, r = checkRun(t, append(conn, "--group", sh.Reader, "--ignore-missed-deletes")...); code != exitOK {
		t.Errorf("check %s --ignore-missed-deletes: exit %d, %s", sh.Reader, code, asJSON(r.Partitions))
	}
	if code, r = checkRun(t, append(conn, "--group", sh.Fresh)...); code != exitOK {
		t.Errorf("check %s: exit %d, %s", sh.Fresh, code, asJSON(r.Partitions))
	}
}

// checkRun runs `offsettui check args...` (with -o json) in-process.
func checkRun(t *testing.T, args ...string) (int, check.Result) {
	t.Helper()
	var out, errb bytes.Buffer
	code := checkMain(args, &out, &errb)
	var r check.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("check: exit %d, output is not JSON: %v\n%s\n%s", code, err, out.String(), errb.String())
	}
	return code, r
}

func hasReason(r check.Result, code string) bool {
	for _, p := range r.Partitions {
		for _, why := range p.Reasons {
			if why.Code == code {
				return true
			}
		}
	}
	return false
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
