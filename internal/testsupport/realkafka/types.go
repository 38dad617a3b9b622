package realkafka

// Share and streams groups on the real broker: which Kafka version runs and what it has,
// Empty share groups made with AlterShareGroupOffsets, group configs, and live members
// (Kafka's ConsoleShareConsumer, the tiny Streams app of test/kafka/StreamsApp.java).

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Main classes of Kafka's share- and streams-group tools and console share consumer.
const (
	ShareGroupCommand    = "org.apache.kafka.tools.consumer.group.ShareGroupCommand"
	StreamsGroupCommand  = "org.apache.kafka.tools.streams.StreamsGroupCommand"
	ConsoleShareConsumer = "org.apache.kafka.tools.consumer.ConsoleShareConsumer"
)

const (
	envKafkaVersion = "OFFSETTUI_IT_KAFKA_VERSION"
	envStreamsApp   = "OFFSETTUI_KAFKA_STREAMS_APP"
)

// Version is the Kafka version of the broker under test, as scripts/kafka.sh env exports
// it ("unknown" when it does not).
func Version() string {
	if v := strings.TrimSpace(os.Getenv(envKafkaVersion)); v != "" {
		return v
	}
	return "unknown"
}

// AtLeast reports whether Version is major.minor or newer; an unknown version is the
// newest (the script's default).
func AtLeast(major, minor int) bool { return versionAtLeast(Version(), major, minor) }

// versionAtLeast reports whether Kafka version v is major.minor or newer (an unparsable one
// is).
func versionAtLeast(v string, major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(v, "%d.%d", &ma, &mi); err != nil {
		return true
	}
	return ma > major || (ma == major && mi >= minor)
}

var (
	apiOnce sync.Once
	apiMax  map[int16]int16
	apiErr  error
)

// APIs returns the broker's API keys and their highest versions (ApiVersions).
func APIs(t testing.TB, addr string) map[int16]int16 {
	t.Helper()
	apiOnce.Do(func() {
		cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...))
		if err != nil {
			apiErr = err
			return
		}
		defer cl.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, cl)
		if err != nil {
			apiErr = err
			return
		}
		apiMax = map[int16]int16{}
		for _, k := range resp.ApiKeys {
			apiMax[k.ApiKey] = k.MaxVersion
		}
	})
	if apiErr != nil {
		t.Fatalf("ApiVersions from %s: %v", addr, apiErr)
	}
	return apiMax
}

// NeedShareGroups skips the test, naming the Kafka version, when the broker has no share
// groups (Kafka 4.0: no ShareGroupDescribe in ApiVersions).
func NeedShareGroups(t testing.TB, addr string) {
	t.Helper()
	if _, ok := APIs(t, addr)[int16(kmsg.ShareGroupDescribe)]; !ok {
		t.Skipf("Kafka %s has no share groups (ShareGroupDescribe is not in its ApiVersions; share groups need 4.1+): skipped", Version())
	}
}

// NeedStreamsGroups skips the test, naming the Kafka version, when the broker has no
// streams groups (Kafka 4.0 and 4.1: no StreamsGroupDescribe in ApiVersions).
func NeedStreamsGroups(t testing.TB, addr string) {
	t.Helper()
	if _, ok := APIs(t, addr)[int16(kmsg.StreamsGroupDescribe)]; !ok {
		t.Skipf("Kafka %s has no streams groups (StreamsGroupDescribe is not in its ApiVersions; 4.2+ has them on): skipped", Version())
	}
}

// ShareStartOffsets makes an Empty share group (AlterShareGroupOffsets creates it) with the
// given start offsets; the broker is a single node, so it is the coordinator.
func (s *Seed) ShareStartOffsets(group string, offs map[model.TP]int64) {
	s.t.Helper()
	req := kmsg.NewPtrAlterShareGroupOffsetsRequest()
	req.GroupID = group
	byTopic := map[string]int{}
	for tp, off := range offs {
		i, ok := byTopic[tp.Topic]
		if !ok {
			rt := kmsg.NewAlterShareGroupOffsetsRequestTopic()
			rt.Topic = tp.Topic
			req.Topics = append(req.Topics, rt)
			i = len(req.Topics) - 1
			byTopic[tp.Topic] = i
		}
		p := kmsg.NewAlterShareGroupOffsetsRequestTopicPartition()
		p.Partition, p.StartOffset = tp.Partition, off
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, p)
	}
	// A topic just created can be in metadata before the share coordinator serves it:
	// UNKNOWN_TOPIC_OR_PARTITION is asked again, for a while.
	var err error
	WaitUntil(s.t, 15*time.Second, "share-group offsets of "+group+" written", func() (bool, string) {
		var resp *kmsg.AlterShareGroupOffsetsResponse
		resp, err = req.RequestWith(Ctx(s.t, 15*time.Second), s.Client)
		if err == nil && resp.ErrorCode != 0 {
			err = fmt.Errorf("error code %d: %v", resp.ErrorCode, model.Deref(resp.ErrorMessage))
		}
		unknown := false
		if err == nil {
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					if p.ErrorCode != 0 {
						unknown = unknown || p.ErrorCode == kerr.UnknownTopicOrPartition.Code
						err = fmt.Errorf("%s-%d: error code %d: %v", t.Topic, p.Partition, p.ErrorCode, model.Deref(p.ErrorMessage))
					}
				}
			}
		}
		if err != nil && unknown {
			return false, err.Error()
		}
		return true, ""
	})
	if err != nil {
		s.t.Fatalf("alter share-group offsets of %s: %v", group, err)
	}
}

