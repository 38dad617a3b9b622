package serve

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
)

func newAPIExporter(t *testing.T, clk *fixedClock, targets ...Target) *Exporter {
	t.Helper()
	e, err := New(Options{Targets: targets, Interval: 30 * time.Second, Deadline: 20 * time.Second, Clock: clk.clock(), API: true})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// request sends one request and returns the recorder.
func request(e *Exporter, method, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	return rec
}

// apiFleet is a snapshot of two groups: billing fails its check (an expired partition),
// audit passes.
func apiFleet(at time.Time) model.Snapshot {
	s := snapshotAt(at,
		group("billing", 1, part("orders", 0, 90, 100, model.StatusExpired)),
		group("audit", 0, part("orders", 0, 100, 100, model.StatusOK)))
	s.Groups[0].Partitions[0].SetLost(model.Ptr(int64(10)))
	s.Groups[0].Partitions[0].Low = model.Ptr(int64(100))
	s.Topics = []model.Topic{{Topic: "orders", Partitions: 1, CleanupPolicy: "delete", RetentionMs: model.Ptr(int64(-1)),
		RetentionBytes: model.Ptr(int64(-1))}}
	s.Cluster.AllTopicsVisible = model.Ptr(true)
	return s
}

func checkOf(t *testing.T, rec *httptest.ResponseRecorder) (check.Result, map[string]any) {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("check: %d %s", rec.Code, rec.Body)
	}
	var r check.Result
	var raw map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	return r, raw
}

