package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

// `serve --demo` serves the demo's scenario (docs/demo.md): the expired
// commit with its lost records, a time to loss for event-sink from the second
// snapshot on; and SIGTERM ends it with exit 0.
func TestServeDemo(t *testing.T) {
	hermetic(t)
	s := &served{addr: freeAddr(t), stderr: &syncBuffer{}, code: make(chan int, 1)}
	go func() {
		s.code <- serveMain([]string{"--demo", "--interval", "1s", "--listen", s.addr}, os.Stdout, s.stderr)
	}()
	s.waitFor(t, 90*time.Second, "/readyz 200", func() bool { code, _ := s.get("/readyz"); return code == http.StatusOK })
	// The first snapshot has no loss series: the log says when they can appear.
	if log := s.stderr.String(); !strings.Contains(log, "rates, ETA and time to loss (offsettui_group_loss_seconds) need two snapshots "+
		"of a group: they appear from the second, in about 1s (--interval)") {
		t.Errorf("the start-up log does not say when the loss series appear:\n%s", log)
	}
	s.waitFor(t, 30*time.Second, "event-sink's time to loss", func() bool {
		return len(withPrefix(s.metrics(t), `offsettui_group_loss_seconds{cluster="demo",group="event-sink"`)) == 1
	})
	m := s.metrics(t)
	for _, want := range []string{
		`offsettui_up{cluster="demo"} 1`,
		`offsettui_group_partitions{cluster="demo",group="fanout",status="expired",type="classic"} 1`,
		`offsettui_group_lost_records{cluster="demo",group="fanout",type="classic"} 18`,
		`offsettui_group_partitions{cluster="demo",group="mail-queue",status="expired",type="share"} 1`,
		`offsettui_group_partitions{cluster="demo",group="new-svc",status="missing",type="classic"} 1`,
		`offsettui_group_members{cluster="demo",group="new-svc",type="classic"} 1`,
		`offsettui_partition_status{cluster="demo",group="replay",partition="2",status="ahead",topic="orders",type="classic"} 1`,
	} {
		if !slices.Contains(m, want) {
			t.Errorf("missing %s", want)
		}
	}
	if got := withPrefix(m, `offsettui_partition_`); len(withPrefix(got, `offsettui_partition_status{cluster="demo",group="ledger"`)) > 0 {
		t.Errorf("ledger's partitions are ok: no series of their own, got %v", got)
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case code := <-s.code:
		if code != exitOK {
			t.Errorf("SIGTERM: exit %d, want 0; log:\n%s", code, s.stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("SIGTERM: still running after 15s; log:\n%s", s.stderr.String())
	}
	if code, _ := s.get("/healthz"); code != 0 {
		t.Errorf("after SIGTERM the listener still answers (%d)", code)
	}
}

// `serve --demo --include-group event-sink --include-group 'fan.*' --granularity topic`:
// only those two groups have series, each one lag series per topic (and no lag series with
// a partition label), the expired partition of fanout keeps its status; the demo's other
// groups, read by the same snapshots, have none.
func TestServeDemoChosenSeries(t *testing.T) {
	hermetic(t)
	s := startServe(t, "--demo", "--interval", "1s", "--include-group", "event-sink", "--include-group", "fan.*", "--granularity", "topic")
	var m []string
	s.waitFor(t, 90*time.Second, "event-sink's and fanout's topic lag", func() bool {
		code, _ := s.get("/readyz")
		m = nil
		if code == http.StatusOK {
			m = s.metrics(t)
		}
		return len(withPrefix(m, `offsettui_group_topic_lag{cluster="demo",group="event-sink"`)) > 0 &&
			len(withPrefix(m, `offsettui_group_topic_lag{cluster="demo",group="fanout"`)) > 0
	})
	perTopic := map[string]int{}
	for _, l := range m {
		if i := strings.Index(l, `group="`); i >= 0 {
			if g := strings.SplitN(l[i+7:], `"`, 2)[0]; g != "event-sink" && g != "fanout" {
				t.Errorf("a series of a group not chosen: %s", l)
			}
		}
		name := l[:strings.IndexAny(l, "{ ")]
		if strings.Contains(name, "lag") && strings.Contains(l, "partition=") {
			t.Errorf("a lag series with a partition label: %s", l)
		}
		if name == "offsettui_group_topic_lag" {
			perTopic[l[:strings.LastIndex(l, "}")]]++
		}
	}
	for k, n := range perTopic {
		if n != 1 {
			t.Errorf("%d lag series of %s, want one", n, k)
		}
	}
	if want := `offsettui_partition_status{cluster="demo",group="fanout",partition="0",status="expired",topic="outbox",type="classic"} 1`; !slices.Contains(m, want) {
		t.Errorf("missing %s", want)
	}
}

// Killing the cluster under a running serve: offsettui_up goes to 0 within
// one interval and every group series goes (stale in Prometheus); restoring
// the cluster brings them back without a restart. The kill is the fault proxy
// closing every connection the moment a request arrives, as a dead broker.
func TestServeClusterKilledAndRestored(t *testing.T) {
	hermetic(t)
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("orders", 2, nil); err != nil {
		t.Fatal(err)
	}
	seed := kafkatest.NewSeed(t, k.ListenAddrs())
	now := time.Now()
	seed.ProduceN("orders", 0, 10, func(int) time.Time { return now })
	seed.Commit("billing", map[model.TP]int64{{Topic: "orders", Partition: 0}: 4})
	p := faultproxy.New(t, k.ListenAddrs())
	const interval = time.Second
	s := startServe(t, "--bootstrap-server", strings.Join(p.Addrs(), ","), "--interval", interval.String(), "--timeout", "2s")
	cluster := strings.Join(p.Addrs(), ",")
	up := func(v string) func() bool {
		return func() bool { return slices.Contains(s.metrics(t), `offsettui_up{cluster="`+cluster+`"} `+v) }
	}
	lag := `offsettui_group_lag{cluster="` + cluster + `",group="billing",type="classic"} 6`
	s.waitFor(t, 30*time.Second, "the group's lag", func() bool { return slices.Contains(s.metrics(t), lag) })

	kill := p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: faultproxy.AnyKey, Action: faultproxy.CutBefore})
	took := s.waitFor(t, 10*time.Second, "up 0", up("0"))
	// One interval until the next snapshot, plus the failing snapshot itself
	// (connections refused at once) and the poll.
	if took > interval+500*time.Millisecond {
		t.Errorf("up went to 0 %s after the kill; want within one interval (%s)", took, interval)
	}
	if g := withPrefix(s.metrics(t), "offsettui_group_"); len(g) > 0 {
		t.Errorf("the dead cluster's group series are still served: %v", g)
	}
	if got := withPrefix(s.metrics(t), `offsettui_snapshot_failures_total{cluster="`+cluster+`",reason="read"}`); len(got) != 1 || strings.HasSuffix(got[0], " 0") {
		t.Errorf("the failure is counted by reason: %v", got)
	}

	down := snapshotsOf(t, s, cluster)
	s.waitFor(t, 10*time.Second, "three more snapshots", func() bool { return snapshotsOf(t, s, cluster) >= down+3 })
	kill.Remove()
	s.waitFor(t, 10*time.Second, "up 1 again", up("1"))
	if !slices.Contains(s.metrics(t), lag) {
		t.Errorf("the group's lag is not back: %v", withPrefix(s.metrics(t), "offsettui_group_"))
	}
	log := s.stderr.String()
	if !strings.Contains(log, "snapshot failed (read)") || strings.Count(log, "snapshot failed") != 1 {
		t.Errorf("the outage is logged once, with its reason, not once per snapshot:\n%s", log)
	}
}

