package realkafka

// A Kafka Streams application restoring a state store from a large changelog, and
// StreamsGroupDescribe asked directly: the oracle of what the broker holds of its tasks.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// StreamsRestoreShape is test/kafka/StreamsApp.java counting per key in a state store whose
// changelog held Records records before the application first started: its one task, 0_0,
// restores all of them before it runs.
type StreamsRestoreShape struct {
	App, In, Out, Store, Changelog string
	Records                        int64 // the changelog's records: its end offset
}

// StreamsRestore builds a StreamsRestoreShape on b: input and output topics of one
// partition, the store's changelog (one partition, compacted) written with records distinct
// keys, then the application with a fresh state directory, pausing pause after each restored
// batch of at most 100 records. It returns once the application is started, not joined.
func (b Broker) StreamsRestore(t testing.TB, records int, pause time.Duration) StreamsRestoreShape {
	t.Helper()
	s := b.Seed(t)
	sh := StreamsRestoreShape{App: Name("restore-app"), In: Name("restore-in"), Out: Name("restore-out"), Store: "counts",
		Records: int64(records)}
	sh.Changelog = sh.App + "-" + sh.Store + "-changelog"
	s.CreateTopic(sh.In, 1, nil)
	s.CreateTopic(sh.Out, 1, nil)
	s.CreateTopic(sh.Changelog, 1, map[string]*string{"cleanup.policy": ptr("compact")})
	const batch = 5000
	for from := 0; from < records; from += batch {
		var recs []*kgo.Record
		for i := from; i < min(from+batch, records); i++ {
			recs = append(recs, &kgo.Record{Topic: sh.Changelog, Partition: 0, Key: []byte("k" + strconv.Itoa(i)),
				Value: []byte{0, 0, 0, 0, 0, 0, 0, 1}}) // a count of 1, as the store's LongSerde writes it
		}
		if err := s.Client.ProduceSync(Ctx(t, 30*time.Second), recs...).FirstErr(); err != nil {
			t.Fatalf("write the changelog %s: %v", sh.Changelog, err)
		}
	}
	StreamsStoreApp(t, b.Addr, sh.App, sh.In, sh.Out, sh.Store, pause)
	return sh
}

// StreamsMembers asks the group's coordinator for a streams group's members
// (StreamsGroupDescribe), with what each last reported of its tasks' changelogs.
func (s *Seed) StreamsMembers(ctx context.Context, group string) ([]kmsg.StreamsGroupDescribeResponseGroupMember, error) {
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(ctx, s.Client)
	if err != nil {
		return nil, err
	}
	if len(resp.Groups) != 1 {
		return nil, fmt.Errorf("StreamsGroupDescribe of %s: %d groups in the answer", group, len(resp.Groups))
	}
	if err := kerr.ErrorForCode(resp.Groups[0].ErrorCode); err != nil {
		return nil, fmt.Errorf("StreamsGroupDescribe of %s: %w", group, err)
	}
	return resp.Groups[0].Members, nil
}

// NeedTaskOffsetInterval skips the test (fails it under OFFSETTUI_REQUIRE_KAFKA=1, as CI's
// broker must have it) unless the broker asks streams members for their task offsets at
// least every max (group.streams.task.offset.interval.ms; 60 s by default, and the members
// report them only while a task restores).
func (b Broker) NeedTaskOffsetInterval(t testing.TB, max time.Duration) {
	t.Helper()
	const name = "group.streams.task.offset.interval.ms"
	v, ok := b.Seed(t).BrokerConfig(name)
	ms, err := strconv.ParseInt(v, 10, 64)
	if ok && err == nil && time.Duration(ms)*time.Millisecond <= max {
		return
	}
	if !ok {
		v = "its default (not described)"
	}
	msg := fmt.Sprintf("the %s broker has %s=%s, not at most %s: restart it with this checkout's scripts/kafka.sh", b.Name(), name, v, max)
	if os.Getenv(envRequire) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
