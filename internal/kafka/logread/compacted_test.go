package logread

import (
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

var scanBase = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// batchOf is a record batch holding records at the given offsets (control marks a batch
// of transaction markers); last is its last offset (a batch the cleaner emptied keeps it).
func batchOf(control bool, last int64, offsets ...int64) *sarama.Records {
	first := last
	if len(offsets) > 0 {
		first = offsets[0]
	}
	rb := &sarama.RecordBatch{FirstOffset: first, LastOffsetDelta: int32(last - first), FirstTimestamp: scanBase, Control: control}
	for _, o := range offsets {
		rb.Records = append(rb.Records, &sarama.Record{OffsetDelta: o - first, TimestampDelta: time.Duration(o) * time.Second})
	}
	return &sarama.Records{RecordBatch: rb}
}

// cut is rs as sarama decodes a batch the byte limit truncated: its header, no records.
func cut(rs *sarama.Records) *sarama.Records {
	rs.RecordBatch.PartialTrailingRecord, rs.RecordBatch.Records = true, nil
	return rs
}

func blockOf(sets ...*sarama.Records) *sarama.FetchResponseBlock {
	return &sarama.FetchResponseBlock{RecordsSet: sets}
}

// readOnce is what one answer tells of a commit at offset.
func readOnce(blk *sarama.FetchResponseBlock, offset, high int64) (model.CompactedRead, bool) {
	cur := &compactedCursor{w: model.TPO{Offset: offset}, high: high, at: offset}
	ok := cur.apply(scanFrom(blk, offset, high))
	return cur.r, ok
}

// TestScanCompacted reads the answers a compacted log gives: the gap at the position,
// the next record's time, the records stored to high, and answers that stop short.
func TestScanCompacted(t *testing.T) {
	cases := []struct {
		name           string
		blk            *sarama.FetchResponseBlock
		offset, high   int64
		ok             bool
		gap            int64
		gapComplete    bool
		stored         int64
		storedComplete bool
		nextAt         int64 // seconds after scanBase; -1 none
	}{
		// The shape: tombstones 20..29 and fillers 30, 31 removed, 32..34 and 58 stored.
		{"gap then records to high", blockOf(batchOf(false, 34, 10, 32, 33, 34), batchOf(false, 58, 58)), 20, 59, true, 12, true, 4, true, 32},
		{"no gap", blockOf(batchOf(false, 22, 20, 21, 22)), 20, 23, true, 0, true, 3, true, 20},
		{"a batch the cleaner emptied covers its offsets", blockOf(batchOf(false, 29), batchOf(false, 31, 31)), 20, 40, true, 11, true, 1, false, 31},
		{"nothing stored up to high", blockOf(batchOf(false, 29)), 20, 30, true, 10, true, 0, true, -1},
		{"an answer that stops inside the gap", blockOf(batchOf(false, 25)), 20, 40, true, 6, false, 0, false, -1},
		{"records only before the offset: not reached", blockOf(batchOf(false, 9, 5, 9)), 20, 40, false, 0, false, 0, false, -1},
		{"empty answer: not reached", blockOf(), 20, 40, false, 0, false, 0, false, -1},
		{"a marker is stored but not a record to read", blockOf(batchOf(true, 20, 20), batchOf(false, 22, 22)), 20, 23, true, 0, true, 1, true, 22},
		{"a batch cut by the byte limit covers nothing", blockOf(batchOf(false, 21, 20, 21), cut(batchOf(false, 40, 22, 40))), 20, 59, true, 0, true, 2, false, 20},
		{"a cut batch alone is no gap", blockOf(cut(batchOf(false, 40, 20, 40))), 20, 59, false, 0, false, 0, false, -1},
		{"records past high are not counted", blockOf(batchOf(false, 25, 20, 25)), 20, 22, true, 0, true, 1, true, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := readOnce(c.blk, c.offset, c.high)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if r.Gap != c.gap || r.GapComplete != c.gapComplete || r.Stored != c.stored || r.StoredComplete != c.storedComplete {
				t.Errorf("gap %d/%v stored %d/%v, want %d/%v %d/%v", r.Gap, r.GapComplete, r.Stored, r.StoredComplete, c.gap, c.gapComplete, c.stored, c.storedComplete)
			}
			switch {
			case c.nextAt < 0 && r.NextStoredAt != nil:
				t.Errorf("next stored at %v, want none", r.NextStoredAt)
			case c.nextAt >= 0 && (r.NextStoredAt == nil || !r.NextStoredAt.Equal(scanBase.Add(time.Duration(c.nextAt)*time.Second))):
				t.Errorf("next stored at %v, want +%ds", r.NextStoredAt, c.nextAt)
			}
		})
	}
}

