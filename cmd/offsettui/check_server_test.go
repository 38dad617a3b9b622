package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/serve"
)

// answering is a stand-in for offsettui serve's /api/v1/check: it answers the check the
// request asks for, judged from snap, read at takenAt.
func answering(t *testing.T, snap model.Snapshot, interval time.Duration, edit func(*check.Result)) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		group := strings.TrimPrefix(r.URL.Path, "/api/v1/check/")
		q, err := serve.ParseCheckQuery(r.URL.Query(), model.DefaultRiskWindow)
		if err != nil {
			t.Errorf("the check asked %s: %v", r.URL, err)
			return
		}
		res := check.Check(snap, group, q.Options)
		res.ExitCode = res.Verdict.ExitCode()
		if edit != nil {
			edit(&res)
		}
		doc, err := serve.CheckDocument(res, "prod", interval)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(doc)
	}))
}

// fleetAt is a snapshot read at at: billing fails (expired), audit passes.
func fleetAt(at time.Time) model.Snapshot {
	orders := model.Topic{Topic: "orders", Partitions: 1, CleanupPolicy: "delete", RetentionMs: model.Ptr(int64(-1)), RetentionBytes: model.Ptr(int64(-1))}
	ok := model.GroupPartition{Topic: "orders", Low: model.Ptr(int64(0)), High: model.Ptr(int64(10)), Committed: model.Ptr(int64(10)),
		Lag: model.Ptr(int64(0)), Status: model.StatusOK}
	expired := ok
	expired.Low, expired.Committed, expired.Lag, expired.Status = model.Ptr(int64(5)), model.Ptr(int64(2)), model.Ptr(int64(8)), model.StatusExpired
	expired.SetLost(model.Ptr(int64(3)))
	return model.Snapshot{Cluster: model.Cluster{TakenAt: model.Stamp{Time: at}, AllTopicsVisible: model.Ptr(true)},
		Topics: []model.Topic{orders},
		Groups: []model.Group{{Group: "billing", Type: model.TypeClassic, State: "Empty", Members: []model.Member{}, Partitions: []model.GroupPartition{expired}},
			{Group: "audit", Type: model.TypeClassic, State: "Empty", Members: []model.Member{}, Partitions: []model.GroupPartition{ok}}}}
}

func runCheck(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"check"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// check --server gives the server's verdict and exit code, and -o json the document of a
// direct check (without the server's cluster and interval).
func TestCheckServerVerdicts(t *testing.T) {
	ts := answering(t, fleetAt(time.Now()), 30*time.Second, nil)
	defer ts.Close()
	for group, want := range map[string]int{"audit": 0, "billing": 1, "nosuch": 2} {
		code, out, stderr := runCheck(t, "--server", ts.URL, "--group", group)
		if code != want {
			t.Errorf("%s: exit %d, want %d\n%s%s", group, code, want, out, stderr)
		}
	}
	code, out, _ := runCheck(t, "--server", ts.URL+"/", "--group", "billing", "--topic", "orders", "--assume-reset", "earliest", "--recovery-window", "P3D", "-o", "json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 {
		t.Fatalf("-o json: exit %d %v\n%s", code, err, out)
	}
	if _, has := doc["intervalMs"]; has || doc["verdict"] != "fail" || doc["exitCode"] != float64(1) {
		t.Errorf("-o json: %s; want check's own document, fail, exit 1", out)
	}
	opts := doc["options"].(map[string]any)
	if opts["assumeReset"] != "earliest" || opts["recoveryWindowMs"] != float64(72*3600*1000) || len(opts["topics"].([]any)) != 1 {
		t.Errorf("the server was not asked with check's flags: options %v", opts)
	}
}

// Fail closed: a snapshot older than --max-age (or twice the server's interval), by this
// clock or the server's; a server that does not answer within --timeout, answers an
// error, is not there, or answers another question: incomplete, exit 2, never a pass.
func TestCheckServerFailsClosed(t *testing.T) {
	old := answering(t, fleetAt(time.Now().Add(-90*time.Second)), 30*time.Second, nil)
	defer old.Close()
	code, out, stderr := runCheck(t, "--server", old.URL, "--group", "audit")
	if code != 2 || !strings.Contains(out, "INCOMPLETE audit") || !strings.Contains(stderr, "older than twice the server's interval of 30s (--max-age) 1m") {
		t.Errorf("snapshot 90s old, interval 30s: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCheck(t, "--server", old.URL, "--group", "audit", "--max-age", "2m"); code != 0 {
		t.Errorf("--max-age 2m: exit %d\n%s%s", code, out, stderr)
	}

	// The server's clock is ahead: its Date says the snapshot is old although this one's says not.
	skew := answering(t, fleetAt(time.Now()), 30*time.Second, nil)
	skewed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", time.Now().Add(5*time.Minute).UTC().Format(http.TimeFormat))
		skew.Config.Handler.ServeHTTP(w, r)
	}))
	defer skew.Close()
	defer skewed.Close()
	if code, _, stderr := runCheck(t, "--server", skewed.URL, "--group", "audit"); code != 2 || !strings.Contains(stderr, "older than") {
		t.Errorf("server's Date 5m after the snapshot: exit %d %s", code, stderr)
	}

	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer hung.Close()
	defer close(release)
	start := time.Now()
	code, _, stderr = runCheck(t, "--server", hung.URL, "--group", "audit", "--timeout", "300ms")
	if took := time.Since(start); code != 2 || !strings.Contains(stderr, "did not answer within --timeout 300ms") || took > 5*time.Second {
		t.Errorf("a server that does not answer: exit %d after %s: %s", code, took, stderr)
	}

	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"status":503,"message":"cluster prod cannot be read: dial tcp: connection refused"}`, http.StatusServiceUnavailable)
	}))
	defer unavailable.Close()
	if code, out, stderr := runCheck(t, "--server", unavailable.URL, "--group", "audit"); code != 2 || !strings.Contains(stderr, "connection refused") ||
		!strings.Contains(out, "INCOMPLETE") {
		t.Errorf("503: exit %d\n%s%s", code, out, stderr)
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	if code, _, _ := runCheck(t, "--server", gone.URL, "--group", "audit"); code != 2 {
		t.Errorf("no server: exit %d, want 2", code)
	}
	liar := answering(t, fleetAt(time.Now()), 30*time.Second, func(r *check.Result) { r.Options.AssumeReset = model.ResetEarliest })
	defer liar.Close()
	if code, _, stderr := runCheck(t, "--server", liar.URL, "--group", "audit"); code != 2 || !strings.Contains(stderr, "another question") {
		t.Errorf("an answer to another question: exit %d %s", code, stderr)
	}
}

// What check --server cannot use is bad input, named.
func TestCheckServerBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--server", "kafka:9092", "--group", "g"},
		{"--server", "http://s:9308", "--group", "g", "--bootstrap-server", "k:9092"},
		{"--server", "http://s:9308", "--group", "g", "--interval", "5s"},
		{"--server", "http://s:9308", "--group", "g", "--max-age", "0s"},
		{"--server", "http://s:9308", "--group", "g", "--commit-log", "off"},
		{"--max-age", "1m", "--group", "g"},
	} {
		if code, _, stderr := runCheck(t, args...); code != 2 || !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d %q, want 2 naming the flag", args, code, stderr)
		}
	}
}
