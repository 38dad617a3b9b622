package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fakeOffsetsTopic is a topic named __consumer_offsets on a fake cluster (kfake's own
// coordinator keeps commits in memory), written the way Kafka's group coordinator
// writes it: kmsg-encoded keys and values, each group's records on the partition of
// Kafka's hash rule (realkafka.OffsetsPartition, the tests' own implementation).
type fakeOffsetsTopic struct {
	t  testing.TB
	cl *kgo.Client
	n  int32
}

// newFakeOffsetsTopic creates __consumer_offsets with n partitions on k.
func newFakeOffsetsTopic(t testing.TB, k *kfake.Cluster, n int32, opts ...kgo.Opt) *fakeOffsetsTopic {
	t.Helper()
	if err := k.CreateTopic(realkafka.OffsetsTopic, n, nil); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(k.ListenAddrs()...), kgo.DefaultProduceTopic(realkafka.OffsetsTopic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &fakeOffsetsTopic{t: t, cl: cl, n: n}
}

// commitRecord is an OffsetCommit record of group on topic-p: offset committed at at; a
// negative offset writes a tombstone (the commit deleted).
func (f *fakeOffsetsTopic) commitRecord(group, topic string, p int32, offset int64, at time.Time) *kgo.Record {
	k := kmsg.NewOffsetCommitKey()
	k.Version, k.Group, k.Topic, k.Partition = 1, group, topic, p
	r := &kgo.Record{Partition: realkafka.OffsetsPartition(group, f.n), Key: k.AppendTo(nil), Timestamp: at}
	if offset >= 0 {
		v := kmsg.NewOffsetCommitValue()
		v.Version, v.Offset, v.LeaderEpoch, v.CommitTimestamp = 3, offset, -1, at.UnixMilli()
		r.Value = v.AppendTo(nil)
	}
	return r
}

// classicRecord is a GroupMetadata record of a classic group: members members, in the
// state entered at stateAt (Empty when members is 0).
func (f *fakeOffsetsTopic) classicRecord(group, protocolType string, generation int32, members int, stateAt time.Time) *kgo.Record {
	k := kmsg.NewGroupMetadataKey()
	k.Version, k.Group = 2, group
	v := kmsg.NewGroupMetadataValue()
	v.Version, v.ProtocolType, v.Generation, v.CurrentStateTimestamp = 3, protocolType, generation, stateAt.UnixMilli()
	for range members {
		m := kmsg.NewGroupMetadataValueMember()
		m.MemberID, m.ClientID, m.ClientHost = "m", "c", "/127.0.0.1"
		v.Members = append(v.Members, m)
	}
	return &kgo.Record{Partition: realkafka.OffsetsPartition(group, f.n), Key: k.AppendTo(nil), Value: v.AppendTo(nil), Timestamp: stateAt}
}

// write produces records in order.
func (f *fakeOffsetsTopic) write(recs ...*kgo.Record) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		f.t.Fatal(err)
	}
}

// commit writes one commit of group on topic-p at offset, committed at at.
func (f *fakeOffsetsTopic) commit(group, topic string, p int32, offset int64, at time.Time) {
	f.t.Helper()
	f.write(f.commitRecord(group, topic, p, offset, at))
}
