package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/views"
	"github.com/twmb/franz-go/pkg/kfake"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

const cmdSecret = "Hunter2-s3cret"

// hermetic hides the user's config file and connection environment from a test.
func hermetic(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, k := range []string{"OFFSETTUI_CONTEXT", "KAFKA_BOOTSTRAP_SERVERS", "OFFSETTUI_READ_ONLY"} {
		t.Setenv(k, "")
	}
	return dir
}

func writeTestFile(t *testing.T, path, body string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// describedCluster runs describe -o json and returns the bootstrap it reports.
func describedCluster(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := describeMain(append(args, "-o", "json", "--timeout", "5s"), &out, &errb)
	if code != exitOK {
		return "", errb.String(), code
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out.String())
	}
	return snap.Cluster.Bootstrap, errb.String(), code
}

// TestContextPrecedence: the cluster a command reaches follows flag > environment >
// context, and the file's current-context applies when nothing else is said.
func TestContextPrecedence(t *testing.T) {
	dir := hermetic(t)
	a, b, c := kafkatest.Cluster(t), kafkatest.Cluster(t), kafkatest.Cluster(t)
	addr := func(k *kfake.Cluster) string { return strings.Join(k.ListenAddrs(), ",") }
	writeTestFile(t, filepath.Join(dir, "offsettui", "config.yaml"), "current-context: a\ncontexts:\n"+
		"  - name: a\n    bootstrap-servers: "+addr(a)+"\n"+
		"  - name: b\n    bootstrap-servers: ["+strings.Join(b.ListenAddrs(), ", ")+"]\n", 0o600)
	tests := []struct {
		name  string
		env   map[string]string
		args  []string
		want  string
		notes string // expected on stderr
	}{
		{"current-context", nil, nil, addr(a), ""},
		{"OFFSETTUI_CONTEXT", map[string]string{"OFFSETTUI_CONTEXT": "b"}, nil, addr(b), ""},
		{"--context beats OFFSETTUI_CONTEXT", map[string]string{"OFFSETTUI_CONTEXT": "b"}, []string{"--context", "a"}, addr(a), ""},
		{"KAFKA_BOOTSTRAP_SERVERS beats the context", map[string]string{"KAFKA_BOOTSTRAP_SERVERS": addr(c)}, []string{"--context", "b"}, addr(c),
			"note: KAFKA_BOOTSTRAP_SERVERS overrides context b's bootstrap-servers"},
		{"--bootstrap-server beats KAFKA_BOOTSTRAP_SERVERS", map[string]string{"KAFKA_BOOTSTRAP_SERVERS": addr(b)}, []string{"--bootstrap-server", addr(c)}, addr(c),
			"note: --bootstrap-server overrides context a's bootstrap-servers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			got, errOut, code := describedCluster(t, tt.args...)
			if code != exitOK || got != tt.want {
				t.Fatalf("exit %d, cluster %q, want %q\n%s", code, got, tt.want, errOut)
			}
			if !strings.Contains(errOut, tt.notes) || (tt.notes == "" && errOut != "") {
				t.Fatalf("stderr %q, want %q", errOut, tt.notes)
			}
		})
	}
	t.Run("unknown context", func(t *testing.T) {
		_, errOut, code := describedCluster(t, "--context", "prod")
		if code != exitBadInput || !strings.Contains(errOut, `--context: no context "prod"`) {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})
	t.Run("--config names a missing file", func(t *testing.T) {
		_, errOut, code := describedCluster(t, "--config", filepath.Join(dir, "none.yaml"), "--bootstrap-server", addr(a))
		if code != exitBadInput || !strings.Contains(errOut, "none.yaml does not exist") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})
}

