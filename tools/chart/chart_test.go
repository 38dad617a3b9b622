package chart

import (
	"bytes"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// TestMain quiets Helm's loader, which logs at INFO that files/offsettui-rules.yml
// is a link (it is, on purpose: one source for the rules).
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	os.Exit(m.Run())
}

// root is the repository, from tools/chart.
var root = filepath.Join("..", "..")

var (
	chartDir     = filepath.Join(root, ChartDir)
	allValues    = filepath.Join(chartDir, "ci", "all-values.yaml")
	manifestsDir = filepath.Join(root, ManifestsDir)
)

// valueSets are the renders every test covers: the defaults, every value set,
// and every value but existingClientSecret (the chart then makes the Secret).
func valueSets(t *testing.T) map[string]map[string]any {
	t.Helper()
	all, err := LoadValues(allValues)
	if err != nil {
		t.Fatal(err)
	}
	ownSecret := maps.Clone(all)
	ownSecret["existingClientSecret"] = ""
	return map[string]map[string]any{"defaults": {}, "ci/all-values.yaml": all, "all values, the chart's Secret": ownSecret}
}

func render(t *testing.T, vals map[string]any) []Manifest {
	t.Helper()
	ms, err := Render(chartDir, vals, DefaultRelease)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestLint(t *testing.T) {
	for name, vals := range valueSets(t) {
		msgs, err := Lint(chartDir, vals, DefaultRelease.Namespace)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s: helm lint --strict: %d messages %q", name, len(msgs), msgs)
	}
}

// TestEveryObjectValidates decodes every rendered object into its Kubernetes or
// prometheus-operator type, strictly, and checks that every template renders in
// one of the value sets.
func TestEveryObjectValidates(t *testing.T) {
	rendered := map[string]bool{}
	for name, vals := range valueSets(t) {
		kinds := []string{}
		for _, m := range render(t, vals) {
			if _, err := Decode(m); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			rendered[filepath.Base(m.Source)] = true
			kinds = append(kinds, m.Kind)
		}
		t.Logf("%s: %d objects validated: %v", name, len(kinds), kinds)
	}
	templates, err := filepath.Glob(filepath.Join(chartDir, "templates", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range templates {
		if !rendered[filepath.Base(tpl)] {
			t.Errorf("%s renders in none of the value sets: nothing validates it", tpl)
		}
	}
}

func TestDecodeIsStrict(t *testing.T) {
	for _, bad := range []Manifest{
		{Source: "unknown field", Kind: "Service", Content: "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {prots: []}\n"},
		{Source: "wrong type", Kind: "Deployment", Content: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: one}\n"},
		{Source: "duplicate field", Kind: "ConfigMap", Content: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\ndata: {c: d}\n"},
		{Source: "unknown kind", Kind: "Widget", Content: "apiVersion: v1\nkind: Widget\nmetadata: {name: x}\n"},
	} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%s: decoded without an error", bad.Source)
		}
	}
}

func decoded[T runtime.Object](t *testing.T, ms []Manifest, kind string) T {
	t.Helper()
	var zero T
	for _, m := range ms {
		if m.Kind == kind {
			obj, err := Decode(m)
			if err != nil {
				t.Fatal(err)
			}
			return obj.(T)
		}
	}
	t.Fatalf("no %s rendered", kind)
	return zero
}

func TestDeploymentRunsServeSafely(t *testing.T) {
	for name, vals := range valueSets(t) {
		ms := render(t, vals)
		d := decoded[*appsv1.Deployment](t, ms, "Deployment")
		pod := d.Spec.Template.Spec
		c := pod.Containers[0]
		if c.Args[0] != "serve" || !slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--listen=:") }) {
			t.Errorf("%s: args %q: want serve listening on every interface", name, c.Args)
		}
		if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s: liveness probe %+v, want GET /healthz on http", name, p)
		}
		if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s: readiness probe %+v, want GET /readyz on http", name, p)
		}
		if c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: resources %+v: want memory requests and limits", name, c.Resources)
		}
		sc, psc := c.SecurityContext, pod.SecurityContext
		if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
			t.Errorf("%s: pod security context %+v: want a non-root user", name, psc)
		}
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("%s: container security context %+v: want a read-only root filesystem, no privilege escalation", name, sc)
		}
		svc := decoded[*corev1.Service](t, ms, "Service")
		if svc.Spec.Ports[0].TargetPort.String() != "http" || c.Ports[0].Name != "http" {
			t.Errorf("%s: the Service targets %s, the container's port is %q", name, svc.Spec.Ports[0].TargetPort.String(), c.Ports[0].Name)
		}
	}
}

