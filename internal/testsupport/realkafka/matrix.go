package realkafka

// Kafka's own kafka-consumer-groups of each broker's version, as the oracle of the version
// matrix: the tool's main class moved from kafka.admin (Scala) to org.apache.kafka.tools in 3.9.

import (
	"archive/zip"
	"path/filepath"
	"sync"
	"testing"
)

// ToolTimeout is kafka-consumer-groups' --timeout (ms) in the matrix: its default, 5 s, runs
// out on a loaded machine, and the tool then prints an error and no rows, exiting 0.
const ToolTimeout = "60000"

// LegacyConsumerGroupCommand is kafka-consumer-groups' main class before Kafka 3.9.
const LegacyConsumerGroupCommand = "kafka.admin.ConsumerGroupCommand"

var (
	cgcMu    sync.Mutex
	cgcByLib = map[string]string{}
)

// GroupCommand is the main class of this broker's version's kafka-consumer-groups: the one
// its jars hold.
func (b Broker) GroupCommand(t testing.TB) string {
	t.Helper()
	cgcMu.Lock()
	defer cgcMu.Unlock()
	if c, ok := cgcByLib[b.Lib]; ok {
		return c
	}
	jars, _ := filepath.Glob(filepath.Join(b.Lib, "kafka-tools-*.jar"))
	main := LegacyConsumerGroupCommand
	for _, j := range jars {
		if jarHolds(j, "org/apache/kafka/tools/consumer/group/ConsumerGroupCommand.class") {
			main = ConsumerGroupCommand
		}
	}
	cgcByLib[b.Lib] = main
	return main
}

func jarHolds(jar, name string) bool {
	r, err := zip.OpenReader(jar)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, f := range r.File {
		if f.Name == name {
			return true
		}
	}
	return false
}

// DescribeOutput runs this version's kafka-consumer-groups --describe for the groups and
// returns its stdout.
func (b Broker) DescribeOutput(t testing.TB, groups ...string) string {
	t.Helper()
	args := []string{"--bootstrap-server", b.Addr, "--describe", "--timeout", ToolTimeout}
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	return b.Tool(t, b.GroupCommand(t), args...)
}

// Describe is each group's CURRENT-OFFSET per partition by this version's tool, as the
// package's Describe reads the main broker's.
func (b Broker) Describe(t testing.TB, groups ...string) Offsets {
	t.Helper()
	return offsetRows(t, b.DescribeOutput(t, groups...), "CURRENT-OFFSET", groups)
}

// ResetDryRun is this version's kafka-consumer-groups --reset-offsets --dry-run NEW-OFFSET
// rows for the groups with the scope and strategy flags.
func (b Broker) ResetDryRun(t testing.TB, flags []string, groups ...string) Offsets {
	t.Helper()
	args := []string{"--bootstrap-server", b.Addr, "--reset-offsets", "--dry-run", "--timeout", ToolTimeout}
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	return offsetRows(t, b.Tool(t, b.GroupCommand(t), append(args, flags...)...), "NEW-OFFSET", groups)
}
