package layers

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const (
	module    = "github.com/offsettui/offsettui"
	kafkaRoot = module + "/internal/kafka"
)

// allowed is the map of the module (docs/architecture.md): per package, what it
// may import besides the standard library. An entry is a package of the module
// (its path under the module, "internal/model") or a third-party import path that
// also admits everything under it ("github.com/twmb/franz-go"). A package of the
// module without an entry fails the test, so the map stays current; so does an
// entry for a package that no longer exists. Tests may import more (fakes, the
// real-broker helpers); the map is about what ships.
var allowed = map[string][]string{
	"cmd/offsettui": {"internal/contexts", "internal/demo", "internal/kafka", "internal/kafka/clientconfig", "internal/model",
		"internal/model/assemble", "internal/model/check", "internal/model/parse", "internal/model/plan", "internal/model/timeaxis",
		"internal/mcpserver", "internal/report", "internal/reset", "internal/sampler", "internal/serve", "internal/text", "internal/views",
		"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/charmbracelet/x/term",
		"github.com/muesli/termenv", "github.com/spf13/pflag", "github.com/spf13/cobra", "github.com/cpuguy83/go-md2man/v2"},
	"internal/contexts": {"go.yaml.in/yaml/v3"},
	"internal/demo":     {"internal/model", "internal/seed", "github.com/twmb/franz-go"},
	"internal/kafka": {"internal/kafka/wire", "internal/kafka/groupread", "internal/kafka/logread", "internal/kafka/commitlog",
		"internal/kafka/snapshot", "internal/kafka/write", "internal/model", "internal/model/plan"},
	"internal/kafka/wire": {"internal/kafka/clientconfig", "internal/model",
		"github.com/IBM/sarama", "github.com/twmb/franz-go", "github.com/xdg-go/scram"},
	"internal/kafka/groupread": {"internal/kafka/wire", "internal/model", "internal/text", "github.com/IBM/sarama", "github.com/twmb/franz-go"},
	"internal/kafka/logread":   {"internal/kafka/wire", "internal/model", "github.com/IBM/sarama", "github.com/twmb/franz-go"},
	"internal/kafka/commitlog": {"internal/kafka/wire", "internal/kafka/logread", "internal/model", "github.com/IBM/sarama", "github.com/twmb/franz-go"},
	"internal/kafka/snapshot": {"internal/kafka/wire", "internal/kafka/groupread", "internal/kafka/logread", "internal/kafka/commitlog",
		"internal/model", "internal/model/assemble", "internal/model/plan", "internal/model/status", "github.com/IBM/sarama"},
	"internal/kafka/write": {"internal/kafka/wire", "internal/kafka/groupread", "internal/model", "internal/model/plan",
		"github.com/IBM/sarama", "github.com/twmb/franz-go"},
	"internal/kafka/clientconfig": {"github.com/aws/aws-msk-iam-sasl-signer-go", "github.com/aws/aws-sdk-go-v2",
		"golang.org/x/oauth2", "github.com/pavlo-v-chernykh/keystore-go/v4", "software.sslmate.com/src/go-pkcs12"},
	"internal/model":          {},
	"internal/model/assemble": {"internal/model", "internal/model/expiry", "internal/model/status"},
	"internal/model/status":   {"internal/model"},
	"internal/model/expiry":   {"internal/model"},
	"internal/model/parse":    {},
	"internal/model/timeaxis": {"internal/model", "internal/text"},
	"internal/model/check":    {"internal/model", "internal/model/timeaxis", "internal/text"},
	"internal/model/plan":     {"internal/model", "internal/model/parse", "internal/text"},
	"internal/text":           {},
	"internal/display":        {"internal/model", "internal/model/plan", "internal/text"},
	"internal/report":         {"internal/model", "internal/model/check", "internal/model/plan", "internal/display", "internal/text"},
	"internal/reset":          {"internal/model", "internal/model/plan", "internal/text"},
	"internal/sampler":        {},
	"internal/serve": {"internal/model", "internal/model/assemble", "internal/model/check", "internal/model/parse", "internal/model/timeaxis",
		"internal/report", "internal/sampler", "internal/text", "github.com/prometheus/client_golang", "github.com/prometheus/client_model"},
	"internal/mcpserver": {"internal/model", "internal/model/check", "internal/model/parse", "internal/model/plan", "internal/model/timeaxis",
		"internal/display", "internal/report", "internal/text", "github.com/modelcontextprotocol/go-sdk"},
	"internal/views": {"internal/model", "internal/model/plan", "internal/model/timeaxis", "internal/display", "internal/text",
		"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/bubbles", "github.com/charmbracelet/lipgloss",
		"github.com/charmbracelet/x/ansi", "github.com/muesli/termenv"},
	"internal/seed": {"internal/model", "github.com/twmb/franz-go"},
	"internal/testsupport/kafkatest": {"internal/model", "internal/seed", "github.com/twmb/franz-go",
		"github.com/pavlo-v-chernykh/keystore-go/v4", "software.sslmate.com/src/go-pkcs12"},
	"internal/testsupport/realkafka":   {"internal/model", "internal/testsupport/kafkatest", "github.com/twmb/franz-go"},
	"internal/testsupport/faultproxy":  {"github.com/twmb/franz-go"},
	"internal/testsupport/realcluster": {"internal/testsupport/realkafka", "github.com/twmb/franz-go"},
	"internal/testsupport/clustertest": {},
	"internal/testsupport/docpage":     {},
	"internal/testsupport/layers":      {},
}

