package main

import (
	"bytes"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

// complete asks for the completions of args as the shell scripts do (`offsettui
// __complete ARGS…`, the word being completed last) and returns the candidates without
// their descriptions, the directive, and what went to stderr.
func complete(t *testing.T, args ...string) (names []string, directive string, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"__complete"}, args...), &out, &errb); code != exitOK {
		t.Fatalf("__complete %q: exit %d: %s", args, code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	directive = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		name, _, _ := strings.Cut(l, "\t")
		names = append(names, name)
	}
	return names, directive, errb.String()
}

// The values a flag takes complete as typed, on every command that has the flag;
// --output offers markdown on describe only.
func TestCompletionStaticValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"describe", "-o", ""}, []string{"table", "json", "markdown"}},
		{[]string{"check", "--output", ""}, []string{"table", "json"}},
		{[]string{"contexts", "-o", ""}, []string{"table", "json"}},
		{[]string{"reset", "--assume-reset", ""}, []string{model.ResetEarliest, model.ResetLatest, model.ResetNone}},
		{[]string{"check", "--assume-reset", "e"}, []string{model.ResetEarliest, model.ResetLatest, model.ResetNone}}, // the shell filters
		{[]string{"--assume-reset", ""}, []string{model.ResetEarliest, model.ResetLatest, model.ResetNone}},
		{[]string{"serve", "--commit-log", ""}, []string{"auto", "on", "off"}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish", "powershell"}},
		{[]string{"reset", "--to-"}, []string{"--to-earliest", "--to-latest", "--to-current", "--to-offset", "--to-datetime"}},
		{[]string{"desc"}, []string{"describe"}},
		{[]string{"help", "del"}, []string{"delete-offsets", "delete-group"}},
	} {
		got, directive, _ := complete(t, tc.args...)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) || directive != ":4" {
			t.Errorf("%q: %q %s, want %q :4 (no files)", tc.args, got, directive, want)
		}
	}
	// A directory flag completes directories (16), a file flag files (0), a duration nothing.
	for args, want := range map[string]string{"backup --dir ": ":16", "reset --from-file ": ":0", "describe --timeout ": ":4"} {
		if _, directive, _ := complete(t, strings.Split(args, " ")...); directive != want {
			t.Errorf("%q: directive %s, want %s", args, directive, want)
		}
	}
}

// --group and --topic with --demo offer the demo's groups and topics without starting it;
// --context offers the contexts of the config file the line names.
func TestCompletionNames(t *testing.T) {
	dir := hermetic(t)
	if got, _, _ := complete(t, "reset", "--demo", "--group", ""); !slices.Equal(got, demo.GroupNames()) || !slices.Contains(got, demo.GroupFanout) {
		t.Errorf("--demo --group: %q, want %q", got, demo.GroupNames())
	}
	if got, _, _ := complete(t, "describe", "--demo", "--topic", "o"); !slices.Equal(got, []string{demo.TopicOrders, demo.TopicOutbox}) {
		t.Errorf("--demo --topic o: %q", got)
	}
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n  - name: prod-eu\n    bootstrap-servers: k:9092\n"+
		"  - name: prod-us\n    bootstrap-servers: k:9092\n  - name: dev\n    bootstrap-servers: k:9092\n", 0o600)
	for _, args := range [][]string{{"describe", "--config", cfg, "--context", "prod"}, {"serve", "--config", cfg, "--context", "prod"}} {
		if got, _, _ := complete(t, args...); !slices.Equal(got, []string{"prod-eu", "prod-us"}) {
			t.Errorf("%q: %q", args, got)
		}
	}
	if got, directive, _ := complete(t, "describe", "--config", filepath.Join(dir, "none.yaml"), "--context", ""); len(got) != 0 || directive != ":4" {
		t.Errorf("a missing config file: %q %s, want nothing", got, directive)
	}
}

// --group and --topic ask the cluster the line names for its groups and topics.
func TestCompletionAsksTheCluster(t *testing.T) {
	hermetic(t)
	k := kafkatest.Cluster(t, kfake.SeedTopics(2, "orders", "outbox"))
	seed := kafkatest.NewSeed(t, k.ListenAddrs())
	seed.Commit("billing", map[model.TP]int64{{Topic: "orders", Partition: 0}: 0})
	seed.Commit("audit", map[model.TP]int64{{Topic: "outbox", Partition: 0}: 0})
	boot := strings.Join(k.ListenAddrs(), ",")
	if got, _, _ := complete(t, "reset", "--bootstrap-server", boot, "--group", ""); !slices.Equal(got, []string{"audit", "billing"}) {
		t.Errorf("--group: %q", got)
	}
	if got, _, _ := complete(t, "describe", "--bootstrap-server", boot, "--topic", "or"); !slices.Equal(got, []string{"orders"}) {
		t.Errorf("--topic or: %q", got)
	}
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", boot) // as for every command, the environment names the cluster too
	if got, _, _ := complete(t, "check", "--group", "b"); !slices.Equal(got, []string{"billing"}) {
		t.Errorf("KAFKA_BOOTSTRAP_SERVERS, --group b: %q", got)
	}
}

// A cluster that cannot be read offers nothing and says nothing, within the deadline:
// one that refuses connections, and one that takes them and never answers.
func TestCompletionFailsQuietlyWithinADeadline(t *testing.T) {
	hermetic(t)
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := refused.Addr().String()
	refused.Close()
	for _, addr := range []string{silent.Addr().String(), closed} {
		start := time.Now()
		got, directive, stderr := complete(t, "describe", "--bootstrap-server", addr, "--group", "")
		took := time.Since(start)
		// cobra's own line on stderr, which the scripts discard, is the only output
		if len(got) != 0 || directive != ":4" || strings.TrimSpace(stderr) != "Completion ended with directive: ShellCompDirectiveNoFileComp" {
			t.Errorf("%s: %q %s, stderr %q; want nothing", addr, got, directive, stderr)
		}
		if took > 2*time.Second {
			t.Errorf("%s: took %v, want at most 2s (a deadline of %v)", addr, took, completionDeadline)
		}
	}
}