// ShareStarts reads a share group's start offsets with franz-go's admin client
// (DescribeShareGroupOffsets), never through internal/kafka; partitions without one are left
// out, and a group that does not exist has none.
func (s *Seed) ShareStarts(group string) map[model.TP]int64 {
	s.t.Helper()
	described, err := s.Adm.DescribeShareGroupOffsets(Ctx(s.t, 15*time.Second), group)
	if err != nil {
		s.t.Fatalf("describe share-group offsets of %s: %v", group, err)
	}
	d := described[group]
	if errors.Is(d.Err, kerr.GroupIDNotFound) {
		return map[model.TP]int64{}
	}
	if d.Err != nil {
		s.t.Fatalf("describe share-group offsets of %s: %v", group, d.Err)
	}
	out := map[model.TP]int64{}
	for topic, ps := range d.Offsets {
		for p, o := range ps {
			if o.Err != nil {
				s.t.Fatalf("describe share-group offsets of %s: %s-%d: %v", group, topic, p, o.Err)
			}
			if o.StartOffset >= 0 {
				out[model.TP{Topic: topic, Partition: p}] = o.StartOffset
			}
		}
	}
	return out
}

// AtLeast reports whether b's Kafka version is major.minor or newer.
func (b Broker) AtLeast(major, minor int) bool { return versionAtLeast(b.Version, major, minor) }

// NeedShareWrites skips the test, naming b's Kafka version, when b cannot write share-group
// start offsets: Kafka 4.0 has no share groups, 4.1 advertises AlterShareGroupOffsets and
// writes nothing.
func (b Broker) NeedShareWrites(t testing.TB) {
	t.Helper()
	if !versionAtLeast(b.Version, 4, 2) {
		t.Skipf("Kafka %s cannot write share-group start offsets (share groups came in 4.1, AlterShareGroupOffsets works from 4.2): skipped", b.Version)
	}
}

// NeedStreamsGroups skips the test, naming b's Kafka version, when b has no streams groups
// (they are on from Kafka 4.2).
func (b Broker) NeedStreamsGroups(t testing.TB) {
	t.Helper()
	if !versionAtLeast(b.Version, 4, 2) {
		t.Skipf("Kafka %s has no streams groups (on from 4.2): skipped", b.Version)
	}
}

// ShareConsumer starts Kafka's ConsoleShareConsumer as a live member of share group group
// reading topic; stop (also run when the test ends) sends SIGTERM and waits for it.
func ShareConsumer(t testing.TB, addr, group, topic string) (stop func()) {
	t.Helper()
	return background(t, "ConsoleShareConsumer", ConsoleShareConsumer,
		"--bootstrap-server", addr, "--topic", topic, "--group", group)
}

// StreamsApp starts the tiny Kafka Streams application of test/kafka/StreamsApp.java (run
// as a single source file on the broker's jars) as application id appID, copying in to
// out; stop (also run when the test ends) sends SIGTERM, on which it leaves the group.
func StreamsApp(t testing.TB, addr, appID, in, out string) (stop func()) {
	t.Helper()
	return streamsApp(t, addr, appID, in, out, t.TempDir())
}

// StreamsStoreApp starts the same application counting the input's records per key in the
// state store store (changelog appID-store-changelog); a restore of the store pauses pause
// after each batch of at most 100 records.
func StreamsStoreApp(t testing.TB, addr, appID, in, out, store string, pause time.Duration) (stop func()) {
	t.Helper()
	return streamsApp(t, addr, appID, in, out, t.TempDir(), store, strconv.FormatInt(pause.Milliseconds(), 10))
}

