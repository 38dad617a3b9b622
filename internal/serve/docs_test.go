package serve

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// Every metric is documented in docs/metrics.md, and the alert rules and the
// Grafana dashboard in deploy/ use only metrics that exist.
func TestMetricsDocumentedAndUsed(t *testing.T) {
	names := map[string]bool{}
	for _, m := range allMetrics {
		names[m.name] = true
	}
	doc := read(t, "../../docs/metrics.md")
	for name := range names {
		if !regexp.MustCompile("`" + name + "`").MatchString(doc) {
			t.Errorf("docs/metrics.md does not document %s", name)
		}
	}
	used := regexp.MustCompile(`offsettui_[a-z_]+`)
	for _, f := range []string{"../../deploy/prometheus/offsettui-rules.yml", "../../deploy/grafana/offsettui.json", "../../docs/metrics.md"} {
		var seen []string
		for _, n := range used.FindAllString(read(t, f), -1) {
			if !names[n] && !slices.Contains(seen, n) {
				t.Errorf("%s uses %s, which serve does not export", f, n)
				seen = append(seen, n)
			}
		}
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
