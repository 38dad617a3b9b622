package chart

import (
	"fmt"
	"strings"

	"helm.sh/helm/v4/pkg/chart/v2/lint"
	"helm.sh/helm/v4/pkg/chart/v2/lint/support"
)

// Lint runs Helm's linter on the chart in dir with vals, as `helm lint --strict`
// does: it returns every message, and an error when one is a warning or worse.
func Lint(dir string, vals map[string]any, namespace string) ([]string, error) {
	res := lint.RunAll(dir, vals, namespace)
	var msgs, bad []string
	for _, m := range res.Messages {
		msgs = append(msgs, m.Error())
		if m.Severity >= support.WarningSev {
			bad = append(bad, m.Error())
		}
	}
	if len(bad) > 0 {
		return msgs, fmt.Errorf("helm lint --strict: %s", strings.Join(bad, "; "))
	}
	return msgs, nil
}
