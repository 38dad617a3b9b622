package logread

import (
	"testing"

	"github.com/IBM/sarama"
)

// The edges of reading a read_committed answer: what reaches high, what moved, what is cut.
func TestScanTail(t *testing.T) {
	control := func(first, pid int64, typ byte) *sarama.Records {
		return &sarama.Records{RecordBatch: &sarama.RecordBatch{FirstOffset: first, Control: true, IsTransactional: true, ProducerID: pid,
			Records: []*sarama.Record{{Key: []byte{0, 0, 0, typ}}}}}
	}
	data := func(first int64, n int32, pid int64, txn bool) *sarama.Records {
		rb := &sarama.RecordBatch{FirstOffset: first, LastOffsetDelta: n - 1, IsTransactional: txn, ProducerID: pid}
		for i := range n {
			rb.Records = append(rb.Records, &sarama.Record{OffsetDelta: int64(i)})
		}
		return &sarama.Records{RecordBatch: rb}
	}
	block := func(high, lastStable int64, aborted []*sarama.AbortedTransaction, sets ...*sarama.Records) *sarama.FetchResponseBlock {
		return &sarama.FetchResponseBlock{HighWaterMarkOffset: high, LastStableOffset: lastStable, AbortedTransactions: aborted, RecordsSet: sets}
	}
	abortedFrom := func(pid, first int64) []*sarama.AbortedTransaction {
		return []*sarama.AbortedTransaction{{ProducerID: pid, FirstOffset: first}}
	}
	partial := data(6, 5, 7, true)
	partial.RecordBatch.PartialTrailingRecord, partial.RecordBatch.Records = true, nil
	cutControl := control(11, 7, 0)
	cutControl.RecordBatch.Records = nil
	for _, c := range []struct {
		name string
		blk  *sarama.FetchResponseBlock
		from int64
		high int64 // as the watermarks read it
		want tail
		m    [2]int64
	}{
		{"a commit marker", block(60, 60, nil, control(59, 7, 1)), 59, 60, tailMarkers, [2]int64{1, 0}},
		{"the batch before is skipped", block(60, 60, nil, data(54, 5, 7, true), control(59, 7, 1)), 59, 60, tailMarkers, [2]int64{1, 0}},
		{"committed data", block(60, 60, nil, data(54, 5, 7, true), control(59, 7, 1)), 58, 60, tailData, [2]int64{}},
		{"aborted data between markers", block(12, 12, abortedFrom(7, 6), control(5, 7, 1), data(6, 5, 7, true), control(11, 7, 0)), 5, 12, tailMarkers, [2]int64{2, 5}},
		{"another producer's data is data", block(12, 12, abortedFrom(7, 6), control(5, 7, 1), data(6, 5, 8, true), control(11, 7, 0)), 5, 12, tailData, [2]int64{}},
		{"non-transactional data of the same producer id is data", block(12, 12, abortedFrom(7, 6), control(5, 7, 1), data(6, 5, 7, false), control(11, 7, 0)), 5, 12, tailData, [2]int64{}},
		{"aborted data cut short: high not reached", block(12, 12, abortedFrom(7, 6), control(5, 7, 1), partial), 5, 12, tailShort, [2]int64{}},
		{"committed data cut short", block(12, 12, nil, control(5, 7, 1), partial), 5, 12, tailData, [2]int64{}},
		{"a control record that cannot be read", block(12, 12, abortedFrom(7, 6), control(5, 7, 1), data(6, 5, 7, true), cutControl), 5, 12, tailUnknown, [2]int64{}},
		{"high moved since the watermarks", block(61, 61, nil, control(59, 7, 1)), 59, 60, tailUnknown, [2]int64{}},
		{"an open transaction", block(60, 59, nil, control(59, 7, 1)), 59, 60, tailUnknown, [2]int64{}},
		{"nothing returned", block(60, 60, nil), 59, 60, tailShort, [2]int64{}},
		{"the old message format", block(60, 60, nil, &sarama.Records{MsgSet: &sarama.MessageSet{}}), 59, 60, tailData, [2]int64{}},
		{"an error", &sarama.FetchResponseBlock{Err: sarama.ErrNotLeaderForPartition, HighWaterMarkOffset: 60, LastStableOffset: 60}, 59, 60, tailUnknown, [2]int64{}},
		{"no block", nil, 59, 60, tailUnknown, [2]int64{}},
	} {
		m, got, why := scanTail(c.blk, c.from, c.high, markerFirstBytes)
		if got != c.want || (got == tailMarkers && [2]int64{m.ControlRecords, m.AbortedRecords} != c.m) || (why != "") != (got == tailUnknown || got == tailShort) {
			t.Errorf("%s: %v %+v %q, want %v %v (a reason when unknown)", c.name, got, m, why, c.want, c.m)
		}
	}
}