// snapshotsOf is offsettui_snapshots_total of cluster.
func snapshotsOf(t *testing.T, s *served, cluster string) int {
	t.Helper()
	prefix := `offsettui_snapshots_total{cluster="` + cluster + `"} `
	got := withPrefix(s.metrics(t), prefix)
	if len(got) != 1 {
		t.Fatalf("%s: %v", prefix, got)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(got[0], prefix))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A cluster that does not answer at all (connections open and silent) fails
// its snapshot within the snapshot's deadline, reason timeout.
func TestServeClusterSilent(t *testing.T) {
	hermetic(t)
	k := kafkatest.Cluster(t)
	p := faultproxy.New(t, k.ListenAddrs())
	s := startServe(t, "--bootstrap-server", strings.Join(p.Addrs(), ","), "--interval", "1s", "--timeout", "500ms")
	cluster := strings.Join(p.Addrs(), ",")
	s.waitFor(t, 30*time.Second, "up 1", func() bool { return slices.Contains(s.metrics(t), `offsettui_up{cluster="`+cluster+`"} 1`) })
	p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: faultproxy.AnyKey, Action: faultproxy.StallBefore})
	s.waitFor(t, 10*time.Second, "a timeout", func() bool {
		m := s.metrics(t)
		return slices.Contains(m, `offsettui_up{cluster="`+cluster+`"} 0`) &&
			len(withPrefix(m, `offsettui_snapshot_failures_total{cluster="`+cluster+`",reason="timeout"} 0`)) == 0
	})
	d := withPrefix(s.metrics(t), `offsettui_snapshot_duration_seconds{cluster="`+cluster+`"}`)
	if len(d) != 1 {
		t.Fatalf("duration: %v", d)
	}
	if secs, err := strconv.ParseFloat(strings.Fields(d[0])[1], 64); err != nil || secs > 1.5 {
		t.Errorf("the failed snapshot took %v s; want it bounded by its deadline (2 × 500ms)", secs)
	}
}

