package realkafka

// A partition of __consumer_offsets that holds tens of MB of one busy group's commits, with
// a group that committed before them and one that committed after (issue 31's figures:
// docs/testing.md "The commit log's cost"). Seeding it takes a while and leaves the records
// in the broker for good, so it runs on a broker of its own (scripts/kafka.sh role
// commitlog) and is seeded once per broker: a second call finds it and only commits the
// recent group again.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// CommitLogBroker is the broker of the commit-log figures (Kafka 4.4.0, scripts/kafka.sh
// role commitlog, OFFSETTUI_IT_COMMITLOG_BOOTSTRAP).
func CommitLogBroker(t testing.TB) Broker {
	t.Helper()
	return roleBroker(t, "commitlog")
}

// CommitLogWorld names what SeedCommitLogWorld made.
type CommitLogWorld struct {
	// Topic is the topic Old and Recent consumed, Partitions its partition count.
	Topic      string
	Partitions int32
	// Old consumed Topic and left before Busy's commits; Recent after them. Both are
	// classic groups of franz-go's consumer, Empty, on partition Partition of
	// __consumer_offsets, as Busy is.
	Old, Recent, Busy string
	Partition         int32
	// BusyCommits is how many commits Busy made; PartitionBytes is the size of the
	// partition of __consumer_offsets (DescribeLogDirs) once seeded.
	BusyCommits    int
	PartitionBytes int64
}

// The world's fixed names: one world per broker.
const (
	worldPrefix    = "cw"
	worldTopic     = worldPrefix + "-orders"
	worldBusyTopic = worldPrefix + "-busy-t"
	// worldBusyPartitions is how many partitions Busy commits on in one request: each of its
	// commit requests writes one batch of that many records.
	worldBusyPartitions = 500
	// worldMetadata pads each of Busy's commits to worldRecordBytes in its batch (a key of
	// 26 bytes, a value of 24 and the metadata, about 30 bytes of record framing: measured
	// with DescribeLogDirs), as a group with longer names would write.
	worldMetadata    = "instance=busy-7f9c;zb;"
	worldRecordBytes = 100
)

// SeedCommitLogWorld makes (or finds) the world on addr: Busy's commits of about mb MB of
// keys and values on the partition of __consumer_offsets that holds Old and Recent. Old is
// seeded only with the world; Recent consumes and leaves again at every call, so its
// records are the partition's newest.
func SeedCommitLogWorld(t testing.TB, addr string, mb int) CommitLogWorld {
	t.Helper()
	s := NewSeed(t, addr)
	ctx := Ctx(t, 10*time.Minute)
	w := CommitLogWorld{Topic: worldTopic, Partitions: 8, Busy: worldPrefix + "-busy"}
	// The first group request of a fresh broker makes it create __consumer_offsets; it
	// answers COORDINATOR_NOT_AVAILABLE until the topic is loaded.
	var seeded kadm.OffsetResponses
	WaitUntil(t, time.Minute, "the offsets of "+w.Busy, func() (bool, string) {
		var err error
		seeded, err = s.Adm.FetchOffsets(ctx, w.Busy)
		return err == nil, fmt.Sprint(err)
	})
	var n int32
	WaitUntil(t, time.Minute, OffsetsTopic+" in the metadata", func() (bool, string) {
		td, err := s.Adm.ListTopicsWithInternal(ctx, OffsetsTopic)
		n = int32(len(td[OffsetsTopic].Partitions))
		return err == nil && n > 0, fmt.Sprintf("%v %+v", err, td)
	})
	w.Partition = OffsetsPartition(w.Busy, n)
	w.Old, w.Recent = namedOn(worldPrefix+"-old", w.Partition, n), namedOn(worldPrefix+"-new", w.Partition, n)
	w.BusyCommits = mb * 1_000_000 / worldRecordBytes
	w.BusyCommits -= w.BusyCommits % worldBusyPartitions
	if len(seeded) == 0 {
		start := time.Now()
		for _, topic := range []struct {
			name string
			n    int32
		}{{w.Topic, w.Partitions}, {worldBusyTopic, worldBusyPartitions}} {
			if _, err := s.Adm.CreateTopic(ctx, topic.n, 1, nil, topic.name); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
				t.Fatalf("create topic %s: %v", topic.name, err)
			}
		}
		for p := range w.Partitions {
			s.ProduceN(w.Topic, p, 20, func(int) time.Time { return time.Now() })
		}
		ConsumeAndLeave(t, addr, w.Old, w.Topic)
		if err := commitBusily(ctx, s.Adm, w.Busy, w.BusyCommits); err != nil {
			t.Fatalf("the busy group's commits: %v", err)
		}
		t.Logf("seeded %s: %d commits of %s after %s, in %s", addr, w.BusyCommits, w.Busy, w.Old, time.Since(start).Round(time.Millisecond))
	}
	for p := range w.Partitions { // something new for Recent to read and commit
		s.ProduceN(w.Topic, p, 1, func(int) time.Time { return time.Now() })
	}
	ConsumeAndLeave(t, addr, w.Recent, w.Topic)
	dirs, err := s.Adm.DescribeAllLogDirs(ctx, kadm.TopicsSet{OffsetsTopic: {w.Partition: {}}})
	if err != nil {
		t.Fatalf("log dirs of %s: %v", OffsetsTopic, err)
	}
	dirs.Each(func(d kadm.DescribedLogDir) {
		d.Topics.Each(func(p kadm.DescribedLogDirPartition) { w.PartitionBytes += p.Size })
	})
	return w
}

// namedOn is the first name prefix-N that Kafka's rule puts on partition p of n.
func namedOn(prefix string, p, n int32) string {
	for i := 0; ; i++ {
		if name := fmt.Sprintf("%s-%d", prefix, i); OffsetsPartition(name, n) == p {
			return name
		}
	}
}

// commitBusily commits group's offsets count times, worldBusyPartitions partitions a
// request, 8 requests at a time.
func commitBusily(ctx context.Context, adm *kadm.Client, group string, count int) error {
	requests := count / worldBusyPartitions
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, 8)
	for r := range requests {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			offs := kadm.Offsets{}
			for p := range int32(worldBusyPartitions) {
				offs.Add(kadm.Offset{Topic: worldBusyTopic, Partition: p, At: int64(r), LeaderEpoch: -1, Metadata: worldMetadata})
			}
			resp, err := adm.CommitOffsets(ctx, group, offs)
			if err == nil {
				err = resp.Error()
			}
			if err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// ConsumeAndLeave runs a classic group member of franz-go's consumer in group on topic:
// it reads every partition from the group's commits (or the start) to its end, commits,
// and leaves (the group is Empty after).
func ConsumeAndLeave(t testing.TB, addr, group, topic string) {
	t.Helper()
	ctx := Ctx(t, time.Minute)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit(), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSeed(t, addr)
	ends, err := s.Adm.ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := s.Adm.FetchOffsets(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	left := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if c, ok := committed.Lookup(topic, o.Partition); o.Offset > 0 && (!ok || c.At < o.Offset) {
			left[o.Partition] = o.Offset
		}
	})
	for len(left) > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("%s reading %s: %v; still to read %v", group, topic, ctx.Err(), left)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset+1 >= left[r.Partition] {
				delete(left, r.Partition)
			}
		})
	}
	if err := cl.CommitUncommittedOffsets(ctx); err != nil {
		t.Fatalf("%s commit: %v", group, err)
	}
	cl.Close() // leaves the group
}
