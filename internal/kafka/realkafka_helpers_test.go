package kafka_test

// Helpers for the tests against a real Apache Kafka broker (realkafka_test.go):
// finding the broker, unique names, and running Kafka's own CLI as the oracle.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	envBootstrap    = "OFFSETTUI_IT_BOOTSTRAP"
	envRequire      = "OFFSETTUI_REQUIRE_KAFKA"
	envKafkaLib     = "OFFSETTUI_KAFKA_LIB"
	envToolsLog4j   = "OFFSETTUI_KAFKA_TOOLS_LOG4J"
	startBrokerHint = `start one with scripts/kafka.sh start && eval "$(scripts/kafka.sh env)"`
)

var (
	probeOnce sync.Once
	probeErr  error
)

// realKafka returns the address of the real broker the test runs against. With no
// OFFSETTUI_IT_BOOTSTRAP the test is skipped, unless OFFSETTUI_REQUIRE_KAFKA=1 (CI):
// then it fails. A broker that is named but does not answer always fails the test.
func realKafka(t *testing.T) string {
	t.Helper()
	addr := strings.TrimSpace(os.Getenv(envBootstrap))
	if addr == "" {
		if os.Getenv(envRequire) == "1" {
			t.Fatalf("%s=1 but %s is not set: the real-broker tests cannot run (%s)", envRequire, envBootstrap, startBrokerHint)
		}
		t.Skipf("%s is not set: real-broker test skipped (%s)", envBootstrap, startBrokerHint)
	}
	probeOnce.Do(func() { probeErr = probeBroker(addr) })
	if probeErr != nil {
		t.Fatalf("the real Kafka broker %s=%s does not answer: %v (%s)", envBootstrap, addr, probeErr, startBrokerHint)
	}
	return addr
}

// probeBroker asks the broker for its metadata, bounded in time.
func probeBroker(addr string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...),
		kgo.DialTimeout(3*time.Second), kgo.RequestRetries(1))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = kadm.NewClient(cl).BrokerMetadata(ctx)
	return err
}

// uniqName returns prefix plus a random suffix, so reruns against the same broker
// never meet the topics and groups of an earlier run.
func uniqName(prefix string) string {
	return fmt.Sprintf("it-%s-%08x", prefix, rand.Uint32())
}

// realSeed is a franz-go client on the real broker (see seed in helpers_test.go)
// with the admin helpers the real-broker tests need.
func realSeed(t *testing.T, addr string) *seed {
	t.Helper()
	return newSeed(t, strings.Split(addr, ","))
}

func boundedCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// createTopic creates a topic with n partitions (replication 1) and optional
// configs, and deletes it when the test ends.
func (s *seed) createTopic(name string, n int32, configs map[string]*string) {
	t := s.t
	t.Helper()
	ctx := boundedCtx(t, 30*time.Second)
	if _, err := s.adm.CreateTopic(ctx, n, 1, configs, name); err != nil {
		t.Fatalf("create topic %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.adm.DeleteTopics(ctx, name)
	})
}

// setTopicConfig sets (value != nil) or removes (value == nil) one topic config.
func (s *seed) setTopicConfig(topic, name string, value *string) {
	t := s.t
	t.Helper()
	op := kadm.SetConfig
	if value == nil {
		op = kadm.DeleteConfig
	}
	resp, err := s.adm.AlterTopicConfigs(boundedCtx(t, 15*time.Second), []kadm.AlterConfig{{Op: op, Name: name, Value: value}}, topic)
	if err == nil {
		for _, r := range resp {
			if r.Err != nil {
				err = fmt.Errorf("%w: %s", r.Err, r.ErrMessage)
			}
		}
	}
	if err != nil {
		t.Fatalf("alter %s of %s: %v", name, topic, err)
	}
}

// deleteRecords moves the start offset of topic-partition to before.
func (s *seed) deleteRecords(topic string, partition int32, before int64) {
	t := s.t
	t.Helper()
	o := kadm.Offsets{}
	o.Add(kadm.Offset{Topic: topic, Partition: partition, At: before, LeaderEpoch: -1})
	resp, err := s.adm.DeleteRecords(boundedCtx(t, 15*time.Second), o)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("delete records of %s-%d before %d: %v", topic, partition, before, err)
	}
}

// startOffset is ListOffsets EARLIEST of one partition, read by franz-go.
func (s *seed) startOffset(topic string, partition int32) (int64, error) {
	return s.listOffset(s.adm.ListStartOffsets, topic, partition)
}

// stableOffset is the last stable offset (ListOffsets LATEST, read_committed).
func (s *seed) stableOffset(topic string, partition int32) (int64, error) {
	return s.listOffset(s.adm.ListCommittedOffsets, topic, partition)
}

func (s *seed) listOffset(list func(context.Context, ...string) (kadm.ListedOffsets, error), topic string, partition int32) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := list(ctx, topic)
	if err != nil {
		return 0, err
	}
	o, ok := l.Lookup(topic, partition)
	if !ok {
		return 0, fmt.Errorf("no start offset for %s-%d", topic, partition)
	}
	return o.Offset, o.Err
}

