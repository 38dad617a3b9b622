package commitlog

// Decoding the records of __consumer_offsets with franz-go's kmsg types. Every key starts
// with an int16, the record type (Kafka's CoordinatorRecordType); every group-scoped key
// then holds the group id as a non-flexible string (int16 length).

import (
	"encoding/binary"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The record types offsettui decodes.
const (
	recordOffsetCommitLegacy = 0 // OffsetCommitKey, key version 0
	recordOffsetCommit       = 1 // OffsetCommitKey, key version 1
	recordGroupMetadata      = 2 // GroupMetadataKey: a classic group's generation or Empty
)

// keyGroup returns a record key's type and group id (aliasing key), without decoding
// the rest: most records belong to groups not asked for.
func keyGroup(key []byte) (int16, []byte, bool) {
	if len(key) < 4 {
		return 0, nil, false
	}
	n := int(int16(binary.BigEndian.Uint16(key[2:])))
	if n < 0 || len(key) < 4+n {
		return 0, nil, false
	}
	return int16(binary.BigEndian.Uint16(key)), key[4 : 4+n], true
}

// decodeCommit reads an OffsetCommit record: its partition and the commit (a tombstone:
// the commit deleted). Topic names are interned in topics.
func decodeCommit(key, value []byte, topics map[string]string) (model.TP, decodedCommit, bool) {
	var k kmsg.OffsetCommitKey
	if k.UnsafeReadFrom(key) != nil {
		return model.TP{}, decodedCommit{}, false
	}
	topic, ok := topics[k.Topic]
	if !ok {
		topic = strings.Clone(k.Topic)
		topics[topic] = topic
	}
	tp := model.TP{Topic: topic, Partition: k.Partition}
	if value == nil {
		return tp, decodedCommit{tombstone: true}, true
	}
	var v kmsg.OffsetCommitValue
	if v.UnsafeReadFrom(value) != nil {
		return model.TP{}, decodedCommit{}, false
	}
	d := decodedCommit{commitState: commitState{offset: v.Offset, atMs: v.CommitTimestamp, own: v.Metadata == model.OwnCommitMetadata}, expireMs: -1}
	if v.Version == 1 && v.ExpireTimestamp >= 0 {
		d.expireMs = v.ExpireTimestamp
	}
	return tp, d, true
}

// decodeClassic reads a GroupMetadata value written at at; nil for a tombstone (the
// group deleted) or a value that does not decode.
func decodeClassic(value []byte, at time.Time) *model.ClassicRecord {
	if value == nil {
		return nil
	}
	var v kmsg.GroupMetadataValue
	if v.UnsafeReadFrom(value) != nil {
		return nil
	}
	c := &model.ClassicRecord{ProtocolType: strings.Clone(v.ProtocolType), Generation: v.Generation, Members: len(v.Members), WrittenAt: at}
	if v.Version >= 2 && v.CurrentStateTimestamp >= 0 {
		c.StateAt = time.UnixMilli(v.CurrentStateTimestamp)
	}
	return c
}
