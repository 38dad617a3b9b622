package realkafka

// The brokers CI runs (scripts/kafka.sh roles): main (Kafka 4.4.0, OFFSETTUI_IT_BOOTSTRAP),
// oldest (the oldest 4.x the project supports, 4.0.0, OFFSETTUI_IT_OLDEST_*), timers (4.4.0
// with short commit expiry, a fast log cleaner and tiered storage, OFFSETTUI_IT_TIMERS_*),
// commitlog (4.4.0 whose __consumer_offsets holds the commit log's figures' busy partition,
// OFFSETTUI_IT_COMMITLOG_*), and the version matrix: v28 (2.8.2 with ZooKeeper), v37 (3.7.2)
// and v39 (3.9.1), PLAINTEXT only (OFFSETTUI_IT_V28_* …).

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// Broker is one real broker of CI: where it listens and the jars of its version (Kafka's
// Java tools and clients, and test/kafka/Shapes.java compiled against them).
type Broker struct {
	Role     string // "main", "oldest", "timers", "commitlog", "v28", "v37" or "v39" (scripts/kafka.sh OFFSETTUI_KAFKA_ROLE)
	Version  string // Kafka version, e.g. "4.4.0"
	Addr     string // PLAINTEXT listener (principal ANONYMOUS, a super user)
	SASLAddr string // SASL_PLAINTEXT listener, ACLs enforced (users admin, alice, bob); "" on the matrix's brokers
	Lib      string // the version's jar dir
	Shapes   string // the compiled test/kafka/Shapes.java (a class dir)
}

// Name is "<role> (Kafka <version>)", for messages.
func (b Broker) Name() string { return fmt.Sprintf("%s (Kafka %s)", b.Role, b.Version) }

// roleEnv: the names scripts/kafka.sh env exports for each role.
var roleEnv = map[string]struct{ bootstrap, sasl, version, lib, shapes, start string }{
	"main": {envBootstrap, envSASLBootstrap, envKafkaVersion, envKafkaLib, "OFFSETTUI_IT_SHAPES",
		`scripts/kafka.sh start && eval "$(scripts/kafka.sh env)"`},
	"oldest": {"OFFSETTUI_IT_OLDEST_BOOTSTRAP", "OFFSETTUI_IT_OLDEST_SASL_BOOTSTRAP", "OFFSETTUI_IT_OLDEST_KAFKA_VERSION",
		"OFFSETTUI_IT_OLDEST_KAFKA_LIB", "OFFSETTUI_IT_OLDEST_SHAPES",
		`OFFSETTUI_KAFKA_ROLE=oldest scripts/kafka.sh start && eval "$(OFFSETTUI_KAFKA_ROLE=oldest scripts/kafka.sh env)"`},
	"timers": {"OFFSETTUI_IT_TIMERS_BOOTSTRAP", "OFFSETTUI_IT_TIMERS_SASL_BOOTSTRAP", "OFFSETTUI_IT_TIMERS_KAFKA_VERSION",
		"OFFSETTUI_IT_TIMERS_KAFKA_LIB", "OFFSETTUI_IT_TIMERS_SHAPES",
		`OFFSETTUI_KAFKA_ROLE=timers scripts/kafka.sh start && eval "$(OFFSETTUI_KAFKA_ROLE=timers scripts/kafka.sh env)"`},
	"commitlog": {"OFFSETTUI_IT_COMMITLOG_BOOTSTRAP", "OFFSETTUI_IT_COMMITLOG_SASL_BOOTSTRAP", "OFFSETTUI_IT_COMMITLOG_KAFKA_VERSION",
		"OFFSETTUI_IT_COMMITLOG_KAFKA_LIB", "OFFSETTUI_IT_COMMITLOG_SHAPES",
		`OFFSETTUI_KAFKA_ROLE=commitlog scripts/kafka.sh start && eval "$(OFFSETTUI_KAFKA_ROLE=commitlog scripts/kafka.sh env)"`},
	"v28": matrixEnv("v28"),
	"v37": matrixEnv("v37"),
	"v39": matrixEnv("v39"),
}

// matrixEnv: the names a matrix role's env exports (no SASL listener).
func matrixEnv(role string) struct{ bootstrap, sasl, version, lib, shapes, start string } {
	p := "OFFSETTUI_IT_" + strings.ToUpper(role) + "_"
	return struct{ bootstrap, sasl, version, lib, shapes, start string }{p + "BOOTSTRAP", "", p + "KAFKA_VERSION", p + "KAFKA_LIB", p + "SHAPES",
		fmt.Sprintf(`OFFSETTUI_KAFKA_ROLE=%[1]s scripts/kafka.sh start && eval "$(OFFSETTUI_KAFKA_ROLE=%[1]s scripts/kafka.sh env)"`, role)}
}