// Several contexts in one process, each its own cluster label; a context's
// SASL password appears in no series, label, page or log line, whether its
// connection works or is refused.
func TestServeContextsKeepSecrets(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", cmdSecret))
	jaas := func(pw string) string {
		return `      sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="` + pw + `";` + "\n"
	}
	cfg := writeTestFile(t, filepath.Join(dir, "offsettui", "config.yaml"), "contexts:\n"+
		"  - name: good\n    bootstrap-servers: "+strings.Join(k.ListenAddrs(), ",")+"\n    properties:\n"+
		"      security.protocol: SASL_PLAINTEXT\n      sasl.mechanism: SCRAM-SHA-512\n"+jaas(cmdSecret)+
		"  - name: typo\n    bootstrap-servers: "+strings.Join(k.ListenAddrs(), ",")+"\n    properties:\n"+
		"      security.protocol: SASL_PLAINTEXT\n      sasl.mechanism: SCRAM-SHA-512\n"+jaas(cmdSecret+"x"), 0o600)
	debug := filepath.Join(dir, "debug.log")
	s := startServe(t, "--all-contexts", "--config", cfg, "--interval", "1s", "--timeout", "2s", "--debug", debug)
	s.waitFor(t, 30*time.Second, "both clusters' state", func() bool {
		m := s.metrics(t)
		return slices.Contains(m, `offsettui_up{cluster="good"} 1`) && slices.Contains(m, `offsettui_up{cluster="typo"} 0`)
	})
	_, page := s.get("/")
	_, metrics := s.get("/metrics")
	logged, _ := os.ReadFile(debug)
	for what, text := range map[string]string{"/metrics": metrics, "/": page, "stderr": s.stderr.String(), "--debug": string(logged)} {
		if strings.Contains(text, cmdSecret) {
			t.Errorf("%s holds the secret:\n%s", what, text)
		}
	}
	if !strings.Contains(page, "cluster typo: cannot be read") {
		t.Errorf("the index page says which cluster cannot be read:\n%s", page)
	}
}