func streamsApp(t testing.TB, args ...string) (stop func()) {
	t.Helper()
	src := os.Getenv(envStreamsApp)
	if src == "" {
		t.Fatalf("%s must be set to run the streams application (%s)", envStreamsApp, startBrokerHint)
	}
	return background(t, "StreamsApp", src, args...)
}

// background starts a Kafka CLI main class (or a Java source file) that runs until stopped.
func background(t testing.TB, name, main string, args ...string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := javaCmd(t, ctx, main, args...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, out.String())
		}
	})
	return stop
}

// Tally counts the fields a parity test compares with Kafka's tools and reports each that
// differs; when the test ends it logs "<name> (Kafka <version>): compared N fields, M
// agree", the line CI lists and the figures the docs quote. It is safe for parallel
// subtests: For binds the reports to a subtest, sharing the counts.
type Tally struct {
	t      testing.TB
	counts *tallyCounts
}

type tallyCounts struct {
	mu               sync.Mutex
	name             string
	compared, agreed int
}

// NewTally starts a count for the named comparison.
func NewTally(t testing.TB, name string) *Tally {
	c := &Tally{t: t, counts: &tallyCounts{name: name}}
	t.Cleanup(func() {
		c.counts.mu.Lock()
		defer c.counts.mu.Unlock()
		t.Logf("%s (Kafka %s): compared %d fields, %d agree", name, Version(), c.counts.compared, c.counts.agreed)
	})
	return c
}

// For returns the tally reporting on t (a subtest), with the same counts.
func (c *Tally) For(t testing.TB) *Tally { return &Tally{t: t, counts: c.counts} }

// Eq compares one field: offsettui's value got against the tool's want.
func (c *Tally) Eq(what, got, want string) {
	c.t.Helper()
	c.counts.mu.Lock()
	c.counts.compared++
	if got == want {
		c.counts.agreed++
	}
	c.counts.mu.Unlock()
	if got != want {
		c.t.Errorf("%s: %s: offsettui %q, Kafka's tool %q", c.counts.name, what, got, want)
	}
}

// ConfigCommand returns the main class of kafka-configs in the broker's jars: it moved from
// kafka.admin (Scala, up to 4.1 at least) to org.apache.kafka.tools (4.4).
func ConfigCommand(t testing.TB) string {
	t.Helper()
	const tools, scala = "org.apache.kafka.tools.ConfigCommand", "kafka.admin.ConfigCommand"
	jars, _ := filepath.Glob(filepath.Join(os.Getenv(envKafkaLib), "kafka-tools-*.jar"))
	for _, j := range jars {
		z, err := zip.OpenReader(j)
		if err != nil {
			continue
		}
		found := false
		for _, f := range z.File {
			found = found || f.Name == "org/apache/kafka/tools/ConfigCommand.class"
		}
		z.Close()
		if found {
			return tools
		}
	}
	return scala
}

// WaitShareAcknowledged waits until the members of share group group have acknowledged
// every record of tps: the broker's lag (Kafka 4.2+, DescribeShareGroupOffsets) is 0 on
// each. Start offsets are no end state to wait for: the broker persists them lazily, so
// where they stop depends on how the deliveries were split, and a member paused under load
// acknowledges late.
func (s *Seed) WaitShareAcknowledged(group string, tps ...model.TP) {
	s.t.Helper()
	WaitUntil(s.t, 90*time.Second, group+" acknowledged every record", func() (bool, string) {
		described, err := s.Adm.DescribeShareGroupOffsets(Ctx(s.t, 15*time.Second), group)
		if err == nil {
			err = described[group].Err
		}
		if err != nil {
			return false, err.Error()
		}
		for _, tp := range tps {
			o, ok := described[group].Offsets.Lookup(tp.Topic, tp.Partition)
			if !ok || o.Err != nil || o.Lag != 0 {
				return false, fmt.Sprintf("%s-%d: %+v (listed %v), want lag 0", tp.Topic, tp.Partition, o, ok)
			}
		}
		return true, ""
	})
}

// WaitStill waits until read gives the same answer three times in a row, 3 s apart: for
// what has no known end state (share start offsets on Kafka 4.1, which gives no lag).
func WaitStill(t testing.TB, what string, read func() string) {
	t.Helper()
	WaitUntil(t, 90*time.Second, what+" held still", func() (bool, string) {
		reads := []string{read()}
		for len(reads) < 3 && reads[len(reads)-1] == reads[0] {
			time.Sleep(3 * time.Second)
			reads = append(reads, read())
		}
		return len(reads) == 3 && reads[2] == reads[0], strings.Join(reads, " then ")
	})
}
