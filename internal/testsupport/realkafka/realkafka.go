// Package realkafka holds the helpers of the tests that run against a real Apache
// Kafka broker (scripts/kafka.sh): finding the broker (skip, or fail under
// OFFSETTUI_REQUIRE_KAFKA=1), unique names, a franz-go seeding client that never
// goes through internal/kafka (internal/testsupport/kafkatest's, with the admin steps a real
// broker needs), live members of both group protocols, and Kafka's own
// ConsumerGroupCommand as the oracle. Only _test.go files import it.
package realkafka

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

const (
	envBootstrap     = "OFFSETTUI_IT_BOOTSTRAP"
	envSASLBootstrap = "OFFSETTUI_IT_SASL_BOOTSTRAP"
	envRequire       = "OFFSETTUI_REQUIRE_KAFKA"
	envKafkaLib      = "OFFSETTUI_KAFKA_LIB"
	envToolsLog4j    = "OFFSETTUI_KAFKA_TOOLS_LOG4J"
	startBrokerHint  = `start one with scripts/kafka.sh start && eval "$(scripts/kafka.sh env)"`
)

var (
	probeOnce sync.Once
	probeErr  error
)

// Addr returns the address of the real broker. With no OFFSETTUI_IT_BOOTSTRAP the
// test is skipped, unless OFFSETTUI_REQUIRE_KAFKA=1 (CI): then it fails. A broker
// that is named but does not answer always fails the test.
func Addr(t testing.TB) string {
	t.Helper()
	InBrokerTier(t)
	addr := strings.TrimSpace(os.Getenv(envBootstrap))
	if addr == "" {
		if os.Getenv(envRequire) == "1" {
			t.Fatalf("%s=1 but %s is not set: the real-broker tests cannot run (%s)", envRequire, envBootstrap, startBrokerHint)
		}
		t.Skipf("%s is not set: real-broker test skipped (%s)", envBootstrap, startBrokerHint)
	}
	probeOnce.Do(func() { probeErr = probe(addr) })
	if probeErr != nil {
		t.Fatalf("the real Kafka broker %s=%s does not answer: %v (%s)", envBootstrap, addr, probeErr, startBrokerHint)
	}
	return addr
}

func probe(addr string) error {
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

// Env returns a value that `scripts/kafka.sh env` exports beside the broker address (the
// other listeners' addresses, the test certificates and stores). The test is skipped (or
// fails) as in Addr when there is no broker; a broker without the value fails the test.
func Env(t testing.TB, name string) string {
	t.Helper()
	Addr(t)
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		t.Fatalf("%s is not set: restart the broker with this checkout's scripts/kafka.sh (%s)", name, startBrokerHint)
	}
	return v
}

// Name returns prefix plus a random suffix, so reruns against the same broker
// never meet the topics and groups of an earlier run.
func Name(prefix string) string {
	return fmt.Sprintf("it-%s-%08x", prefix, rand.Uint32())
}

// Spaced is n record timestamps from t0, step apart: what Seed.Produce writes a log with.
func Spaced(t0 time.Time, step time.Duration, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = t0.Add(time.Duration(i) * step)
	}
	return out
}

// Ctx is a context bounded by d and cancelled when the test ends.
func Ctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Seed is the independent franz-go seeding client of internal/testsupport/kafkatest
// (Produce, ProduceN, Commit, Committed, DeleteRecords) connected to the real
// broker, with the admin steps a real broker needs that kfake's own API does for
// a fake cluster. It never goes through internal/kafka.
type Seed struct {
	*kafkatest.Seed
	t testing.TB
}

// NewSeed connects a Seed to addr (comma-separated bootstrap servers).
func NewSeed(t testing.TB, addr string) *Seed {
	t.Helper()
	return &Seed{Seed: kafkatest.NewSeed(t, strings.Split(addr, ",")), t: t}
}

