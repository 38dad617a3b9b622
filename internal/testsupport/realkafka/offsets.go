package realkafka

// Independent reads of a partition's offsets (franz-go's ListOffsets, never internal/kafka),
// for asserting shapes.

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// ListOffsets special timestamps (Kafka's ListOffsetsRequest).
const (
	TimestampLatest        = -1 // the high watermark (read_committed: the last stable offset)
	TimestampEarliest      = -2 // the log start offset, remote segments included
	TimestampMax           = -3 // the record with the largest timestamp (KIP-734, v7+)
	TimestampEarliestLocal = -4 // the local log start offset (KIP-405, v8+)
	TimestampLatestTiered  = -5 // the highest offset copied to remote storage (KIP-1005, v9+)
)

// PartitionOffsets is what ListOffsets says of one partition.
type PartitionOffsets struct {
	Start      int64 // EARLIEST: the log start offset (remote included on a tiered topic)
	LocalStart int64 // EARLIEST_LOCAL: the first offset still on the broker's disk
	High       int64 // LATEST read_uncommitted: the high watermark
	LastStable int64 // LATEST read_committed: the last stable offset
	Tiered     int64 // LATEST_TIERED: the last offset in remote storage (-1: none)
}

func (p PartitionOffsets) String() string {
	return fmt.Sprintf("start %d, local start %d, high %d, last stable %d, last tiered %d",
		p.Start, p.LocalStart, p.High, p.LastStable, p.Tiered)
}

// Offsets reads every kind of ListOffsets of one partition.
func (s *Seed) Offsets(topic string, partition int32) (PartitionOffsets, error) {
	var p PartitionOffsets
	for _, q := range []struct {
		dst       *int64
		ts        int64
		committed bool
	}{
		{&p.Start, TimestampEarliest, false}, {&p.LocalStart, TimestampEarliestLocal, false},
		{&p.High, TimestampLatest, false}, {&p.LastStable, TimestampLatest, true},
		{&p.Tiered, TimestampLatestTiered, false},
	} {
		o, err := ListOffset(context.Background(), s.Client, topic, partition, q.ts, q.committed)
		if err != nil {
			return p, err
		}
		*q.dst = o
	}
	return p, nil
}

// ListOffset sends one ListOffsets for one partition with timestamp ts (a special one above,
// or epoch ms) and isolation read_committed or not, at the highest version the client and
// broker share, and returns the offset.
func ListOffset(ctx context.Context, cl *kgo.Client, topic string, partition int32, ts int64, readCommitted bool) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -1
	if readCommitted {
		req.IsolationLevel = 1
	}
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewListOffsetsRequestTopicPartition()
	rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = partition, ts, -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	shards := cl.RequestSharded(ctx, req)
	for _, sh := range shards {
		if sh.Err != nil {
			return 0, sh.Err
		}
		resp := sh.Resp.(*kmsg.ListOffsetsResponse)
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if t.Topic == topic && p.Partition == partition {
					if err := kmsgErr(p.ErrorCode); err != nil {
						return 0, fmt.Errorf("ListOffsets %s-%d at %d: %w", topic, partition, ts, err)
					}
					return p.Offset, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("ListOffsets %s-%d at %d: no answer for the partition", topic, partition, ts)
}

// ListOffsetAtVersion is ListOffset with the request's version capped at v (a client that
// speaks no newer ListOffsets, e.g. sarama's v6), on a client of its own.
func ListOffsetAtVersion(ctx context.Context, addrs []string, v int16, topic string, partition int32, ts int64) (int64, error) {
	versions := kversion.Stable()
	versions.SetMaxKeyVersion(int16(kmsg.ListOffsets), v)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.MaxVersions(versions))
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	return ListOffset(ctx, cl, topic, partition, ts, false)
}

// CommittedOffsets reads a group's committed offsets with OffsetFetch (kadm), leaving out
// partitions without a commit.
func (s *Seed) CommittedOffsets(group string) (kadm.OffsetResponses, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.Adm.FetchOffsets(ctx, group)
}

func kmsgErr(code int16) error { return kerr.ErrorForCode(code) }