// The API answers 503 before the first snapshot, then the snapshot: every group, one
// group (404 for one it does not hold), a check of each, whatever the verdict with 200.
func TestAPIAnswers(t *testing.T) {
	clk := &fixedClock{now: t0}
	src := &scripted{snap: apiFleet(t0)}
	e := newAPIExporter(t, clk, Target{Cluster: "prod", Source: src})
	for _, path := range []string{"/api/v1/groups", "/api/v1/groups/billing", "/api/v1/check/billing"} {
		if rec := request(e, http.MethodGet, path); rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "first snapshot") {
			t.Errorf("%s before the first snapshot: %d %s, want 503", path, rec.Code, rec.Body)
		}
	}
	e.pollers[0].take(t.Context())

	rec := request(e, http.MethodGet, "/api/v1/groups")
	var s model.Snapshot
	if err := json.Unmarshal(rec.Body.Bytes(), &s); rec.Code != http.StatusOK || err != nil || len(s.Groups) != 2 || !s.Cluster.TakenAt.Equal(t0) {
		t.Fatalf("/api/v1/groups: %d %v %s", rec.Code, err, rec.Body)
	}
	if lm := rec.Header().Get("Last-Modified"); lm != t0.Format(http.TimeFormat) {
		t.Errorf("Last-Modified %q, want the snapshot's read time %q", lm, t0.Format(http.TimeFormat))
	}
	rec = request(e, http.MethodGet, "/api/v1/groups?group=audit")
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil || len(s.Groups) != 1 || s.Groups[0].Group != "audit" {
		t.Errorf("?group=audit: %s", rec.Body)
	}
	if rec = request(e, http.MethodGet, "/api/v1/groups/nosuch"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"status":404`) {
		t.Errorf("/api/v1/groups/nosuch: %d %s, want 404", rec.Code, rec.Body)
	}

	fail, raw := checkOf(t, request(e, http.MethodGet, "/api/v1/check/billing"))
	if fail.Verdict != check.VerdictFail || fail.ExitCode != 1 || raw["intervalMs"] != float64(30000) || raw["cluster"] != "prod" {
		t.Errorf("billing: verdict %s exit %d intervalMs %v cluster %v, want fail, 1, 30000, prod", fail.Verdict, fail.ExitCode, raw["intervalMs"], raw["cluster"])
	}
	if pass, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit")); pass.Verdict != check.VerdictPass || pass.ExitCode != 0 {
		t.Errorf("audit: %s exit %d, want pass 0: %s", pass.Verdict, pass.ExitCode, pass.Summary)
	}
	// A group the snapshot does not hold: nothing to check without --topic, a first start with it.
	if none, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/newsvc")); none.Verdict != check.VerdictIncomplete || none.ExitCode != 2 ||
		!strings.Contains(none.Summary, "does not exist") {
		t.Errorf("newsvc: %s exit %d %q, want incomplete 2, the group does not exist", none.Verdict, none.ExitCode, none.Summary)
	}
	first, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/newsvc?topic=orders&assume-reset=latest"))
	if first.Verdict != check.VerdictFail || len(first.Partitions) != 1 || first.Partitions[0].Status != model.StatusMissing {
		t.Errorf("newsvc --topic orders, latest: %s %q, want fail on orders-0 missing (latest skips the stored records)", first.Verdict, first.Summary)
	}
}

// Every check flag is a parameter; a misspelt or repeated one is refused (400), not read as
// its default; every method but GET is refused (405).
func TestAPIParameters(t *testing.T) {
	clk := &fixedClock{now: t0}
	e := newAPIExporter(t, clk, Target{Cluster: "prod", Source: &scripted{snap: apiFleet(t0)}})
	e.pollers[0].take(t.Context())
	r, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit?topic=orders&recovery-window=P3D&assume-reset=earliest&ignore-missed-deletes=true&commit-log=on&risk-window=24h"))
	o := r.Options
	if len(o.Topics) != 1 || o.RecoveryWindow != 72*time.Hour || o.AssumeReset != "earliest" || !o.IgnoreMissedDeletes || !o.RequireCommitTimes || o.RiskWindow != 24*time.Hour {
		t.Errorf("options %+v, want every parameter read", o)
	}
	for _, path := range []string{"/api/v1/check/audit?recovery_window=3d", "/api/v1/check/audit?recovery-window=soon",
		"/api/v1/check/audit?assume-reset=sometimes", "/api/v1/check/audit?recovery-window=1d&recovery-window=2d",
		"/api/v1/check/audit?topic=", "/api/v1/groups?grup=a", "/api/v1/groups/audit?group=x", "/api/v1/check/audit?commit-log=off"} {
		if rec := request(e, http.MethodGet, path); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", path, rec.Code, rec.Body)
		}
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		for _, path := range []string{"/api/v1/groups", "/api/v1/groups/audit", "/api/v1/check/audit"} {
			if rec := request(e, m, path); rec.Code != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405", m, path, rec.Code)
			}
		}
	}
	if rec := request(e, http.MethodGet, "/api/v2/groups"); rec.Code != http.StatusNotFound {
		t.Errorf("/api/v2/groups: %d, want 404", rec.Code)
	}
}

// An answer carries an ETag: asked again with it, 304 until the next snapshot, then the
// new document. Another question has another ETag.
func TestAPIETag(t *testing.T) {
	clk := &fixedClock{now: t0}
	src := &scripted{snap: apiFleet(t0)}
	e := newAPIExporter(t, clk, Target{Cluster: "prod", Source: src})
	e.pollers[0].take(t.Context())
	for _, path := range []string{"/api/v1/groups", "/api/v1/groups/audit", "/api/v1/check/audit"} {
		tag := request(e, http.MethodGet, path).Header().Get("ETag")
		if tag == "" {
			t.Fatalf("%s: no ETag", path)
		}
		if rec := request(e, http.MethodGet, path, "If-None-Match", tag); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("%s with its ETag: %d, want 304 without a body", path, rec.Code)
		}
		if other := request(e, http.MethodGet, path+"?topic=orders").Header().Get("ETag"); other == tag {
			t.Errorf("%s: another question, the same ETag %s", path, tag)
		}
		clk.now = clk.now.Add(30 * time.Second)
		src.snap = apiFleet(clk.now)
		e.pollers[0].take(t.Context())
		if rec := request(e, http.MethodGet, path, "If-None-Match", tag); rec.Code != http.StatusOK || rec.Header().Get("ETag") == tag {
			t.Errorf("%s after the next snapshot: %d, ETag %s again; want 200 and a new ETag", path, rec.Code, tag)
		}
	}
}

// A cluster whose last snapshot failed: /groups answers 503 with the error, never the last
// good data; a check is incomplete (exit 2) and says why. Several clusters: ?cluster=
// names one, and a name the server does not serve is 404.
func TestAPIUnreadableAndSeveralClusters(t *testing.T) {
	clk := &fixedClock{now: t0}
	prod := &scripted{snap: apiFleet(t0)}
	e := newAPIExporter(t, clk, Target{Cluster: "prod", Source: prod}, Target{Cluster: "staging", Source: &scripted{snap: apiFleet(t0)}})
	for _, p := range e.pollers {
		p.take(t.Context())
	}
	if rec := request(e, http.MethodGet, "/api/v1/groups"); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "prod, staging") {
		t.Errorf("two clusters, none named: %d %s, want 400 naming them", rec.Code, rec.Body)
	}
	if rec := request(e, http.MethodGet, "/api/v1/groups?cluster=dev"); rec.Code != http.StatusNotFound {
		t.Errorf("?cluster=dev: %d, want 404", rec.Code)
	}
	prod.err = errors.New("dial tcp 10.0.0.1:9092: connection refused")
	clk.now = clk.now.Add(30 * time.Second)
	e.pollers[0].take(t.Context())
	if rec := request(e, http.MethodGet, "/api/v1/groups?cluster=prod"); rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "connection refused") {
		t.Errorf("prod unreadable: %d %s, want 503 with the error", rec.Code, rec.Body)
	}
	r, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit?cluster=prod"))
	if r.Verdict != check.VerdictIncomplete || r.ExitCode != 2 || !strings.Contains(r.Summary, "connection refused") || len(r.Partitions) != 0 {
		t.Errorf("check on an unreadable cluster: %s %d %q, want incomplete, exit 2, the error", r.Verdict, r.ExitCode, r.Summary)
	}
	if r, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit?cluster=staging")); r.Verdict != check.VerdictPass {
		t.Errorf("staging: %s, want pass", r.Verdict)
	}
}

// The server decides at-risk with its own risk window: a check that asks another is
// incomplete; one that asks for rates the server has not measured long enough is too.
func TestAPICheckRefusesWhatTheSnapshotCannotSay(t *testing.T) {
	clk := &fixedClock{now: t0}
	e := newAPIExporter(t, clk, Target{Cluster: "prod", Source: &scripted{snap: apiFleet(t0)}})
	e.pollers[0].take(t.Context())
	r, _ := checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit?risk-window=12h"))
	if r.Verdict != check.VerdictIncomplete || len(r.Problems) != 1 || r.Problems[0].Code != check.CodeRiskWindowDiffers {
		t.Errorf("risk-window 12h on a 24h server: %s %+v, want incomplete %s", r.Verdict, r.Problems, check.CodeRiskWindowDiffers)
	}
	r, _ = checkOf(t, request(e, http.MethodGet, "/api/v1/check/audit?sample=1m"))
	if r.Verdict != check.VerdictIncomplete || len(r.Problems) != 1 || r.Problems[0].Code != check.CodeRatesTooShort {
		t.Errorf("sample 1m after one snapshot: %s %+v, want incomplete %s", r.Verdict, r.Problems, check.CodeRatesTooShort)
	}
}
