package realkafka_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// A compacted topic whose tombstones the cleaner removed after a group had read the keys
// they delete, and a group at the first offset.
func TestRealKafkaShapeCompactedTombstones(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	s := b.Seed(t)
	sh := b.Compacted(t)
	t.Logf("%s: tombstones written %s, gone %.1f s later; %s; reader at %d: first stored %d, %d records stored up to high",
		b.Name(), sh.TombstonesWrittenAt.Format(time.RFC3339), sh.TombstonesRemovedAt.Sub(sh.TombstonesWrittenAt).Seconds(),
		sh.Offsets, sh.ReaderCommitted, sh.FirstStoredAtReader, sh.StoredAfterReader)

	tp := model.TP{Topic: sh.Topic, Partition: 0}
	if got := committed(t, s, sh.Reader)[tp]; got != sh.ReaderCommitted {
		t.Errorf("reader committed %d, want %d", got, sh.ReaderCommitted)
	}
	if got := committed(t, s, sh.Fresh)[tp]; got != sh.FreshCommitted {
		t.Errorf("fresh group committed %d, want %d", got, sh.FreshCommitted)
	}
	// Compaction never moves the log start: the fresh group is at the first offset.
	if sh.Offsets.Start != 0 || sh.Offsets.LocalStart != 0 {
		t.Errorf("%s, want the log start at 0", sh.Offsets)
	}
	// The whole log, read directly: no record of k0..k9 is left (their values were
	// superseded by the tombstones, the tombstones removed), so the reader, which read their
	// values at 0..9, will never see them deleted; nothing is stored at 20..29.
	all, err := realkafka.ReadFrom(s.Client, sh.Topic, 0, 0, sh.Offsets.High)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if strings.HasPrefix(string(r.Key), "k") {
			t.Errorf("offset %d still holds key %s (value %q)", r.Offset, r.Key, r.Value)
		}
		if r.Value == nil {
			t.Errorf("offset %d still holds a tombstone of %s", r.Offset, r.Key)
		}
		if r.Offset >= sh.TombstoneFirst && r.Offset <= sh.TombstoneLast {
			t.Errorf("offset %d is still stored", r.Offset)
		}
	}
	if len(all) == 0 || all[0].Offset != 10 {
		t.Errorf("the first record stored should be x0 at 10, got %v", firstOffset(all))
	}
	if sh.FirstStoredAtReader <= sh.TombstoneLast || int64(sh.StoredAfterReader) >= sh.Offsets.High-sh.ReaderCommitted {
		t.Errorf("after the reader's commit: first stored %d, %d records stored, want past %d and fewer than the %d offsets",
			sh.FirstStoredAtReader, sh.StoredAfterReader, sh.TombstoneLast, sh.Offsets.High-sh.ReaderCommitted)
	}
	// Kafka's tool counts the reader's lag in offsets (high - 20), not in records still stored.
	out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--describe", "--group", sh.Reader)
	rows := realkafka.TableRows(out, "CURRENT-OFFSET", "LAG")
	if want := strconv.FormatInt(sh.Offsets.High-sh.ReaderCommitted, 10); len(rows) != 1 || rows[0]["LAG"] != want {
		t.Errorf("kafka-consumer-groups --describe --group %s: want LAG %s:\n%s", sh.Reader, want, out)
	}
}

func firstOffset(recs []*realkafka.Record) any {
	if len(recs) == 0 {
		return "nothing"
	}
	return recs[0].Offset
}

// A tiered topic whose closed segments are in remote storage and gone from the broker's disk,
// and a group whose commit lies between the log start and the local log start.
func TestRealKafkaShapeTiered(t *testing.T) {
	t.Parallel()
	b := realkafka.Timers(t)
	s := b.Seed(t)
	start := time.Now()
	sh := b.Tiered(t)
	t.Logf("%s: %s; group at %d (built in %.1f s)", b.Name(), sh.Offsets, sh.Committed, time.Since(start).Seconds())
	o := sh.Offsets
	if o.Start != 0 || o.High != 60 || o.LocalStart != 50 || o.Tiered != 49 {
		t.Errorf("%s: want start 0, local start 50, high 60, last tiered 49", o)
	}
	if got := committed(t, s, sh.Group)[model.TP{Topic: sh.Topic, Partition: 0}]; got != sh.Committed {
		t.Errorf("committed %d, want %d", got, sh.Committed)
	}
	// The committed record is readable, from remote storage.
	recs, err := realkafka.ReadFrom(s.Client, sh.Topic, 0, sh.Committed, sh.Committed+1)
	if err != nil || len(recs) != 1 || recs[0].Offset != sh.Committed {
		t.Errorf("reading %d (remote): %d records, %v", sh.Committed, len(recs), err)
	}
	// Kafka's own tool agrees on the local log start (GetOffsetShell --time -4, earliest-local).
	out := b.Tool(t, "org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server", b.Addr, "--topic", sh.Topic, "--time", "-4")
	if want := sh.Topic + ":0:" + strconv.FormatInt(o.LocalStart, 10); strings.TrimSpace(out) != want {
		t.Errorf("GetOffsetShell --time -4 printed %q, want %q", strings.TrimSpace(out), want)
	}
	// EARLIEST_LOCAL needs ListOffsets v8+: below it (sarama stops at v6) the broker answers
	// UNSUPPORTED_VERSION for the partition.
	for _, v := range []int16{6, 7, 8} {
		got, err := realkafka.ListOffsetAtVersion(context.Background(), []string{b.Addr}, v, sh.Topic, 0, realkafka.TimestampEarliestLocal)
		t.Logf("ListOffsets v%d at -4 (EARLIEST_LOCAL): offset %d, error %v", v, got, err)
		switch {
		case v >= 8 && (err != nil || got != o.LocalStart):
			t.Errorf("ListOffsets v%d at -4: %d, %v, want %d", v, got, err, o.LocalStart)
		case v < 8 && (err == nil || !strings.Contains(err.Error(), "UNSUPPORTED_VERSION")):
			t.Errorf("ListOffsets v%d at -4: %d, %v, want UNSUPPORTED_VERSION", v, got, err)
		}
	}
}

// What ListOffsets' special timestamps answer on a topic that is not tiered, where records
// below 5 were deleted: EARLIEST_LOCAL is the log start, LATEST_TIERED is -1.
func TestRealKafkaShapeListOffsetsUntiered(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic := realkafka.Name("untiered")
		s.CreateTopic(topic, 1, nil)
		b.Produce(t, topic, 0, "", 10)
		if err := s.DeleteRecords(topic, 0, 5); err != nil {
			t.Fatal(err)
		}
		o := offsets(t, s, topic, 0)
		t.Logf("%s: %s", b.Name(), o)
		if o.Start != 5 || o.LocalStart != 5 || o.High != 10 || o.LastStable != 10 || o.Tiered != -1 {
			t.Errorf("%s, want start and local start 5, high and last stable 10, last tiered -1", o)
		}
	})
}