// TestReadOnlyContextCannotBeMadeWritable: --read-only=false, OFFSETTUI_READ_ONLY=0 and a
// --bootstrap-server override leave a read-only context read-only: nothing is written.
func TestReadOnlyContextCannotBeMadeWritable(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t, kfake.SeedTopics(1, "t"))
	seed := kafkatest.NewSeed(t, k.ListenAddrs())
	seed.ProduceN("t", 0, 5, func(int) time.Time { return time.Now() })
	seed.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 1})
	cfg := writeTestFile(t, filepath.Join(dir, "ctx.yaml"), "contexts:\n  - name: prod\n    read-only: true\n    bootstrap-servers: "+
		strings.Join(k.ListenAddrs(), ",")+"\n  - name: dev\n    bootstrap-servers: "+strings.Join(k.ListenAddrs(), ",")+"\n", 0o600)
	t.Setenv("OFFSETTUI_READ_ONLY", "0")
	for _, extra := range [][]string{{"--read-only=false"}, {"--bootstrap-server", strings.Join(k.ListenAddrs(), ",")}} {
		var out, errb bytes.Buffer
		args := append([]string{"--config", cfg, "--context", "prod", "--group", "g", "--topic", "t", "--to-latest", "--execute",
			"--backup-dir", t.TempDir()}, extra...)
		code := resetMain(args, &out, &errb)
		if code != exitBlocked || !strings.Contains(out.String()+errb.String(), "read-only") {
			t.Fatalf("%v: exit %d\n%s\n%s", extra, code, out.String(), errb.String())
		}
		if got := seed.Committed("g")[model.TP{Topic: "t", Partition: 0}]; got != 1 {
			t.Fatalf("%v: the commit moved to %d", extra, got)
		}
	}
	var out, errb bytes.Buffer // the writable context does write: the test above can fail
	if code := resetMain([]string{"--config", cfg, "--context", "dev", "--group", "g", "--topic", "t", "--to-latest", "--execute",
		"--backup-dir", t.TempDir()}, &out, &errb); code != exitOK {
		t.Fatalf("dev: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if got := seed.Committed("g")[model.TP{Topic: "t", Partition: 0}]; got != 5 {
		t.Fatalf("dev: commit %d, want 5", got)
	}
}