// pure are the packages that compute and word but do no I/O: they import none of
// the standard library's I/O (ioBanned), and they depend on nothing but the
// standard library and other pure packages (which are held to the same rule).
// fmt and time depend on os themselves; what counts is that a pure package does
// not reach for it.
var pure = []string{"internal/model", "internal/text", "internal/display"}

// ioBanned is the standard library a pure package must not depend on: the network,
// files, processes and the operating system.
var ioBanned = []string{"net", "os", "syscall", "crypto/tls", "io/fs", "io/ioutil", "log/syslog", "plugin"}

// rule forbids the packages matched by who from depending, even indirectly, on
// any of deps. The allowlist already holds direct imports; the rules say why, and
// catch a path through another package.
type rule struct {
	why  string
	who  func(pkg string) bool
	deps []string
}

func under(prefixes ...string) func(string) bool {
	return func(pkg string) bool {
		for _, p := range prefixes {
			if pkg == module+"/"+p || strings.HasPrefix(pkg, module+"/"+p+"/") {
				return true
			}
		}
		return false
	}
}

func not(f func(string) bool) func(string) bool { return func(p string) bool { return !f(p) } }

var rules = []rule{
	{"sarama only in internal/kafka's rooms (and through them under cmd/offsettui, which wires the Client)", not(under("internal/kafka", "cmd/offsettui")),
		[]string{"github.com/IBM/sarama"}},
	{"views talk to Kafka and resets only through their interfaces and draw nothing with report", under("internal/views"),
		[]string{module + "/internal/report", module + "/internal/reset", module + "/internal/kafka"}},
	{"model is pure: no I/O clients, no terminal", under("internal/model"),
		[]string{"github.com/IBM/sarama", "github.com/twmb/franz-go", "github.com/charmbracelet", "github.com/muesli",
			module + "/internal/kafka", module + "/internal/views", module + "/internal/report", module + "/internal/reset"}},
	{"report writes what it is given: it reads no cluster", under("internal/report"), []string{module + "/internal/kafka"}},
	{"kafka reads and writes the cluster; it neither draws nor runs resets", under("internal/kafka"),
		[]string{module + "/internal/views", module + "/internal/reset", module + "/internal/report"}},
	{"the connection layer is internal/kafka's floor: it knows none of the reads and writes above it", under("internal/kafka/wire"),
		[]string{kafkaRoot + "/groupread", kafkaRoot + "/logread", kafkaRoot + "/commitlog", kafkaRoot + "/snapshot", kafkaRoot + "/write"}},
	{"reads never write: only internal/kafka's Client holds the writer", under("internal/kafka/wire", "internal/kafka/groupread",
		"internal/kafka/logread", "internal/kafka/commitlog", "internal/kafka/snapshot"), []string{kafkaRoot + "/write"}},
	{"the reset service runs on any Cluster, not on internal/kafka", under("internal/reset"), []string{module + "/internal/kafka"}},
	{"client configuration is library-neutral: both clients are built from it in internal/kafka", under("internal/kafka/clientconfig"),
		[]string{"github.com/IBM/sarama", "github.com/twmb/franz-go",
			module + "/internal/kafka"}},
	{"the exporter reads through its Source and cannot write: no Kafka client, no reset service", under("internal/serve"),
		[]string{module + "/internal/kafka", module + "/internal/reset", "github.com/IBM/sarama", "github.com/twmb/franz-go/pkg/kgo"}},
	{"the MCP tools reach a cluster only through their read-only Cluster: no Kafka client, no reset service, no exporter", under("internal/mcpserver"),
		[]string{module + "/internal/kafka", module + "/internal/reset", module + "/internal/serve", "github.com/IBM/sarama", "github.com/twmb/franz-go"}},
	{"the demo seeds without the read path under test", under("internal/demo", "internal/seed"), []string{module + "/internal/kafka"}},
	{"test support (internal/testsupport: the fake cluster, the real-broker and real-cluster helpers, the fault proxy) is imported by tests only",
		not(under("internal/testsupport")), []string{module + "/internal/testsupport"}},
}

