package commitlog

import (
	"time"

	"github.com/IBM/sarama"
)

// logRecord is one record of a Fetch answer of __consumer_offsets.
type logRecord struct {
	off        int64
	key, value []byte
	at         time.Time
	// producer is the transactional producer of the record's batch, -1 for none; control
	// marks that producer's transaction marker.
	producer int64
	control  bool
	// legacy marks a record of the message format before batches (a message set).
	legacy bool
}

// walkRecords calls each for every record of blk at offset from or after, in order, and
// returns the offset after the last one read (from when none) and the record batches read.
// A batch the size limit cut short is left out: the next Fetch asks for it whole.
func walkRecords(blk *sarama.FetchResponseBlock, from int64, each func(logRecord)) (next, batches int64) {
	next = from
	for _, rs := range blk.RecordsSet {
		switch {
		case rs == nil:
		case rs.RecordBatch != nil:
			rb := rs.RecordBatch
			last := rb.FirstOffset + int64(rb.LastOffsetDelta)
			if rb.PartialTrailingRecord || last < next {
				continue
			}
			batches++
			producer := int64(-1)
			if rb.IsTransactional || rb.Control {
				producer = rb.ProducerID
			}
			for _, r := range rb.Records {
				off := rb.FirstOffset + r.OffsetDelta
				if off < next {
					continue
				}
				at := rb.FirstTimestamp.Add(r.TimestampDelta)
				if rb.LogAppendTime {
					at = rb.MaxTimestamp
				}
				each(logRecord{off: off, key: r.Key, value: r.Value, at: at, producer: producer, control: rb.Control})
			}
			next = max(next, last+1)
		case rs.MsgSet != nil:
			for _, mb := range rs.MsgSet.Messages {
				for _, m := range mb.Messages() {
					if m.Offset < next || m.Msg == nil {
						continue
					}
					each(logRecord{off: m.Offset, key: m.Msg.Key, value: m.Msg.Value, at: m.Msg.Timestamp, producer: -1, legacy: true})
					next = m.Offset + 1
				}
			}
		}
	}
	return next, batches
}