// classicMember starts a live classic-protocol group member (franz-go, auto commit
// off) consuming topics, and stops it (leaving the group) when the test ends.
func classicMember(t *testing.T, addr, group, clientID string, topics ...string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.ClientID(clientID),
		kgo.ConsumerGroup(group), kgo.ConsumeTopics(topics...), kgo.DisableAutoCommit(),
		kgo.Balancers(kgo.RangeBalancer()), kgo.SessionTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		cl.Close()
	})
}

// javaCmd builds the command line of a Kafka CLI main class from the broker's jars,
// with the tools' log4j config (logs at WARN on stderr, stdout left to the tool).
func javaCmd(t *testing.T, ctx context.Context, main string, args ...string) *exec.Cmd {
	t.Helper()
	lib, log4j := os.Getenv(envKafkaLib), os.Getenv(envToolsLog4j)
	if lib == "" || log4j == "" {
		t.Fatalf("%s and %s must be set to run Kafka's CLI as the oracle (%s)", envKafkaLib, envToolsLog4j, startBrokerHint)
	}
	java := "java"
	if h := os.Getenv("JAVA_HOME"); h != "" {
		if p := filepath.Join(h, "bin", "java"); isFile(p) {
			java = p
		}
	}
	full := []string{"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-Dlog4j2.configurationFile=" + log4j, "-cp", filepath.Join(lib, "*"), main}
	return exec.CommandContext(ctx, java, append(full, args...)...)
}

func isFile(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

const consumerGroupCommand = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"

// kafkaTool runs a Kafka CLI main class to completion (bounded) and returns its
// stdout. Kafka's tools exit 0 on many errors: callers check the rows they expect.
func kafkaTool(t *testing.T, main string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := javaCmd(t, ctx, main, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", main, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s %s stderr:\n%s", main, strings.Join(args, " "), s)
			}
		})
	}
	return stdout.String()
}

// cgcDescribe runs ConsumerGroupCommand --describe for the groups with extra
// flags (e.g. --members) and returns its stdout.
func cgcDescribe(t *testing.T, addr string, extra []string, groups ...string) string {
	t.Helper()
	args := []string{"--bootstrap-server", addr, "--describe"}
	args = append(args, extra...)
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	return kafkaTool(t, consumerGroupCommand, args...)
}

// tableRows returns the rows of every table in out whose header names all cols,
// as maps from column name to value. Only lines with exactly the header's number of
// fields are rows, so "Error:"/"Warn:" lines, notes and blank lines are left out.
func tableRows(out string, cols ...string) []map[string]string {
	var header []string
	var rows []map[string]string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if headerHas(f, cols) {
			header = f
			continue
		}
		if header == nil || len(f) != len(header) || strings.HasSuffix(f[0], ":") {
			continue
		}
		row := make(map[string]string, len(f))
		for i, h := range header {
			row[h] = f[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func headerHas(fields, cols []string) bool {
	for _, c := range cols {
		found := false
		for _, f := range fields {
			if f == c {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// cliRow is one partition row of ConsumerGroupCommand --describe.
type cliRow struct {
	group, topic         string
	partition            int32
	current, logEnd, lag *int64 // nil for "-"
}

func (r cliRow) tp() model.TP { return model.TP{Topic: r.topic, Partition: r.partition} }

// describeRows parses the offsets table of ConsumerGroupCommand --describe.
func describeRows(t *testing.T, out string) []cliRow {
	t.Helper()
	var rows []cliRow
	for _, m := range tableRows(out, "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG") {
		p, err := strconv.ParseInt(m["PARTITION"], 10, 32)
		if err != nil {
			t.Fatalf("ConsumerGroupCommand row %v: partition: %v", m, err)
		}
		r := cliRow{group: m["GROUP"], topic: m["TOPIC"], partition: int32(p)}
		for _, c := range []struct {
			col string
			dst **int64
		}{{"CURRENT-OFFSET", &r.current}, {"LOG-END-OFFSET", &r.logEnd}, {"LAG", &r.lag}} {
			v := m[c.col]
			if v == "-" {
				continue
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("ConsumerGroupCommand row %v: %s: %v", m, c.col, err)
			}
			*c.dst = model.Ptr(n)
		}
		rows = append(rows, r)
	}
	return rows
}

// consoleConsumer starts Kafka's ConsoleConsumer as a consumer-protocol (KIP-848)
// group member. stop (also run when the test ends) sends SIGTERM, on which it
// leaves the group, and waits for it to exit.
func consoleConsumer(t *testing.T, addr, group, clientID, topic string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := javaCmd(t, ctx, "org.apache.kafka.tools.consumer.ConsoleConsumer",
		"--bootstrap-server", addr, "--topic", topic, "--group", group,
		"--consumer-property", "group.protocol=consumer",
		"--consumer-property", "client.id="+clientID,
		"--consumer-property", "enable.auto.commit=false")
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start ConsoleConsumer: %v", err)
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
			t.Logf("ConsoleConsumer stderr:\n%s", stderr.String())
		}
	})
	return stop
}

// syncBuffer is a bytes.Buffer safe for the writer goroutine of exec and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func fmtInt64(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}

func sameInt64(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