// FuzzScanCompacted builds answers from arbitrary batches and checks what any answer
// must keep: the gap and the stored records fit between the offset and high, and an
// exact gap ends at a stored record or at high.
func FuzzScanCompacted(f *testing.F) {
	f.Add([]byte{10, 3, 0, 12, 2, 1}, int64(20), int64(59))
	f.Add([]byte{}, int64(0), int64(1))
	f.Add([]byte{255, 255, 1, 7}, int64(-3), int64(5))
	f.Fuzz(func(t *testing.T, spec []byte, offset, high int64) {
		if offset < 0 || high <= offset || high-offset > 1<<20 {
			return
		}
		var sets []*sarama.Records
		next := offset - 5
		for i := 0; i+1 < len(spec) && len(sets) < 16; i += 2 {
			start := next + int64(spec[i]%16)
			n := int64(spec[i+1] % 8)
			var offs []int64
			for k := int64(0); k < n; k++ {
				if spec[i+1]&(1<<k%8) == 0 {
					offs = append(offs, start+k)
				}
			}
			b := batchOf(spec[i]&0x80 != 0, start+max(n-1, 0), offs...)
			if spec[i]&0x40 != 0 {
				b = cut(b)
			}
			sets = append(sets, b)
			next = start + max(n, 1)
		}
		r, ok := readOnce(blockOf(sets...), offset, high)
		if !ok {
			return
		}
		if r.Gap < 0 || r.Stored < 0 || r.Gap+r.Stored > high-offset {
			t.Fatalf("gap %d stored %d outside %d..%d", r.Gap, r.Stored, offset, high)
		}
		if r.StoredComplete && !r.GapComplete {
			t.Fatalf("stored counted to high but the gap is not exact: %+v", r)
		}
	})
}

// TestCompactedCursorAcrossSegments: Kafka answers from one segment at a time; a commit's
// reads add up across answers, and commits of the same partition the answer reaches move
// with it.
func TestCompactedCursorAcrossSegments(t *testing.T) {
	reader := &compactedCursor{w: model.TPO{Offset: 20}, high: 59, at: 20}
	later := &compactedCursor{w: model.TPO{Offset: 33}, high: 59, at: 33}
	seg1 := blockOf(batchOf(false, 29), batchOf(false, 34, 32, 33, 34))
	seg2 := blockOf(batchOf(false, 58, 58))
	for _, cur := range []*compactedCursor{reader, later} {
		if !cur.apply(scanFrom(seg1, cur.at, cur.high)) {
			t.Fatalf("the first segment does not move the commit at %d", cur.w.Offset)
		}
	}
	if reader.r.StoredComplete || reader.at != 35 || reader.r.Gap != 12 || !reader.r.GapComplete || reader.r.Stored != 3 {
		t.Fatalf("after one segment: at %d, %+v", reader.at, reader.r)
	}
	for _, cur := range []*compactedCursor{reader, later} {
		cur.apply(scanFrom(seg2, cur.at, cur.high))
	}
	if !reader.done || reader.r.Stored != 4 || !reader.r.StoredComplete || reader.r.Gap != 12 {
		t.Fatalf("after two segments: %+v", reader.r)
	}
	if !later.done || later.r.Stored != 3 || later.r.Gap != 0 {
		t.Fatalf("the commit at 33: %+v", later.r)
	}
	if reader.apply(scanFrom(seg2, reader.at, reader.high)) {
		t.Fatal("an answer behind the cursor moved it")
	}
}