// CreateTopic creates a topic with n partitions (replication 1) and configs
// (nil: the broker's defaults), waits until the broker's metadata shows every
// partition with a leader (CreateTopics answers once the controller has the
// topic, a moment before the broker serves it), and deletes it when the test
// ends.
func (s *Seed) CreateTopic(name string, n int32, configs map[string]*string) {
	s.t.Helper()
	if _, err := s.Adm.CreateTopic(Ctx(s.t, 30*time.Second), n, 1, configs, name); err != nil {
		s.t.Fatalf("create topic %s: %v", name, err)
	}
	s.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.Adm.DeleteTopics(ctx, name)
	})
	WaitUntil(s.t, 15*time.Second, "topic "+name+" served", func() (bool, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		m, err := s.Adm.Metadata(ctx, name)
		if err != nil {
			return false, err.Error()
		}
		td, ok := m.Topics[name]
		switch {
		case !ok:
			return false, "not in metadata"
		case td.Err != nil:
			return false, td.Err.Error()
		case len(td.Partitions) != int(n):
			return false, fmt.Sprintf("%d of %d partitions", len(td.Partitions), n)
		}
		for _, p := range td.Partitions {
			if p.Err != nil || p.Leader < 0 {
				return false, fmt.Sprintf("partition %d: leader %d, %v", p.Partition, p.Leader, p.Err)
			}
		}
		return true, ""
	})
}

// SetTopicConfig sets (value != nil) or removes (value == nil) one topic config.
func (s *Seed) SetTopicConfig(topic, name string, value *string) {
	s.t.Helper()
	op := kadm.SetConfig
	if value == nil {
		op = kadm.DeleteConfig
	}
	resp, err := s.Adm.AlterTopicConfigs(Ctx(s.t, 15*time.Second), []kadm.AlterConfig{{Op: op, Name: name, Value: value}}, topic)
	if err == nil {
		for _, r := range resp {
			if r.Err != nil {
				err = fmt.Errorf("%w: %s", r.Err, r.ErrMessage)
			}
		}
	}
	if err != nil {
		s.t.Fatalf("alter %s of %s: %v", name, topic, err)
	}
	// The controller takes the change; the broker applies it a moment later (retention
	// deletes by the old value until then): wait until the broker describes it.
	WaitUntil(s.t, 15*time.Second, "the broker applies "+name+" of "+topic, func() (bool, string) {
		rcs, err := s.Adm.DescribeTopicConfigs(Ctx(s.t, 5*time.Second), topic)
		if err != nil {
			return false, err.Error()
		}
		rc, err := rcs.On(topic, nil)
		if err != nil {
			return false, err.Error()
		}
		for _, c := range rc.Configs {
			if c.Key != name {
				continue
			}
			override := c.Source == kmsg.ConfigSourceDynamicTopicConfig
			if value == nil {
				return !override, "still set on the topic to " + c.MaybeValue()
			}
			return override && c.MaybeValue() == *value, fmt.Sprintf("%s (source %v)", c.MaybeValue(), c.Source)
		}
		return false, "not described"
	})
}

// StartOffset is ListOffsets EARLIEST of one partition (the log start offset).
func (s *Seed) StartOffset(topic string, partition int32) (int64, error) {
	return s.listOffset(s.Adm.ListStartOffsets, topic, partition)
}

// StableOffset is the last stable offset of one partition (ListOffsets LATEST,
// read_committed).
func (s *Seed) StableOffset(topic string, partition int32) (int64, error) {
	return s.listOffset(s.Adm.ListCommittedOffsets, topic, partition)
}

func (s *Seed) listOffset(list func(context.Context, ...string) (kadm.ListedOffsets, error), topic string, partition int32) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := list(ctx, topic)
	if err != nil {
		return 0, err
	}
	o, ok := l.Lookup(topic, partition)
	if !ok {
		return 0, fmt.Errorf("no offset listed for %s-%d", topic, partition)
	}
	return o.Offset, o.Err
}