// TestSecretsNeverPrinted: a context's SASL password appears in no listing, no error and no
// debug log, whether the connection works or fails.
func TestSecretsNeverPrinted(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", cmdSecret))
	props := writeTestFile(t, filepath.Join(dir, "client.properties"), "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"+
		`sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="`+cmdSecret+`";`+"\n", 0o600)
	cfg := writeTestFile(t, filepath.Join(dir, "offsettui", "config.yaml"), "current-context: good\ncontexts:\n"+
		"  - name: good\n    bootstrap-servers: "+strings.Join(k.ListenAddrs(), ",")+"\n    command-config: "+props+"\n"+
		"  - name: typo\n    bootstrap-servers: "+strings.Join(k.ListenAddrs(), ",")+"\n    properties:\n"+
		"      security.protocol: SASL_PLAINTEXT\n      sasl.mechanism: SCRAM-SHA-512\n"+
		`      sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password=`+cmdSecret+"x\n", 0o600)
	debug := filepath.Join(dir, "debug.log")
	var all strings.Builder
	for _, args := range [][]string{{"--debug", debug}, {"--context", "typo", "--debug", debug}} {
		var out, errb bytes.Buffer
		code := describeMain(append(args, "--timeout", "5s"), &out, &errb)
		all.WriteString(out.String() + errb.String())
		if args[0] == "--debug" && code != exitOK {
			t.Fatalf("good context: exit %d: %s", code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := contextsMain([]string{"--config", cfg}, &out, &errb); code != exitOK || !strings.Contains(out.String(), "password=***") {
		t.Fatalf("contexts: exit %d\n%s%s", code, out.String(), errb.String())
	}
	all.WriteString(out.String() + errb.String())
	out.Reset()
	if code := contextsMain([]string{"-o", "json"}, &out, &errb); code != exitOK || !strings.Contains(out.String(), `"current":true`) {
		t.Fatalf("contexts -o json: exit %d\n%s", code, out.String())
	}
	all.WriteString(out.String())
	log, err := os.ReadFile(debug)
	if err != nil || len(log) == 0 {
		t.Fatalf("debug log: %v", err)
	}
	all.Write(log)
	if strings.Contains(all.String(), cmdSecret) {
		t.Fatalf("the secret was printed:\n%s", all.String())
	}
	if !strings.Contains(all.String(), "client properties: sasl.jaas.config: the entry is not terminated by ';'") {
		t.Fatalf("the typo's error is missing:\n%s", all.String())
	}
}

// TestLoosePermissionsWarn: a file holding a secret that others can read gets a warning on
// stderr (never an error); the same file with mode 600, or without a secret, gets none.
func TestLoosePermissionsWarn(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t)
	boot := strings.Join(k.ListenAddrs(), ",")
	tests := []struct {
		name string
		body string
		mode os.FileMode
		warn bool
	}{
		{"secret, 0644", "sasl.jaas.config=x required password=\"" + cmdSecret + "\";\n", 0o644, true},
		{"secret, 0600", "sasl.jaas.config=x required password=\"" + cmdSecret + "\";\n", 0o600, false},
		{"secret from ${env:...}, 0644", "ssl.keystore.password=${env:KS}\n", 0o644, false},
		{"no secret, 0644", "client.id=ops\n", 0o644, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeTestFile(t, filepath.Join(dir, tt.name+".properties"), tt.body, tt.mode)
			var errb bytes.Buffer
			conn, err := (&common{commandConfig: f, bootstrap: boot}).resolveConnection(&errb)
			if err != nil || conn.props == nil {
				t.Fatalf("%d: %v", i, err)
			}
			if got := strings.Contains(errb.String(), "warning: "+f+" holds secrets and is readable by others"); got != tt.warn {
				t.Fatalf("warning %v, want %v: %q", got, tt.warn, errb.String())
			}
		})
	}
	t.Run("config file with inline secrets", func(t *testing.T) {
		cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n  - name: a\n    properties:\n      ssl.key.password: "+cmdSecret+"\n", 0o640)
		var errb bytes.Buffer
		if _, err := (&common{config: cfg}).loadConfig(&errb); err != nil || !strings.Contains(errb.String(), "mode 0640") {
			t.Fatalf("%v %q", err, errb.String())
		}
	})
}

// TestBootstrapFromProperties: bootstrap.servers of --command-config is used when no
// --bootstrap-server is given, and a UTF-8 byte order mark does not hide the first key.
func TestBootstrapFromProperties(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t, kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", cmdSecret))
	props := writeTestFile(t, filepath.Join(dir, "client.properties"), "\uFEFFsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
		"bootstrap.servers="+strings.Join(k.ListenAddrs(), ",")+"\n"+
		`sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="`+cmdSecret+`";`+"\n", 0o600)
	got, errOut, code := describedCluster(t, "--command-config", props)
	if code != exitOK || got != strings.Join(k.ListenAddrs(), ",") {
		t.Fatalf("exit %d, cluster %q\n%s", code, got, errOut)
	}
	_, errOut, code = describedCluster(t)
	if code != exitBadInput || !strings.Contains(errOut, "no bootstrap server") {
		t.Fatalf("no cluster at all: exit %d: %s", code, errOut)
	}
}

// TestUndoCommandKeepsTheContext: the printed undo command reaches the same cluster with the
// same client properties: the context's name, not its secrets; the addresses only when
// they did not come from the context (so no "overrides context" note); every file path
// absolute, so it works from any directory.
func TestUndoCommandKeepsTheContext(t *testing.T) {
	hermetic(t)
	k := kafkatest.Cluster(t)
	cl, err := (&common{bootstrap: strings.Join(k.ListenAddrs(), ","), timeoutD: 5 * time.Second}).connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.close()
	cl.context = &contexts.Context{Name: "prod eu"}
	boot := strings.Join(k.ListenAddrs(), ",")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		c    common
		want string
	}{
		{"the context's addresses", common{config: "/etc/o.yaml"},
			"offsettui reset --context 'prod eu' --config /etc/o.yaml --group g --restore /b/g.csv --execute"},
		{"--bootstrap-server over the context", common{config: "/etc/o.yaml", bootstrap: boot},
			"offsettui reset --context 'prod eu' --config /etc/o.yaml --bootstrap-server " + boot + " --group g --restore /b/g.csv --execute"},
		{"relative files", common{config: "o.yaml", commandConfig: "client.properties"},
			"offsettui reset --context 'prod eu' --config " + filepath.Join(wd, "o.yaml") + " --command-config " +
				filepath.Join(wd, "client.properties") + " --group g --restore /b/g.csv --execute"},
		{"a :ctx switch: the run's connection flags do not apply", common{bootstrap: "other:9092", commandConfig: "/x.properties", onlyContext: true},
			"offsettui reset --context 'prod eu' --group g --restore /b/g.csv --execute"},
	} {
		if got := undoCommand(c.c, cl.contextName(), cl.client.Bootstrap(), "g", "/b/g.csv", ""); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
	if got := undoCommand(common{bootstrap: boot}, "", boot, "g", "g.csv", "backups"); got !=
		"offsettui reset --bootstrap-server "+boot+" --group g --restore "+filepath.Join(wd, "g.csv")+" --backup-dir "+filepath.Join(wd, "backups")+" --execute" {
		t.Errorf("no context: %s", got)
	}
}

// TestTUIContextSwitch wires the TUI as runTUI does and switches with `:ctx b`: the second
// context's cluster is read (the run's --bootstrap-server does not follow the switch), its
// read-only setting applies, and --read-only given to the run would still hold.
func TestTUIContextSwitch(t *testing.T) {
	dir := hermetic(t)
	a, b := kafkatest.Cluster(t, kfake.SeedTopics(1, "ta")), kafkatest.Cluster(t, kfake.SeedTopics(1, "tb"))
	kafkatest.NewSeed(t, a.ListenAddrs()).Commit("alpha-svc", map[model.TP]int64{{Topic: "ta", Partition: 0}: 0})
	kafkatest.NewSeed(t, b.ListenAddrs()).Commit("beta-svc", map[model.TP]int64{{Topic: "tb", Partition: 0}: 0})
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n"+
		"  - name: a\n    bootstrap-servers: "+strings.Join(a.ListenAddrs(), ",")+"\n"+
		"  - name: b\n    label: BETA\n    color: red\n    read-only: true\n    bootstrap-servers: "+strings.Join(b.ListenAddrs(), ",")+"\n", 0o600)
	c := common{config: cfg, context: "a", bootstrap: strings.Join(a.ListenAddrs(), ","), timeoutD: 5 * time.Second, riskWindowD: time.Hour, stderr: io.Discard}
	conn, err := c.resolveConnection(io.Discard) // as runTUI does
	if err != nil {
		t.Fatal(err)
	}
	lc := &lazyClient{c: c, conn: &conn}
	defer lc.close()
	sw := &tuiSwitcher{c: c, backupDir: t.TempDir()}
	if sw.file, err = c.loadConfig(io.Discard); err != nil {
		t.Fatal(err)
	}
	defer sw.closeAll()
	opts := tuiOptions(c, lc, 0, true, sw.backupDir)
	opts.Contexts = sw
	tm := teatest.NewTestModel(t, views.New(opts), teatest.WithInitialTermSize(120, 30))
	waitFor := func(what ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
			plain := ansi.Strip(string(out))
			for _, w := range what {
				if !strings.Contains(plain, w) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("offsettui · a · ", "alpha-svc")
	tm.Type(":ctx b")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor("BETA · READ-ONLY · "+b.ListenAddrs()[0], "beta-svc", "switched to context b")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if len(sw.sessions) != 1 || !sw.sessions[0].context.ReadOnly {
		t.Fatalf("sessions %d", len(sw.sessions))
	}
}

// TestTUIReadOnlyContextFromTheStart: the TUI is built as runTUI builds it; a read-only
// context makes the header and the reset service read-only before any connection is made.
func TestTUIReadOnlyContextFromTheStart(t *testing.T) {
	dir := hermetic(t)
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n  - name: prod\n    read-only: true\n    bootstrap-servers: 127.0.0.1:1\n", 0o600)
	c := common{config: cfg, context: "prod", timeoutD: time.Second, stderr: io.Discard}
	conn, err := c.resolveConnection(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	lc := &lazyClient{c: c, conn: &conn}
	opts := tuiOptions(c, lc, 0, true, t.TempDir())
	if !opts.ReadOnly || !opts.Resetter.(tuiResetter).svc.ReadOnly || opts.Context.Name != "prod" || opts.Cluster != "127.0.0.1:1" {
		t.Fatalf("read-only %v, service read-only %v, context %q, cluster %q", opts.ReadOnly,
			opts.Resetter.(tuiResetter).svc.ReadOnly, opts.Context.Name, opts.Cluster)
	}
}
