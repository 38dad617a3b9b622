package realkafka

// Running Kafka's own CLI tools (their main classes, on the broker's jars) as oracles and
// as live group members.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ConsumerGroupCommand is the main class of kafka-consumer-groups.
const ConsumerGroupCommand = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"

// javaCmd builds the command line of a Kafka CLI main class from the broker's jars,
// with the tools' log4j config (logs at WARN on stderr, stdout left to the tool).
func javaCmd(t testing.TB, ctx context.Context, main string, args ...string) *exec.Cmd {
	t.Helper()
	lib := os.Getenv(envKafkaLib)
	if lib == "" {
		t.Fatalf("%s must be set to run Kafka's CLI as the oracle (%s)", envKafkaLib, startBrokerHint)
	}
	return javaCmdOn(t, ctx, filepath.Join(lib, "*"), main, args...)
}

// javaCmdOn is javaCmd on a given class path (a version's jars, maybe more).
func javaCmdOn(t testing.TB, ctx context.Context, classpath, main string, args ...string) *exec.Cmd {
	t.Helper()
	log4j := os.Getenv(envToolsLog4j)
	if log4j == "" {
		t.Fatalf("%s must be set to run Kafka's Java tools and clients (%s)", envToolsLog4j, startBrokerHint)
	}
	java := "java"
	if h := os.Getenv("JAVA_HOME"); h != "" {
		if p := filepath.Join(h, "bin", "java"); fileExists(p) {
			java = p
		}
	}
	full := []string{"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-Dlog4j2.configurationFile=" + log4j, "-cp", classpath, main}
	return exec.CommandContext(ctx, java, append(full, args...)...)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// RunTool runs a Kafka CLI main class to completion (bounded) and returns its
// stdout, stderr and exit code; it fails the test only if the tool cannot run.
func RunTool(t testing.TB, main string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return RunToolEnv(t, nil, main, args...)
}

// RunToolEnv is RunTool with extra environment variables (NAME=value) for the tool.
func RunToolEnv(t testing.TB, env []string, main string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runJava(t, "", env, main, args...)
}

// runJava runs a Java main class to completion (bounded) on classpath ("": the main
// broker's jars) and returns its stdout, stderr and exit code.
func runJava(t testing.TB, classpath string, env []string, main string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	// A JVM start alone took 46 s on the 2-core machine at a load of 40 (the version matrix's
	// tools, beside other work): 90 s killed tools that were answering.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var cmd *exec.Cmd
	if classpath == "" {
		cmd = javaCmd(t, ctx, main, args...)
	} else {
		cmd = javaCmdOn(t, ctx, classpath, main, args...)
	}
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ctx.Err() == nil:
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", main, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), errb.String(), code
}

// Tool runs a Kafka CLI main class that must exit 0 and returns its stdout. Kafka's
// tools exit 0 on many errors: callers check the rows they expect.
func Tool(t testing.TB, main string, args ...string) string {
	t.Helper()
	return mustTool(t, "", main, args...)
}

// Tool runs a Kafka CLI main class of this broker's version that must exit 0 and returns
// its stdout, as the package's Tool does for the main broker.
func (b Broker) Tool(t testing.TB, main string, args ...string) string {
	t.Helper()
	return mustTool(t, filepath.Join(b.Lib, "*"), main, args...)
}

// RunTool runs a Kafka CLI main class of this broker's version to completion and returns
// its stdout, stderr and exit code, as the package's RunTool does for the main broker.
func (b Broker) RunTool(t testing.TB, main string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runJava(t, filepath.Join(b.Lib, "*"), nil, main, args...)
}

func mustTool(t testing.TB, classpath, main string, args ...string) string {
	t.Helper()
	out, errOut, code := runJava(t, classpath, nil, main, args...)
	if code != 0 {
		t.Fatalf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", main, strings.Join(args, " "), code, out, errOut)
	}
	if s := strings.TrimSpace(errOut); s != "" {
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s %s stderr:\n%s", main, strings.Join(args, " "), s)
			}
		})
	}
	return out
}

// ToolMains are the main classes of Kafka's group tools, by the name of the script that runs
// each (bin/kafka-consumer-groups.sh …).
var ToolMains = map[string]string{
	"kafka-consumer-groups.sh": ConsumerGroupCommand,
	"kafka-share-groups.sh":    ShareGroupCommand,
	"kafka-streams-groups.sh":  StreamsGroupCommand,
}

// ToolRun is one run of a Kafka CLI main class with its arguments.
type ToolRun struct {
	Main string
	Args []string
}

// ToolResult is what a tool run wrote and the code it exited with. Kafka's tools exit 0 on
// many errors: read what they printed.
type ToolResult struct {
	Stdout, Stderr string
	Exit           int
}

// RunTools runs Kafka CLI main classes of this broker's version one after another in one JVM
// (test/kafka/Shapes.java's tools), so a test pays one JVM start (seconds on a loaded
// machine) for all of them, and returns what each wrote, in order. An argument may not hold
// a newline nor be empty (the file that passes them is one argument a line).
func (b Broker) RunTools(t testing.TB, runs []ToolRun) []ToolResult {
	t.Helper()
	var file strings.Builder
	for _, r := range runs {
		for _, a := range append([]string{r.Main}, r.Args...) {
			if a == "" || strings.ContainsAny(a, "\r\n") {
				t.Fatalf("RunTools: argument %q of %s cannot be passed (empty, or a line break)", a, r.Main)
			}
			file.WriteString(a + "\n")
		}
		file.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "tools.txt")
	if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var out []ToolResult
	for _, e := range b.RunShape(t, "tools", "--file", path) {
		if e.Event == "tool" {
			out = append(out, ToolResult{Stdout: e.Stdout, Stderr: e.Stderr, Exit: e.Exit})
		}
	}
	if len(out) != len(runs) {
		t.Fatalf("RunTools: %d results for %d runs", len(out), len(runs))
	}
	return out
}

// ConsoleConsumer starts Kafka's ConsoleConsumer as a consumer-protocol (KIP-848)
// member with auto commit off. stop (also run when the test ends) sends SIGTERM, on
// which it leaves the group, and waits for it to exit.
func ConsoleConsumer(t testing.TB, addr, group, clientID, topic string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := javaCmd(t, ctx, "org.apache.kafka.tools.consumer.ConsoleConsumer",
		"--bootstrap-server", addr, "--topic", topic, "--group", group,
		"--consumer-property", "group.protocol=consumer",
		"--consumer-property", "client.id="+clientID,
		"--consumer-property", "enable.auto.commit=false")
	var stderr syncBuffer
	cmd.Stderr = &stderr
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