// Bad input is named on stderr, exit 2, before anything is served.
func TestServeBadInput(t *testing.T) {
	dir := hermetic(t)
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n  - name: a\n    bootstrap-servers: a:9092\n  - name: b\n    bootstrap-servers: b:9092\n", 0o600)
	gssapi := writeTestFile(t, filepath.Join(dir, "gss.properties"), "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\n", 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "--interval", "0s"}, "--interval: must be positive"},
		{[]string{"--demo", "--listen", "9308"}, "--listen: want host:port"},
		{[]string{"--demo", "--context", "a"}, "--demo uses no context"},
		{[]string{"--config", cfg, "--all-contexts", "--context", "a"}, "exclude each other"},
		{[]string{"--config", cfg, "--context", "a", "--context", "b", "--bootstrap-server", "k:9092"}, "apply to one cluster"},
		{[]string{"--config", cfg, "--context", "a", "--context", "a"}, "named twice"},
		{[]string{"--config", cfg, "--context", "nosuch"}, "nosuch"},
		{[]string{"--demo", "--max-partition-series", "0"}, "--max-partition-series: must be positive"},
		{[]string{"--demo", "--include-group", "pay-(.*"}, `--include-group "pay-(.*": not a regular expression`},
		{[]string{"--demo", "--exclude-topic", ""}, "--exclude-topic: empty value"},
		{[]string{"--demo", "--granularity", "broker"}, `--granularity: want partition, topic or group, got "broker"`},
		{[]string{"--demo", "--output", "json"}, "unknown flag"},
		{[]string{}, "no bootstrap server"},
		{[]string{"--bootstrap-server", "127.0.0.1:1", "--command-config", gssapi, "--listen", "127.0.0.1:0"}, "GSSAPI (Kerberos"},
	} {
		var out, errb bytes.Buffer
		if code := serveMain(c.args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %q", c.args, code, errb.String(), c.want)
		}
	}
}

// A port already taken is a failure to serve (exit 1), said on stderr.
func TestServeListenTaken(t *testing.T) {
	hermetic(t)
	k := kafkatest.Cluster(t)
	s := startServe(t, "--bootstrap-server", strings.Join(k.ListenAddrs(), ","))
	var errb bytes.Buffer
	if code := serveMain([]string{"--bootstrap-server", strings.Join(k.ListenAddrs(), ","), "--listen", s.addr}, &bytes.Buffer{}, &errb); code != exitFailure ||
		!strings.Contains(errb.String(), "--listen "+s.addr) {
		t.Errorf("exit %d, stderr %q; want 1 naming --listen", code, errb.String())
	}
}

// serve is in the usage, and its help lists its flags and examples, not the
// ones that do not apply.
func TestServeHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "serve"}, &out, &errb); code != exitOK || errb.Len() > 0 {
		t.Fatalf("help serve: exit %d: %s", code, errb.String())
	}
	for _, w := range []string{"Usage: offsettui serve", "--listen ADDR", "(default 127.0.0.1:9308)", "--interval DURATION", "(default 30s)",
		"--context NAME", "--all-contexts", "--max-partition-series N", "--stall-after", "--include-group REGEX", "--exclude-topic REGEX",
		"--granularity LEVEL", "Examples:", "serve --demo"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("help serve lacks %q:\n%s", w, out.String())
		}
	}
	for _, w := range []string{"--read-only", "--output"} {
		if strings.Contains(out.String(), w) {
			t.Errorf("help serve lists %s, which does not apply", w)
		}
	}
	out.Reset()
	if run([]string{"--help"}, &out, &errb); !strings.Contains(out.String(), "offsettui serve [flags]") {
		t.Errorf("the usage does not list serve:\n%s", out.String())
	}
}

// --context a --context b: one process, each cluster its own label and its
// own groups.
func TestServeTwoContexts(t *testing.T) {
	dir := hermetic(t)
	var ctxs strings.Builder
	for _, name := range []string{"east", "west"} {
		k := kafkatest.Cluster(t)
		if err := k.CreateTopic("orders", 1, nil); err != nil {
			t.Fatal(err)
		}
		seed := kafkatest.NewSeed(t, k.ListenAddrs())
		seed.ProduceN("orders", 0, 5, func(int) time.Time { return time.Now() })
		seed.Commit(name+"-svc", map[model.TP]int64{{Topic: "orders", Partition: 0}: 2})
		ctxs.WriteString("  - name: " + name + "\n    bootstrap-servers: " + strings.Join(k.ListenAddrs(), ",") + "\n")
	}
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n"+ctxs.String(), 0o600)
	s := startServe(t, "--config", cfg, "--context", "east", "--context", "west", "--interval", "1s")
	want := []string{
		`offsettui_group_lag{cluster="east",group="east-svc",type="classic"} 3`,
		`offsettui_group_lag{cluster="west",group="west-svc",type="classic"} 3`,
	}
	s.waitFor(t, 30*time.Second, "both clusters' groups", func() bool {
		m := withPrefix(s.metrics(t), "offsettui_group_lag{")
		return slices.Equal(m, want)
	})
}
