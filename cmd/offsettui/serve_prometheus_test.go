package main

// A real Prometheus, built from its own module (.ci/run builds it), scrapes
// `offsettui serve --demo` and evaluates the shipped rules
// (deploy/prometheus/offsettui-rules.yml); promtool checks and unit-tests the
// rules. The binaries are named by OFFSETTUI_PROMETHEUS and OFFSETTUI_PROMTOOL;
// without them these tests skip, unless OFFSETTUI_REQUIRE_PROMETHEUS=1 (CI),
// which makes their absence a failure.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

const rulesFile = "../../deploy/prometheus/offsettui-rules.yml"

// prometheusBinary returns the path the environment variable env names,
// skipping the test when it is unset (failing under
// OFFSETTUI_REQUIRE_PROMETHEUS=1).
func prometheusBinary(t *testing.T, env string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		if os.Getenv("OFFSETTUI_REQUIRE_PROMETHEUS") == "1" {
			t.Fatalf("%s is not set and OFFSETTUI_REQUIRE_PROMETHEUS=1: build it (see .ci/run) and name it", env)
		}
		t.Skipf("%s is not set: no Prometheus to test the rules with (.ci/run builds one)", env)
	}
	if st, err := os.Stat(path); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("%s=%s: not an executable (%v)", env, path, err)
	}
	return path
}

// promtool check rules accepts the rules file, and its unit tests
// (offsettui-rules.test.yml: every alert, with its exact text) pass.
func TestPrometheusRulesCheck(t *testing.T) {
	tool := prometheusBinary(t, "OFFSETTUI_PROMTOOL")
	for _, args := range [][]string{
		{"check", "rules", rulesFile},
		{"test", "rules", "../../deploy/prometheus/offsettui-rules.test.yml"},
	} {
		out, err := exec.Command(tool, args...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "SUCCESS") {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		} else {
			t.Logf("promtool %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
		}
	}
}

// alert is one alert of Prometheus' /api/v1/alerts.
type alert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	State       string            `json:"state"`
}

// Prometheus scrapes serve --demo every second and evaluates the shipped
// rules: the data-loss alert fires for event-sink (retention is about to
// delete what it has not read), the expired alert for fanout (and the share
// group mail-queue: both committed below the log start), and no alert, firing
// or pending, names a healthy group. A second serve of the demo (job chosen)
// exports only event-sink and fanout, with one lag series per topic
// (--include-group, --granularity topic): the same alerts fire for those two
// from it, none for another group, and no lag series of it has a partition label.
func TestPrometheusScrapesDemo(t *testing.T) {
	prom := prometheusBinary(t, "OFFSETTUI_PROMETHEUS")
	hermetic(t)
	s := startServe(t, "--demo", "--interval", "1s", "--stall-after", "5s")
	chosen := startServe(t, "--demo", "--interval", "1s", "--stall-after", "5s",
		"--include-group", "event-sink", "--include-group", "fan.*", "--granularity", "topic")
	for _, x := range []*served{s, chosen} {
		x.waitFor(t, 90*time.Second, "/readyz 200", func() bool { code, _ := x.get("/readyz"); return code == http.StatusOK })
	}

	dir := t.TempDir()
	rules, err := filepath.Abs(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: [%q]\n"+
		"scrape_configs:\n  - job_name: offsettui\n    static_configs:\n      - targets: [%q]\n"+
		"  - job_name: chosen\n    static_configs:\n      - targets: [%q]\n", rules, s.addr, chosen.addr)
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	promAddr := freeAddr(t)
	var log bytes.Buffer
	cmd := exec.Command(prom, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+promAddr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcess(t, cmd) })

	want := map[string][]string{
		"OffsettuiDataLossPredicted": {"event-sink"},
		"OffsettuiOffsetsExpired":    {"fanout", "mail-queue"},
	}
	wantChosen := map[string][]string{
		"OffsettuiDataLossPredicted": {"event-sink"},
		"OffsettuiOffsetsExpired":    {"fanout"},
	}
	var alerts []alert
	deadline := time.Now().Add(2 * time.Minute)
	for {
		alerts = promAlerts(t, promAddr)
		if firingFor(alerts, want) && firingFor(ofJob(alerts, "chosen"), wantChosen) || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if !firingFor(alerts, want) || !firingFor(ofJob(alerts, "chosen"), wantChosen) {
		t.Fatalf("want firing %v, and %v from job chosen, within 2 minutes; alerts: %+v\nPrometheus: %s\nserve: %s\nchosen: %s",
			want, wantChosen, alerts, log.String(), s.stderr.String(), chosen.stderr.String())
	}
	// Past --stall-after, so the idle groups are evaluated (stopped) as they
	// will stay, and healthy groups still have no alert.
	time.Sleep(6 * time.Second)
	alerts = promAlerts(t, promAddr)
	healthy := []string{"ship-svc", "r11-trace", "ledger", "click-etl"}
	for _, a := range alerts {
		if slices.Contains(healthy, a.Labels["group"]) {
			t.Errorf("a healthy group has an alert (%s): %+v", a.State, a)
		}
		if a.Labels["alertname"] == "OffsettuiClusterUnreadable" {
			t.Errorf("the demo cluster is readable: %+v", a)
		}
	}
	for _, a := range alerts {
		if a.State == "firing" && a.Labels["group"] == "event-sink" && a.Labels["alertname"] == "OffsettuiDataLossPredicted" {
			if sum := a.Annotations["summary"]; !strings.Contains(sum, "`offsettui --demo`") || !strings.Contains(sum, "`:g event-sink`") {
				t.Errorf("the summary does not say what to open: %q", sum)
			}
			t.Logf("%s: %s", a.Labels["alertname"], a.Annotations["summary"])
		}
	}
	for _, a := range ofJob(alerts, "chosen") {
		if g := a.Labels["group"]; g != "" && g != "event-sink" && g != "fanout" {
			t.Errorf("job chosen exports only event-sink and fanout, yet an alert names %s: %+v", g, a)
		}
	}
	names := map[string]int{}
	for _, a := range alerts {
		names[a.Labels["job"]+"/"+a.Labels["alertname"]+"/"+a.State]++
	}
	t.Logf("alerts on the demo: %v", names)
	chosenSeries(t, promAddr)
	dashboardQueries(t, promAddr)
}

