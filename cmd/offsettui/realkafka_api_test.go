package main

// serve's read API and check --server on the real broker (docs/api.md): the answer of a
// running serve is the answer of a direct check, and a server that cannot read its
// cluster, or whose snapshot is too old, never passes a start-up gate.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// checkOutcome is a check's exit code and verdict.
type checkOutcome struct {
	code    int
	verdict check.Verdict
	summary string
}

// runCheckJSON runs check -o json in-process.
func runCheckJSON(t *testing.T, args ...string) checkOutcome {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(append([]string{"check"}, args...), "-o", "json"), &out, &errb)
	var r check.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("check %v: exit %d, not JSON: %v\n%s%s", args, code, err, out.String(), errb.String())
	}
	return checkOutcome{code, r.Verdict, r.Summary}
}

// apiCheck asks serve's /api/v1/check/G with check's flags.
func (s *served) apiCheck(t *testing.T, group string, q url.Values) checkOutcome {
	t.Helper()
	resp, err := http.Get("http://" + s.addr + "/api/v1/check/" + url.PathEscape(group) + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r check.Result
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/api/v1/check/%s: %d %v", group, resp.StatusCode, err)
	}
	return checkOutcome{r.ExitCode, r.Verdict, r.Summary}
}

// TestRealKafkaServeCheck: serve holds the broker's fleet; for a passing group, a failing
// group (expired), a group that does not exist (nothing to check) and its first start
// (--topic, earliest), /api/v1/check/G and check --server give the exit code and verdict of a
// direct check --group G. With serve's connection to the broker cut (the fault proxy), and
// with a snapshot older than --max-age, check --server exits 2.
func TestRealKafkaServeCheck(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	base := realkafka.Name("api")
	ok, lossy := base+"-ok", base+"-lossy"
	s.CreateTopic(ok, 2, nil)
	s.CreateTopic(lossy, 1, nil)
	now := func(int) time.Time { return time.Now() }
	for p := range int32(2) {
		s.ProduceN(ok, p, 5, now)
	}
	s.ProduceN(lossy, 0, 10, now)
	if err := s.DeleteRecords(lossy, 0, 6); err != nil {
		t.Fatal(err)
	}
	pass, fail, absent := base+"-pass", base+"-fail", base+"-absent"
	s.Commit(pass, map[model.TP]int64{tpOf(ok, 0): 5, tpOf(ok, 1): 3})
	s.Commit(fail, map[model.TP]int64{tpOf(lossy, 0): 2})

	p, _ := proxied(t, addr)
	srv := startServe(t, "--bootstrap-server", p.Addrs()[0], "--interval", "2s", "--timeout", "5s")
	srv.waitFor(t, 90*time.Second, "serve's snapshot holds both groups", func() bool {
		code, body := srv.get("/api/v1/groups?group=" + pass + "&group=" + fail)
		return code == http.StatusOK && strings.Contains(body, `"group":"`+pass+`"`) && strings.Contains(body, `"group":"`+fail+`"`)
	})
	server := "http://" + srv.addr
	for _, c := range []struct {
		name  string
		group string
		flags []string
		want  int
	}{
		{"passing", pass, nil, 0},
		{"failing", fail, nil, 1},
		{"incomplete", absent, nil, 2},
		{"first start", absent, []string{"--topic", ok, "--assume-reset", "earliest"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--group", c.group}, c.flags...)
			direct := runCheckJSON(t, append([]string{"--bootstrap-server", addr}, args...)...)
			// --max-age 1m: serve reads the shared broker's every group, which takes seconds on a
			// loaded machine; a snapshot too old is the case below.
			viaServer := runCheckJSON(t, append([]string{"--server", server, "--max-age", "1m"}, args...)...)
			q := url.Values{}
			for i := 0; i+1 < len(c.flags); i += 2 {
				q.Add(strings.TrimPrefix(c.flags[i], "--"), c.flags[i+1])
			}
			api := srv.apiCheck(t, c.group, q)
			t.Logf("direct %d %s | check --server %d %s | API %d %s", direct.code, direct.summary, viaServer.code, viaServer.summary, api.code, api.summary)
			for name, o := range map[string]checkOutcome{"direct": direct, "check --server": viaServer, "the API": api} {
				if o.code != c.want || o.verdict != direct.verdict {
					t.Errorf("%s: exit %d %s, want %d %s (a direct check's)", name, o.code, o.verdict, c.want, direct.verdict)
				}
			}
		})
	}

	// A snapshot older than --max-age: incomplete, whatever it says.
	realkafka.WaitUntil(t, 20*time.Second, "check --server --max-age 1s finds the snapshot too old", func() (bool, string) {
		o := runCheckJSON(t, "--server", server, "--group", pass, "--max-age", "1s")
		return o.code == 2 && strings.Contains(o.summary, "older than --max-age"), o.summary
	})

	// serve's connection to the cluster cut: its next snapshot fails, and the gate says 2.
	cut := p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: faultproxy.AnyKey, Action: faultproxy.CutBefore})
	defer cut.Remove()
	srv.waitFor(t, 60*time.Second, "serve's snapshot fails with its connection cut", func() bool {
		return len(withPrefix(srv.metrics(t), "offsettui_up{cluster=\""+p.Addrs()[0]+"\"} 0")) == 1
	})
	o := runCheckJSON(t, "--server", server, "--group", pass)
	if o.code != 2 || o.verdict != check.VerdictIncomplete || !strings.Contains(o.summary, "cannot be read") {
		t.Errorf("serve cut from its cluster: exit %d %s %q, want 2, incomplete, cannot be read", o.code, o.verdict, o.summary)
	}
	if code, body := srv.get("/api/v1/groups"); code != http.StatusServiceUnavailable {
		t.Errorf("/api/v1/groups with the cluster cut: %d %s, want 503", code, body)
	}
}