// TestValuesReachServe checks that ci/all-values.yaml's serve values become
// serve's flags and environment, and the contexts file and client properties
// its mounted files.
func TestValuesReachServe(t *testing.T) {
	ms := render(t, valueSets(t)["ci/all-values.yaml"])
	d := decoded[*appsv1.Deployment](t, ms, "Deployment")
	c := d.Spec.Template.Spec.Containers[0]
	for _, want := range []string{"--listen=:9400", "--interval=1m", "--stall-after=2m", "--risk-window=12h", "--timeout=15s",
		"--fetch-budget=8388608", "--max-partition-series=20000", "--commit-log=on", "--commit-log-budget=134217728",
		"--command-config=/etc/offsettui/client/prod.properties", "--context=prod-eu", "--context=prod-us", "--all-contexts",
		"--include-group=billing-.*", "--include-group=fanout", "--exclude-group=.*-canary", `--include-topic=orders\..*`,
		"--exclude-topic=__.*", "--granularity=topic", "--config=/etc/offsettui/config/config.yaml", "--debug=/tmp/offsettui.log"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("args %q lack %q", c.Args, want)
		}
	}
	if i := slices.IndexFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "KAFKA_BOOTSTRAP_SERVERS" }); i < 0 ||
		c.Env[i].Value != "kafka-0.kafka:9092,kafka-1.kafka:9092" {
		t.Errorf("env %+v: want KAFKA_BOOTSTRAP_SERVERS from serve.bootstrapServers", c.Env)
	}
	cm := decoded[*corev1.ConfigMap](t, ms, "ConfigMap")
	if !strings.Contains(cm.Data["config.yaml"], "name: prod-eu") {
		t.Errorf("the ConfigMap's config.yaml:\n%s", cm.Data["config.yaml"])
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	if mounts["config"] != "/etc/offsettui/config" || mounts["client"] != "/etc/offsettui/client" || mounts["tmp"] != "/tmp" {
		t.Errorf("mounts %v", mounts)
	}
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == "client" && (v.Secret == nil || v.Secret.SecretName != "kafka-client") {
			t.Errorf("the client volume %+v: want existingClientSecret's Secret", v)
		}
	}
	own := render(t, valueSets(t)["all values, the chart's Secret"])
	s := decoded[*corev1.Secret](t, own, "Secret")
	if !strings.Contains(s.StringData["prod.properties"], "security.protocol=SASL_SSL") {
		t.Errorf("the chart's Secret: %v", s.StringData)
	}
}

// TestPrometheusRuleHoldsTheRulesFile: the PrometheusRule's spec is
// deploy/prometheus/offsettui-rules.yml, rule for rule.
func TestPrometheusRuleHoldsTheRulesFile(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "deploy", "prometheus", "offsettui-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	linked, err := os.ReadFile(filepath.Join(chartDir, "files", "offsettui-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, linked) {
		t.Error("deploy/helm/offsettui/files/offsettui-rules.yml differs from deploy/prometheus/offsettui-rules.yml: it must be a link to it")
	}
	var want monitoringv1.PrometheusRuleSpec
	if err := yaml.UnmarshalStrict(src, &want); err != nil {
		t.Fatalf("deploy/prometheus/offsettui-rules.yml as a PrometheusRule's spec: %v", err)
	}
	got := decoded[*monitoringv1.PrometheusRule](t, render(t, valueSets(t)["ci/all-values.yaml"]), "PrometheusRule")
	if !reflect.DeepEqual(got.Spec, want) {
		t.Errorf("the PrometheusRule's spec differs from deploy/prometheus/offsettui-rules.yml:\n got %+v\nwant %+v", got.Spec, want)
	}
	var alerts []string
	for _, g := range got.Spec.Groups {
		for _, r := range g.Rules {
			alerts = append(alerts, r.Alert)
		}
	}
	if len(alerts) == 0 {
		t.Fatal("no alert in the PrometheusRule")
	}
	t.Logf("the PrometheusRule holds the file's %d rules: %v", len(alerts), alerts)
}

// structured are the values whose keys the chart defines; the others (resources,
// the security contexts, affinity, …) are Kubernetes' own objects, passed as
// given.
var structured = []string{"", "image.", "serve.", "serviceAccount.", "service.", "serviceMonitor.", "prometheusRule.",
	"livenessProbe.", "readinessProbe."}

// TestEveryValueIsSet: ci/all-values.yaml sets every value of values.yaml, and
// no value the chart does not have.
func TestEveryValueIsSet(t *testing.T) {
	defaults, err := LoadValues(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := LoadValues(allValues)
	if err != nil {
		t.Fatal(err)
	}
	set, changed := 0, 0
	var walk func(prefix string, def, got map[string]any)
	walk = func(prefix string, def, got map[string]any) {
		for k, dv := range def {
			path := prefix + k
			gv, ok := got[k]
			dm, isMap := dv.(map[string]any)
			switch {
			case !ok:
				t.Errorf("ci/all-values.yaml does not set %s", path)
			case isMap && len(dm) > 0:
				gm, _ := gv.(map[string]any)
				walk(path+".", dm, gm)
			default:
				set++
				if !reflect.DeepEqual(dv, gv) {
					changed++
				}
			}
		}
		if slices.Contains(structured, prefix) {
			for k := range got {
				if _, ok := def[k]; !ok {
					t.Errorf("ci/all-values.yaml sets %s%s, which values.yaml does not have", prefix, k)
				}
			}
		}
	}
	walk("", defaults, all)
	t.Logf("%d values set, %d of them to something other than the default", set, changed)
}

func TestManifestsAreCurrent(t *testing.T) {
	want, err := ManifestFiles(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(manifestsDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(p)] = string(b)
	}
	var differ []string
	for _, name := range slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, bool) bool) {
		for k := range got {
			yield(k, true)
		}
		for k := range want {
			yield(k, true)
		}
	}))) {
		if g, ok := got[name]; !ok || g != want[name] {
			differ = append(differ, name)
		}
	}
	if len(differ) > 0 {
		t.Errorf("deploy/kubernetes/ is not what the chart renders (%v differ, are missing or are extra): run `go run ./cmd/chart manifests` in tools/", differ)
	}
}