// ofJob is the alerts of the series of one scrape job.
func ofJob(alerts []alert, job string) []alert {
	var out []alert
	for _, a := range alerts {
		if a.Labels["job"] == job {
			out = append(out, a)
		}
	}
	return out
}

// chosenSeries: job chosen has series of event-sink and fanout only, one lag series per
// group and topic, and no series with lag in its name carries a partition label.
func chosenSeries(t *testing.T, promAddr string) {
	t.Helper()
	groups := map[string]bool{}
	for _, r := range promQuery(t, promAddr, `{job="chosen", group!=""}`) {
		groups[r["group"]] = true
	}
	if fmt.Sprint(groups) != "map[event-sink:true fanout:true]" {
		t.Errorf("job chosen has series of the groups %v, want event-sink and fanout", groups)
	}
	perTopic := map[string]int{}
	for _, r := range promQuery(t, promAddr, `offsettui_group_topic_lag{job="chosen"}`) {
		perTopic[r["group"]+"/"+r["topic"]]++
	}
	if len(perTopic) < 2 {
		t.Errorf("job chosen: topic lag series %v, want one per group and topic", perTopic)
	}
	for k, n := range perTopic {
		if n != 1 {
			t.Errorf("job chosen: %d lag series of %s, want one", n, k)
		}
	}
	if rs := promQuery(t, promAddr, `{job="chosen", __name__=~".*lag.*", partition!=""}`); len(rs) > 0 {
		t.Errorf("job chosen: lag series with a partition label: %v", rs)
	}
	if rs := promQuery(t, promAddr, `{job="offsettui", __name__="offsettui_group_topic_lag"}`); len(rs) > 0 {
		t.Errorf("job offsettui (--granularity partition) has topic lag series: %v", rs)
	}
	t.Logf("job chosen: groups %v, topic lag series %v", groups, perTopic)
}

// promQuery runs an instant query and returns each result's labels.
func promQuery(t *testing.T, promAddr, q string) []map[string]string {
	t.Helper()
	resp, err := http.Get("http://" + promAddr + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Status != "success" {
		t.Fatalf("query %s: %v %s", q, err, body.Error)
	}
	out := make([]map[string]string, len(body.Data.Result))
	for i, r := range body.Data.Result {
		out[i] = r.Metric
	}
	return out
}

// dashboardQueries runs every query of the Grafana dashboard (its variables
// set to "all") on Prometheus: each must be valid, and each panel must show
// something on the demo.
func dashboardQueries(t *testing.T, promAddr string) {
	t.Helper()
	b, err := os.ReadFile("../../deploy/grafana/offsettui.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	vars := strings.NewReplacer("$cluster", ".*", "$group", ".*")
	for _, p := range dash.Panels {
		shown := 0
		for _, target := range p.Targets {
			q := vars.Replace(target.Expr)
			resp, err := http.Get("http://" + promAddr + "/api/v1/query?query=" + url.QueryEscape(q))
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Status string `json:"status"`
				Error  string `json:"error"`
				Data   struct {
					Result []json.RawMessage `json:"result"`
				} `json:"data"`
			}
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if err != nil || body.Status != "success" {
				t.Errorf("panel %q: %s: %v %s", p.Title, q, err, body.Error)
			}
			shown += len(body.Data.Result)
		}
		if len(p.Targets) > 0 && shown == 0 {
			t.Errorf("panel %q shows nothing on the demo", p.Title)
		}
	}
}

// firingFor reports whether every alert of want fires for each of its groups.
func firingFor(alerts []alert, want map[string][]string) bool {
	for name, groups := range want {
		for _, g := range groups {
			if !slices.ContainsFunc(alerts, func(a alert) bool {
				return a.State == "firing" && a.Labels["alertname"] == name && a.Labels["group"] == g
			}) {
				return false
			}
		}
	}
	return true
}

// promAlerts reads Prometheus' alerts (none while it starts).
func promAlerts(t *testing.T, addr string) []alert {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/v1/alerts")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return nil // Prometheus is still starting ("Service Unavailable"): asked again
	}
	var body struct {
		Status string `json:"status"`
		Data   struct {
			Alerts []alert `json:"alerts"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Status != "success" {
		t.Fatalf("/api/v1/alerts: %v %q", err, body.Status)
	}
	return body.Data.Alerts
}

// stopProcess ends cmd with SIGTERM, and kills it if it lingers.
func stopProcess(t *testing.T, cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		t.Errorf("prometheus did not stop within 15s of SIGTERM")
	}
}