// ClassicMember starts a live classic-protocol group member (franz-go, auto commit
// off) consuming topics; it leaves the group when the test ends.
func ClassicMember(t testing.TB, addr, group, clientID string, topics ...string) {
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

// WaitUntil calls check until it reports true or d has passed, then fails with the
// last reason it gave.
func WaitUntil(t testing.TB, d time.Duration, what string, check func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, why := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached within %s: %s", what, d, why)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// SASLAddr returns the address of the real broker's SASL listener, where ACLs
// apply (scripts/kafka.sh: users admin, alice and bob), with the same skip and
// failure rules as Addr.
func SASLAddr(t testing.TB) string {
	t.Helper()
	Addr(t)
	addr := strings.TrimSpace(os.Getenv(envSASLBootstrap))
	if addr == "" {
		t.Fatalf("%s is not set: the broker runs without its SASL listener (%s)", envSASLBootstrap, startBrokerHint)
	}
	return addr
}

// NewSCRAMUser creates a SCRAM-SHA-512 user of its own for the test (named after prefix,
// with no grant: super users are only the script's admin) on the SASL listener, waits until
// it can authenticate, and returns its name and a client.properties for it.
func (s *Seed) NewSCRAMUser(prefix string) (user, props string) {
	s.t.Helper()
	user, password := Name(prefix), Name("secret")
	up := kadm.UpsertSCRAM{User: user, Mechanism: kadm.ScramSha512, Iterations: 8192, Password: password}
	res, err := s.Adm.AlterUserSCRAMs(Ctx(s.t, 15*time.Second), nil, []kadm.UpsertSCRAM{up})
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		s.t.Fatalf("create SCRAM user %s: %v", user, err)
	}
	s.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.Adm.AlterUserSCRAMs(ctx, []kadm.DeleteSCRAM{{User: user, Mechanism: kadm.ScramSha512}}, nil)
	})
	sasl := SASLAddr(s.t)
	WaitUntil(s.t, 15*time.Second, "SCRAM user "+user+" in force", func() (bool, string) {
		cl, err := kgo.NewClient(kgo.SeedBrokers(sasl), kgo.SASL(scram.Auth{User: user, Pass: password}.AsSha512Mechanism()))
		if err != nil {
			return false, err.Error()
		}
		defer cl.Close()
		err = cl.Ping(Ctx(s.t, 5*time.Second))
		return err == nil, fmt.Sprint(err)
	})
	return user, SASLProperties(s.t, user, password)
}

// SASLProperties writes a client.properties for user on the SASL listener (SCRAM-SHA-512)
// and returns its path.
func SASLProperties(t testing.TB, user, password string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), user+".properties")
	body := fmt.Sprintf("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=%q password=%q;\n", user, password)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Allow grants principal ("User:alice") the operations on the named topics and
// groups (literal names), and removes the grant when the test ends.
func (s *Seed) Allow(principal string, topics, groups []string, ops ...kadm.ACLOperation) {
	s.t.Helper()
	// Maybe*: an empty list matches nothing. With Topics() an empty list would match every
	// topic ACL of principal when the grant is listed and deleted, taking other tests' grants.
	s.grant(principal, kadm.NewACLs().MaybeTopics(topics...).MaybeGroups(groups...), ops)
}

// AllowCluster grants principal the operations on the cluster, and removes the grant when
// the test ends.
func (s *Seed) AllowCluster(principal string, ops ...kadm.ACLOperation) {
	s.t.Helper()
	s.grant(principal, kadm.NewACLs().Clusters(), ops)
}

// grant creates the ACLs of b (its resources) for principal and waits until they are in force.
func (s *Seed) grant(principal string, b *kadm.ACLBuilder, ops []kadm.ACLOperation) {
	s.t.Helper()
	b = b.Allow(principal).AllowHosts("*").Operations(ops...).ResourcePatternType(kadm.ACLPatternLiteral)
	res, err := s.Adm.CreateACLs(Ctx(s.t, 15*time.Second), b)
	if err == nil {
		for _, r := range res {
			if r.Err != nil {
				err = fmt.Errorf("%w: %s", r.Err, r.ErrMessage)
			}
		}
	}
	if err != nil {
		s.t.Fatalf("create ACLs for %s: %v", principal, err)
	}
	s.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.Adm.DeleteACLs(ctx, b)
	})
	// The broker applies new ACLs once its metadata catches up; DescribeAcls
	// answers from the same state the authorizer checks, so wait until it lists
	// them all.
	want := len(res)
	WaitUntil(s.t, 15*time.Second, "the ACLs for "+principal+" in force", func() (bool, string) {
		got, err := s.Adm.DescribeACLs(Ctx(s.t, 10*time.Second), b)
		if err != nil {
			return false, err.Error()
		}
		n := 0
		for _, r := range got {
			if r.Err == nil {
				n += len(r.Described)
			}
		}
		return n >= want, fmt.Sprintf("%d of %d listed", n, want)
	})
}