var (
	probesMu sync.Mutex
	probes   = map[string]*probeResult{}
)

type probeResult struct {
	once sync.Once
	err  error
}

// probeAddr probes each address once per test binary.
func probeAddr(addr string) error {
	probesMu.Lock()
	p, ok := probes[addr]
	if !ok {
		p = &probeResult{}
		probes[addr] = p
	}
	probesMu.Unlock()
	p.once.Do(func() { p.err = probe(addr) })
	return p.err
}

// roleBroker finds the broker of a role. Without its address the test is skipped, or fails
// under OFFSETTUI_REQUIRE_KAFKA=1 (CI starts all three); a named broker that does not answer,
// or that lacks one of the other values, fails the test.
func roleBroker(t testing.TB, role string) Broker {
	t.Helper()
	InBrokerTier(t)
	e := roleEnv[role]
	addr := strings.TrimSpace(os.Getenv(e.bootstrap))
	if addr == "" {
		if os.Getenv(envRequire) == "1" {
			t.Fatalf("%s=1 but %s is not set: the %s broker's tests cannot run (%s)", envRequire, e.bootstrap, role, e.start)
		}
		t.Skipf("%s is not set: the %s broker's test skipped (%s)", e.bootstrap, role, e.start)
	}
	if err := probeAddr(addr); err != nil {
		t.Fatalf("the %s broker %s=%s does not answer: %v (%s)", role, e.bootstrap, addr, err, e.start)
	}
	b := Broker{Role: role, Addr: addr}
	for _, v := range []struct {
		name string
		dst  *string
	}{{e.sasl, &b.SASLAddr}, {e.version, &b.Version}, {e.lib, &b.Lib}, {e.shapes, &b.Shapes}} {
		if v.name == "" {
			continue // a value this role does not have
		}
		*v.dst = strings.TrimSpace(os.Getenv(v.name))
		if *v.dst == "" {
			t.Fatalf("%s is not set beside %s: restart the %s broker with this checkout's scripts/kafka.sh (%s)", v.name, e.bootstrap, role, e.start)
		}
	}
	return b
}

// Main is CI's main broker (Kafka 4.4.0), the one Addr returns.
func Main(t testing.TB) Broker {
	t.Helper()
	return roleBroker(t, "main")
}

// Oldest is the broker of the oldest Kafka 4.x the project supports (4.0.0).
func Oldest(t testing.TB) Broker {
	t.Helper()
	return roleBroker(t, "oldest")
}

// Timers is the 4.4.0 broker with short timers: offsets.retention.minutes=1 checked every
// 2 s, log.cleaner.backoff.ms=500 and tiered storage on LocalTieredStorage (a topic opts in
// with remote.storage.enable=true). Commits of an Empty group on it vanish after a minute.
func Timers(t testing.TB) Broker {
	t.Helper()
	return roleBroker(t, "timers")
}

// EachVersion runs f as a parallel-safe subtest on every CI broker of a different Kafka
// version that is running (main, then oldest), named "kafka-<version>". Without the oldest
// broker its subtest is skipped (or fails under OFFSETTUI_REQUIRE_KAFKA=1), as in Oldest.
func EachVersion(t *testing.T, f func(t *testing.T, b Broker)) {
	t.Helper()
	for _, role := range []string{"main", "oldest"} {
		name := role
		if v := strings.TrimSpace(os.Getenv(roleEnv[role].version)); v != "" {
			name = "kafka-" + v
		}
		t.Run(name, func(t *testing.T) {
			f(t, roleBroker(t, role))
		})
	}
}

// MatrixRoles are the brokers of the version matrix, newest first: the Kafka lines before 4.0
// that CI runs (3.9.1, 3.7.2, 2.8.2 with ZooKeeper). 4.4.0 and 4.0.0 (main, oldest) are the
// whole suite's, whose parity tests ask Kafka's own tools the same questions.
var MatrixRoles = []string{"v39", "v37", "v28"}

// EachMatrixVersion runs f as a parallel subtest on every broker of the version matrix,
// named "kafka-<version>". A broker that is not running is skipped, naming its role and how
// to start it (or fails under OFFSETTUI_REQUIRE_KAFKA=1), as in Main.
func EachMatrixVersion(t *testing.T, f func(t *testing.T, b Broker)) {
	t.Helper()
	for _, role := range MatrixRoles {
		name := role
		if v := strings.TrimSpace(os.Getenv(roleEnv[role].version)); v != "" {
			name = "kafka-" + v
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, roleBroker(t, role))
		})
	}
}

// Seed is a Seed connected to this broker.
func (b Broker) Seed(t testing.TB) *Seed {
	t.Helper()
	return NewSeed(t, b.Addr)
}