// FuzzScanTail reads batches built from the fuzzer's bytes (4 bytes a batch: offset step,
// record count, kind, producer) and checks that reading never panics, that a reason comes
// with every unknown and only then, and that markers are reported only when every batch
// reaching from is a marker or aborted, the batches reach high, and what they count fits.
func FuzzScanTail(f *testing.F) {
	f.Add([]byte{0, 5, 2, 7, 0, 1, 1, 7}, int64(5), int64(6), byte(0))
	f.Add([]byte{0, 1, 1, 7, 0, 5, 2, 7, 0, 1, 0, 7}, int64(5), int64(12), byte(1))
	f.Fuzz(func(t *testing.T, b []byte, from, high int64, abortedAt byte) {
		blk := &sarama.FetchResponseBlock{HighWaterMarkOffset: high, LastStableOffset: high,
			AbortedTransactions: []*sarama.AbortedTransaction{{ProducerID: 7, FirstOffset: int64(abortedAt)}}}
		next := int64(0)
		for ; len(b) >= 4; b = b[4:] {
			n := int32(b[1]%8) + 1
			rb := &sarama.RecordBatch{FirstOffset: next + int64(b[0]%4), LastOffsetDelta: n - 1, ProducerID: int64(b[3]%3 + 6)}
			switch b[2] % 5 {
			case 0, 1: // an abort or commit marker, of one record
				rb.Control, rb.IsTransactional, rb.LastOffsetDelta = true, true, 0
				rb.Records = []*sarama.Record{{Key: []byte{0, 0, 0, b[2] % 5}}}
			case 2: // transactional data
				rb.IsTransactional = true
			case 3: // plain data
			case 4: // a record cut off at the end of the answer
				rb.PartialTrailingRecord = true
			}
			if !rb.Control && !rb.PartialTrailingRecord {
				for i := range n {
					rb.Records = append(rb.Records, &sarama.Record{OffsetDelta: int64(i)})
				}
			}
			blk.RecordsSet = append(blk.RecordsSet, &sarama.Records{RecordBatch: rb})
			next = rb.FirstOffset + int64(rb.LastOffsetDelta) + 1
		}
		m, got, why := scanTail(blk, from, high, markerPartitionBytes)
		if (why != "") != (got == tailUnknown || got == tailShort) {
			t.Fatalf("%v with reason %q", got, why)
		}
		if got != tailMarkers {
			return
		}
		if n := m.ControlRecords + m.AbortedRecords; n < 1 || n > high-from {
			t.Fatalf("%+v counted between %d and %d", m, from, high)
		}
		for _, rs := range blk.RecordsSet {
			rb := rs.RecordBatch
			if last := rb.FirstOffset + int64(rb.LastOffsetDelta); last >= from && rb.FirstOffset < high && !rb.Control && !rb.IsTransactional {
				t.Fatalf("markers alone from %d, but plain data at %d..%d", from, rb.FirstOffset, last)
			}
		}
	})
}
