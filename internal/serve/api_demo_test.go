package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/offsettui/offsettui/internal/serve"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// serveQuery is what `offsettui serve` reads at each snapshot (cmd/offsettui/serve.go).
var serveQuery = model.Query{RiskWindow: model.DefaultRiskWindow, FetchBudget: model.DefaultFetchBudget, ConfigMaxAge: time.Minute,
	CommitLogCatchUp: true}

// stepClock is a clock a test moves: the snapshots' read times and the exporter's. The
// exporter's wait for its next snapshot ends when the test ticks, and moves the clock by
// the interval.
type stepClock struct {
	mu   sync.Mutex
	now  time.Time
	tick chan struct{}
}

func newStepClock() *stepClock {
	return &stepClock{now: time.Now().UTC().Truncate(time.Millisecond), tick: make(chan struct{})}
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *stepClock) step(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *stepClock) sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-c.tick:
		c.step(d)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// demoExporter starts the demo cluster and an exporter of it with the API, on clk.
func demoExporter(t *testing.T, traffic bool, clk *stepClock) (*serve.Exporter, *kafka.Client) {
	t.Helper()
	d, err := demo.Start(context.Background(), demo.Options{Traffic: traffic})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: d.Bootstrap(), Timeout: 5 * time.Second, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	e, err := serve.New(serve.Options{Targets: []serve.Target{{Cluster: "demo", Source: c}}, Interval: 30 * time.Second,
		Deadline: 20 * time.Second, Query: serveQuery, API: true,
		Clock: sampler.Clock{Now: clk.Now, Sleep: clk.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

// runSnapshots serves the exporter on a port of its own until it has read n snapshots,
// 30 s apart on its clock, then stops it, and returns its address.
func runSnapshots(t *testing.T, e *serve.Exporter, clk *stepClock, n int) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = e.Run(ctx, l) }()
	defer func() { cancel(); <-done }()
	ts := httptest.NewServer(e.Handler())
	t.Cleanup(ts.Close)
	for i := 1; i <= n; i++ {
		if i > 1 {
			clk.tick <- struct{}{}
		}
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(getBody(t, ts.URL+"/metrics"), fmt.Sprintf(`offsettui_snapshots_total{cluster="demo"} %d`, i)) {
			if time.Now().After(deadline) {
				t.Fatalf("the exporter did not read snapshot %d within 60s", i)
			}
			time.Sleep(20 * time.Millisecond) // polling for a state, with a deadline
		}
	}
	return ts.URL
}

func getBody(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// The API's check of every demo group is a direct check's (check --group G [--topic T]
// -o json reading the cluster for that group alone), field for field but the read time:
// with and without --topic (the group's own topics, another group's, one that does not
// exist), for a group that does not exist, each with both auto.offset.reset assumptions.
func TestAPICheckIsADirectCheck(t *testing.T) {
	clk := newStepClock()
	e, c := demoExporter(t, false, clk)
	runSnapshots(t, e, clk, 1)
	r, err := e.Read("")
	if err != nil {
		t.Fatal(err)
	}
	var cases, whole int
	groups := []string{"first-start"}
	for _, g := range r.Snapshot.Groups {
		groups = append(groups, g.Group)
	}
	for _, group := range groups {
		topicSets := [][]string{nil, {"outbox"}, {"orders", "payments"}, {"nosuch"}}
		for _, topics := range topicSets {
			snap, err := c.Snapshot(t.Context(), model.Query{Groups: []string{group}, Topics: topics, WholeTopics: len(topics) > 0,
				RiskWindow: model.DefaultRiskWindow, FetchBudget: model.DefaultFetchBudget})
			if err != nil {
				t.Fatal(err)
			}
			for _, assume := range []string{"earliest", "latest"} {
				opts := check.Options{Topics: topics, AssumeReset: assume, RiskWindow: model.DefaultRiskWindow, RecoveryWindow: time.Hour}
				direct := check.Check(snap, group, opts)
				direct.ExitCode = direct.Verdict.ExitCode()
				served := r.Check(group, serve.CheckQuery{Options: opts})
				served.TakenAt = direct.TakenAt
				got, want := jsonOf(t, served), jsonOf(t, direct)
				switch {
				case got == want:
					whole++
				case slices.Contains(topics, "nosuch"):
					// The server never read a topic no group has a commit on: it cannot
					// tell one that does not exist from one nobody reads. Incomplete both.
					if served.ExitCode != direct.ExitCode || !strings.Contains(served.Summary, "nosuch (--topic) was not read") {
						t.Errorf("%s %v %s: served %d %q, direct %d %q", group, topics, assume, served.ExitCode, served.Summary, direct.ExitCode, direct.Summary)
					}
				case jsonOf(t, judged(served)) != jsonOf(t, judged(direct)):
					t.Errorf("%s %v %s:\nserved %s\ndirect %s", group, topics, assume, got, want)
				}
				cases++
			}
		}
	}
	t.Logf("%d checks compared over %d groups, %d identical in every byte", cases, len(groups), whole)
}

// judged is what a check decides: the verdict and every reason, without the notes that
// say how a partition passes (a read of every group, as serve's, asks a broker for more
// partitions at once, and the fake brokers then leave some out of a read_committed Fetch:
// transaction-markers-unknown, a note).
func judged(r check.Result) any {
	type part struct {
		TP      model.TP
		Low     *int64
		High    *int64
		Pos     *int64
		Status  model.Status
		Result  check.Verdict
		Reasons []check.Reason
	}
	parts := make([]part, len(r.Partitions))
	for i, p := range r.Partitions {
		parts[i] = part{p.TP(), p.Low, p.High, p.Position(), p.Status, p.Result, p.Reasons}
	}
	return []any{r.Group, r.Type, r.State, r.Members, r.Verdict, r.ExitCode, r.Counts, r.Problems, r.Errors, parts}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// openAPISchema compiles the schema named in the API's own OpenAPI document.
func openAPISchema(t *testing.T, doc []byte, name string) *jsonschema.Schema {
	t.Helper()
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("openapi.json", parsed); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("openapi.json#/components/schemas/" + name)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, what string, body []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, body)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not match /api/v1/openapi.json: %v", what, err)
	}
}

// Every answer of the API on the demo, with rates (two snapshots of its traffic), is
// what /api/v1/openapi.json says: every group, each group alone and with a topic, a
// check of each with and without --topic, the errors; and describe's document compared
// with a baseline, which the API does not serve but the same schema describes. Every
// field is required and no other allowed: a field added to a document and not to the
// schema fails here.
func TestAPIAnswersMatchTheSchema(t *testing.T) {
	clk := newStepClock()
	e, c := demoExporter(t, true, clk)
	base := runSnapshots(t, e, clk, 2)
	doc := []byte(getBody(t, base+"/api/v1/openapi.json"))
	if src, err := os.ReadFile("openapi.json"); err != nil || !bytes.Equal(src, doc) {
		t.Fatalf("/api/v1/openapi.json is not internal/serve/openapi.json (%v)", err)
	}
	describe, checkDoc, apiErr := openAPISchema(t, doc, "Describe"), openAPISchema(t, doc, "Check"), openAPISchema(t, doc, "APIError")

	all := getBody(t, base+"/api/v1/groups")
	validate(t, describe, "/api/v1/groups", []byte(all))
	var s model.Snapshot
	if err := json.Unmarshal([]byte(all), &s); err != nil || s.Window == nil || len(s.Groups) < 10 {
		t.Fatalf("/api/v1/groups: %v, window %v, %d groups; want the demo's groups with rates", err, s.Window, len(s.Groups))
	}
	answers := 1
	for _, g := range s.Groups {
		topic := g.Topics()
		paths := []string{"/api/v1/groups/" + url.PathEscape(g.Group), "/api/v1/check/" + url.PathEscape(g.Group),
			"/api/v1/check/" + url.PathEscape(g.Group) + "?assume-reset=earliest&recovery-window=P3D&sample=30s"}
		if len(topic) > 0 {
			paths = append(paths, "/api/v1/groups/"+url.PathEscape(g.Group)+"?topic="+url.QueryEscape(topic[0]),
				"/api/v1/check/"+url.PathEscape(g.Group)+"?topic="+url.QueryEscape(topic[0]), "/api/v1/groups?topic="+url.QueryEscape(topic[0]))
		}
		for _, p := range paths {
			resp, err := http.Get(base + p)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case resp.StatusCode != http.StatusOK:
				t.Errorf("%s: %d %s", p, resp.StatusCode, body)
			case strings.HasPrefix(p, "/api/v1/check/"):
				validate(t, checkDoc, p, body)
			default:
				validate(t, describe, p, body)
			}
			answers++
		}
	}
	for _, p := range []string{"/api/v1/groups/nosuch", "/api/v1/check/x?recovery-window=soon", "/api/v1/groups?cluster=other", "/api/v1/nowhere"} {
		validate(t, apiErr, p, []byte(getBody(t, base+p)))
		answers++
	}
	first, err := c.Snapshot(t.Context(), serveQuery)
	if err != nil {
		t.Fatal(err)
	}
	clk.step(30 * time.Second)
	second, err := c.Snapshot(t.Context(), serveQuery)
	if err != nil {
		t.Fatal(err)
	}
	timeaxis.CompareBaseline(&second, &first, "before.json", nil)
	var b bytes.Buffer
	if err := report.DescribeJSON(&b, second); err != nil {
		t.Fatal(err)
	}
	validate(t, describe, "describe --baseline", b.Bytes())
	t.Logf("%d answers validated", answers+1)
	if !slices.ContainsFunc(second.Groups, func(g model.Group) bool { return g.Change != nil }) {
		t.Errorf("the baseline document has no group change to validate")
	}
}