// importRules are rules on what who imports itself, not on its whole path down.
var importRules = []rule{
	{"outside internal/kafka a cluster is reached through its Client, never through one of its rooms", not(under("internal/kafka")),
		[]string{kafkaRoot + "/wire", kafkaRoot + "/groupread", kafkaRoot + "/logread", kafkaRoot + "/commitlog", kafkaRoot + "/snapshot", kafkaRoot + "/write"}},
}

// pkgInfo is one package of the module as go list sees it (tests excluded).
type pkgInfo struct {
	imports, deps []string
}

// list returns every package of the module with its imports and its transitive
// dependencies, from `go list`.
func list(t *testing.T) map[string]pkgInfo {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string]pkgInfo{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		m[f[0]] = pkgInfo{imports: strings.Fields(f[1]), deps: strings.Fields(f[2])}
	}
	return m
}

// standard reports whether path is in the standard library (no dot in its first element).
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// matches reports whether path is entry or, for an entry outside the module, under it.
func matches(path, entry string) bool {
	if strings.HasPrefix(entry, "internal/") || strings.HasPrefix(entry, "cmd/") {
		return path == module+"/"+entry
	}
	return path == entry || strings.HasPrefix(path, entry+"/")
}

func isPure(pkg string) bool { return under(pure...)(pkg) }

func TestLayers(t *testing.T) {
	all := list(t)
	if _, ok := all[module+"/internal/kafka"]; !ok || len(all) < 8 {
		t.Fatalf("go list found %d packages of the module, without internal/kafka", len(all))
	}
	checkDocMap(t, all)
	for rel := range allowed {
		if _, ok := all[module+"/"+rel]; !ok {
			t.Errorf("allowed names %s, which is not a package of the module: remove it (and from docs/architecture.md)", rel)
		}
	}
	for pkg, p := range all {
		rel := strings.TrimPrefix(pkg, module+"/")
		may, ok := allowed[rel]
		if !ok {
			t.Errorf("%s has no entry in allowed: add what it may import, and a line in docs/architecture.md", rel)
			continue
		}
		for _, imp := range p.imports {
			if standard(imp) || slices.ContainsFunc(may, func(e string) bool { return matches(imp, e) }) {
				continue
			}
			t.Errorf("%s imports %s, which its entry in allowed does not list", rel, imp)
		}
		if isPure(pkg) {
			for _, imp := range p.imports {
				if slices.ContainsFunc(ioBanned, func(b string) bool { return imp == b || strings.HasPrefix(imp, b+"/") }) {
					t.Errorf("%s imports %s: a pure package does no I/O", rel, imp)
				}
			}
			for _, d := range p.deps {
				if !standard(d) && !isPure(d) {
					t.Errorf("%s depends on %s: a pure package depends on the standard library and other pure packages only", rel, d)
				}
			}
		}
		for _, r := range rules {
			r.check(t, pkg, p.deps, "depends on")
		}
		for _, r := range importRules {
			r.check(t, pkg, p.imports, "imports")
		}
	}
}

// check fails when r is about pkg and one of paths is a package r bans.
func (r rule) check(t *testing.T, pkg string, paths []string, verb string) {
	t.Helper()
	if !r.who(pkg) {
		return
	}
	for _, d := range paths {
		for _, banned := range r.deps {
			if d == banned || strings.HasPrefix(d, banned+"/") {
				t.Errorf("%s %s %s: %s", pkg, verb, d, r.why)
			}
		}
	}
}
