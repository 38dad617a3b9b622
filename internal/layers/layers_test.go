package layers

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/offsettui/offsettui"

// rule forbids the packages matched by who from depending on any of deps.
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
	{"sarama only in internal/kafka (and cmd/offsettui, which wires it)", not(under("internal/kafka", "cmd/offsettui")),
		[]string{"github.com/IBM/sarama"}},
	{"views talk to Kafka and resets only through their interfaces and draw nothing with report", under("internal/views"),
		[]string{module + "/internal/report", module + "/internal/reset", module + "/internal/kafka"}},
	{"model is pure: no I/O clients, no terminal", under("internal/model"),
		[]string{"github.com/IBM/sarama", "github.com/twmb/franz-go/pkg/kgo", "github.com/charmbracelet/bubbletea",
			"github.com/charmbracelet/lipgloss", module + "/internal/kafka"}},
	{"the reset service runs on any Cluster, not on internal/kafka", under("internal/reset"), []string{module + "/internal/kafka"}},
	{"the demo seeds without the read path under test", under("internal/demo", "internal/seed"), []string{module + "/internal/kafka"}},
	{"test support (the fake cluster, the real-broker and real-cluster helpers, the fault proxy) is imported by tests only",
		not(under("internal/kafkatest", "internal/realkafka", "internal/realcluster", "internal/faultproxy")),
		[]string{module + "/internal/kafkatest", module + "/internal/realkafka", module + "/internal/realcluster", module + "/internal/faultproxy"}},
}

// deps returns every package of the module (tests excluded) with its
// transitive dependencies, from `go list -deps`.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	m := map[string][]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if strings.HasPrefix(f[0], module+"/") {
			m[f[0]] = f[1:]
		}
	}
	return m
}

func TestLayers(t *testing.T) {
	all := deps(t)
	if _, ok := all[module+"/internal/kafka"]; !ok || len(all) < 8 {
		t.Fatalf("go list found %d packages of the module, without internal/kafka", len(all))
	}
	for pkg, ds := range all {
		for _, r := range rules {
			if !r.who(pkg) {
				continue
			}
			for _, d := range ds {
				for _, banned := range r.deps {
					if d == banned || strings.HasPrefix(d, banned+"/") {
						t.Errorf("%s depends on %s: %s", pkg, d, r.why)
					}
				}
			}
		}
	}
}
