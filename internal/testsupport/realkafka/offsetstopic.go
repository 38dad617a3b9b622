package realkafka

// Reading a group's records in __consumer_offsets (test support: the oracle of commit
// times and of when the broker deleted a commit), decoded with franz-go's kmsg types where
// franz-go has them.

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"
	"unicode/utf16"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// OffsetsTopic is the internal topic of group metadata and commits.
const OffsetsTopic = "__consumer_offsets"

// OffsetsPartition is the partition of __consumer_offsets that holds group's records: Java's
// String.hashCode of the group id (over UTF-16 code units), its absolute value (Kafka's
// Utils.abs: 0 for math.MinInt32), modulo the topic's partition count
// (GroupCoordinatorService.partitionFor).
func OffsetsPartition(group string, partitions int32) int32 {
	var h int32
	for _, c := range utf16.Encode([]rune(group)) {
		h = 31*h + int32(c)
	}
	switch {
	case h == -1<<31:
		h = 0
	case h < 0:
		h = -h
	}
	return h % partitions
}

// Record types of __consumer_offsets: the int16 that starts every key (Kafka's
// CoordinatorRecordType; group-coordinator's *Key.json "apiKey").
const (
	RecordOffsetCommitLegacy   = 0  // OffsetCommitKey v0
	RecordOffsetCommit         = 1  // OffsetCommitKey v1
	RecordGroupMetadata        = 2  // a classic group: GroupMetadataKey/Value
	RecordConsumerGroupMeta    = 3  // a consumer-protocol group's epoch (ConsumerGroupMetadataKey)
	RecordConsumerGroupMember  = 5  // ConsumerGroupMemberMetadataKey: a member's subscription
	RecordShareGroupMetadata   = 11 // ShareGroupMetadataKey
	RecordStreamsGroupMetadata = 17 // StreamsGroupMetadataKey (4.1+)
)

// CoordinatorRecord is one record of __consumer_offsets for a group.
type CoordinatorRecord struct {
	Offset    int64
	Timestamp time.Time // the batch's append time: when the coordinator wrote it
	Type      int16     // the key's first int16 (Record* above)
	Group     string
	Topic     string // OffsetCommit records
	Partition int32
	Tombstone bool                     // a null value: the commit (or group) was deleted
	Commit    *kmsg.OffsetCommitValue  // OffsetCommit records that are not tombstones
	Classic   *kmsg.GroupMetadataValue // GroupMetadata records that are not tombstones
}

// OffsetsTopicScan is what reading one partition of __consumer_offsets cost.
type OffsetsTopicScan struct {
	Partition int32
	Records   int
	Bytes     int64
	Took      time.Duration
}

// GroupRecords reads group's partition of __consumer_offsets from its log start to its high
// watermark (a direct fetch by a principal that may read the topic) and returns the group's
// records in log order, and what the read cost. It gives up after 60 s (sooner if ctx ends).
func GroupRecords(ctx context.Context, addrs []string, group string, opts ...kgo.Opt) ([]CoordinatorRecord, OffsetsTopicScan, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var scan OffsetsTopicScan
	admin, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addrs...)}, opts...)...)
	if err != nil {
		return nil, scan, err
	}
	defer admin.Close()
	md := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(OffsetsTopic)
	md.Topics = append(md.Topics, mt)
	mresp, err := md.RequestWith(ctx, admin)
	if err != nil {
		return nil, scan, err
	}
	if len(mresp.Topics) == 1 && mresp.Topics[0].ErrorCode != 0 {
		return nil, scan, fmt.Errorf("metadata of %s: %w", OffsetsTopic, kerr.ErrorForCode(mresp.Topics[0].ErrorCode))
	}
	if len(mresp.Topics) != 1 || len(mresp.Topics[0].Partitions) == 0 {
		return nil, scan, fmt.Errorf("%s has no partitions in the metadata", OffsetsTopic)
	}
	scan.Partition = OffsetsPartition(group, int32(len(mresp.Topics[0].Partitions)))
	high, err := ListOffset(ctx, admin, OffsetsTopic, scan.Partition, TimestampLatest, false)
	if err != nil {
		return nil, scan, err
	}
	start := time.Now()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addrs...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{OffsetsTopic: {scan.Partition: kgo.NewOffset().AtStart()}}),
		kgo.FetchMaxWait(100 * time.Millisecond),
		kgo.KeepControlRecords()}, opts...)...) // the markers of transactional commits move the position too
	if err != nil {
		return nil, scan, err
	}
	defer cl.Close()
	var out []CoordinatorRecord
	// Read until the position reaches high: a slow first fetch or a stall under load is
	// waited out, never taken for the end of the partition.
	for next := int64(0); next < high; {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil, scan, fmt.Errorf("reading %s-%d: at %d of %d: %w", OffsetsTopic, scan.Partition, next, high, ctx.Err())
		}
		if err := fs.Err(); err != nil {
			return nil, scan, fmt.Errorf("reading %s-%d: %w", OffsetsTopic, scan.Partition, err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			next = r.Offset + 1
			if r.Attrs.IsControl() {
				return
			}
			scan.Records++
			scan.Bytes += int64(len(r.Key) + len(r.Value))
			if rec, ok := decodeCoordinatorRecord(r); ok && rec.Group == group {
				out = append(out, rec)
			}
		})
	}
	scan.Took = time.Since(start)
	return out, scan, nil
}

func decodeCoordinatorRecord(r *kgo.Record) (CoordinatorRecord, bool) {
	rec := CoordinatorRecord{Offset: r.Offset, Timestamp: r.Timestamp, Tombstone: r.Value == nil}
	if len(r.Key) < 2 {
		return rec, false
	}
	rec.Type = int16(binary.BigEndian.Uint16(r.Key))
	switch rec.Type {
	case RecordOffsetCommitLegacy, RecordOffsetCommit:
		var k kmsg.OffsetCommitKey
		if k.ReadFrom(r.Key) != nil {
			return rec, false
		}
		rec.Group, rec.Topic, rec.Partition = k.Group, k.Topic, k.Partition
		if !rec.Tombstone {
			var v kmsg.OffsetCommitValue
			if v.ReadFrom(r.Value) != nil {
				return rec, false
			}
			rec.Commit = &v
		}
	case RecordGroupMetadata:
		var k kmsg.GroupMetadataKey
		if k.ReadFrom(r.Key) != nil {
			return rec, false
		}
		rec.Group = k.Group
		if !rec.Tombstone {
			var v kmsg.GroupMetadataValue
			if v.ReadFrom(r.Value) != nil {
				return rec, false
			}
			rec.Classic = &v
		}
	default:
		// Every newer key (consumer, share and streams group records) starts with the
		// group id as a non-flexible string (int16 length); franz-go has no types for them.
		if len(r.Key) < 4 {
			return rec, false
		}
		n := int(binary.BigEndian.Uint16(r.Key[2:]))
		if len(r.Key) < 4+n {
			return rec, false
		}
		rec.Group = string(r.Key[4 : 4+n])
	}
	return rec, true
}
