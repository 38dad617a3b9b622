package main

// offsettui mcp driven by an MCP client this project did not write (the Python SDK, PyPI's
// mcp: test/mcp/client.py), on the real broker (docs/api.md): every tool answers the JSON of
// describe, check and reset's dry run for the same cluster, and no tool, whatever its
// arguments, moves an offset.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// mcpPython is the Python with the mcp package that .ci/run installs (OFFSETTUI_MCP_PYTHON);
// the test is skipped without it, and fails under OFFSETTUI_REQUIRE_MCP=1.
func mcpPython(t *testing.T) string {
	t.Helper()
	py := os.Getenv("OFFSETTUI_MCP_PYTHON")
	if py == "" {
		if os.Getenv("OFFSETTUI_REQUIRE_MCP") == "1" {
			t.Fatal("OFFSETTUI_MCP_PYTHON is not set and OFFSETTUI_REQUIRE_MCP=1: .ci/run installs the mcp client and names its Python")
		}
		t.Skip("OFFSETTUI_MCP_PYTHON is not set: no MCP client to drive offsettui mcp with (.ci/run installs one)")
	}
	return py
}

// mcpCall is one call of test/mcp/client.py and what it answered.
type mcpCall struct {
	Tool       string         `json:"tool"`
	Arguments  map[string]any `json:"arguments"`
	IsError    bool           `json:"isError"`
	Text       []string       `json:"text"`
	Structured any            `json:"structured"`
}

type mcpSession struct {
	Tools []struct {
		Name      string   `json:"name"`
		ReadOnly  bool     `json:"readOnly"`
		Arguments []string `json:"arguments"`
	} `json:"tools"`
	Calls []mcpCall `json:"calls"`
}

// driveMCP runs the Python client with a spec (the server and the calls) and returns what it saw.
func driveMCP(t *testing.T, py string, server map[string]any, calls []mcpCall) mcpSession {
	t.Helper()
	spec := map[string]any{"calls": calls}
	for k, v := range server {
		spec[k] = v
	}
	b, _ := json.Marshal(spec)
	path := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "../../test/mcp/client.py", path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("test/mcp/client.py: %v\n%s", err, errb.String())
	}
	var s mcpSession
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("test/mcp/client.py printed what is not JSON: %v\n%s", err, out.String())
	}
	return s
}

// commandJSON runs an offsettui command in-process with -o json and returns its document.
func commandJSON(t *testing.T, args ...string) any {
	t.Helper()
	var out, errb bytes.Buffer
	run(append(args, "-o", "json"), &out, &errb)
	var v any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("%v: not JSON: %v\n%s%s", args, err, out.String(), errb.String())
	}
	return v
}

// volatile are the fields that say when a document was read, or count from then: two reads
// a moment apart differ in them and nothing else.
var volatile = map[string]bool{"takenAt": true, "readAt": true, "expiresInMs": true, "timeLagMs": true, "expiringInMs": true, "latest": true,
	"deadlineMs": true}

// differsStamp is the instant a --by-duration plan counted back from, which its Kafka
// command's differences name (plan.KafkaEquivalent): it is when the plan was made.
var differsStamp = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z`)

func stable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if d, ok := e.([]any); ok && k == "differs" {
				masked := make([]any, len(d))
				for i, s := range d {
					masked[i] = differsStamp.ReplaceAllString(fmt.Sprint(s), "TIME")
				}
				e = masked
			}
			if !volatile[k] {
				out[k] = stable(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stable(e)
		}
		return out
	}
	return v
}

// cliArgs turns a tool's arguments into the command's flags.
func cliArgs(a map[string]any) []string {
	var out []string
	for k, v := range a {
		switch x := v.(type) {
		case bool:
			if x {
				out = append(out, "--"+k)
			}
		case []any:
			for _, e := range x {
				out = append(out, "--"+k, e.(string))
			}
		case float64:
			out = append(out, "--"+k, strings.TrimSuffix(strings.TrimRight(strings.TrimRight(jsonNum(x), "0"), "."), "."))
		default:
			out = append(out, "--"+k, v.(string))
		}
	}
	return out
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) + "." }

// TestRealKafkaMCP: the Python SDK's client starts offsettui mcp (stdio) on the real broker,
// lists the eight tools, calls each with every argument it takes, and gets the JSON of
// describe --group, check and reset/delete-offsets/delete-group without --execute for the
// same cluster; a call with two strategies or an "execute" argument is refused. Every
// group's commits are the same after as before, and a group planned for that does not
// exist still does not. The same client over serve's /mcp gets the same answers.
func TestRealKafkaMCP(t *testing.T) {
	py := mcpPython(t)
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	base := realkafka.Name("mcp")
	orders, lossy := base+"-orders", base+"-lossy"
	s.CreateTopic(orders, 2, nil)
	s.CreateTopic(lossy, 1, nil)
	t0 := time.Now().Add(-2 * time.Hour)
	spaced := func(i int) time.Time { return t0.Add(time.Duration(i) * 10 * time.Minute) }
	s.ProduceN(orders, 0, 10, spaced)
	s.ProduceN(orders, 1, 10, spaced)
	s.ProduceN(lossy, 0, 10, spaced)
	if err := s.DeleteRecords(lossy, 0, 6); err != nil {
		t.Fatal(err)
	}
	g, src, lost, absent := base+"-app", base+"-src", base+"-lost", base+"-new"
	s.Commit(g, map[model.TP]int64{tpOf(orders, 0): 5, tpOf(orders, 1): 3})
	s.Commit(src, map[model.TP]int64{tpOf(orders, 0): 8, tpOf(orders, 1): 9})
	s.Commit(lost, map[model.TP]int64{tpOf(lossy, 0): 2})
	groups := []string{g, src, lost, absent}
	before := map[string]map[model.TP]int64{}
	for _, name := range groups {
		before[name] = s.Committed(name)
	}

	at := t0.Add(45 * time.Minute).UTC().Format("2006-01-02T15:04:05.000")
	type call struct {
		tool string
		args map[string]any
		cli  []string // the command whose -o json is the structured answer; nil: none
	}
	a := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	var calls []call
	calls = append(calls,
		call{"list_groups", a("group", []any{g, src, lost}), nil},
		call{"list_groups", a("topic", []any{orders}), nil},
		call{"describe_group", a("group", g), []string{"describe"}},
		call{"describe_group", a("group", g, "topic", []any{orders}), []string{"describe"}},
		call{"check_group", a("group", g), []string{"check"}},
		call{"check_group", a("group", lost, "recovery-window", "P1D", "ignore-missed-deletes", true), []string{"check"}},
		call{"check_group", a("group", absent, "topic", []any{orders}, "assume-reset", "earliest"), []string{"check"}},
		call{"explain_status", a("status", "expired"), nil},
		call{"explain_status", a("group", lost, "topic", lossy, "partition", 0), nil},
	)
	for _, strategy := range [][]any{{"to-earliest", true}, {"to-latest", true}, {"to-current", true}, {"to-offset", 2},
		{"shift-by", -3}, {"to-datetime", at}, {"by-duration", "PT1H"}, {"from-group", src}} {
		calls = append(calls,
			call{"plan_reset", a("group", g, "all-topics", true, strategy[0], strategy[1], "assume-reset", "earliest"), []string{"reset"}},
			call{"plan_reset", a("group", g, "topic", []any{orders + ":0"}, strategy[0], strategy[1]), []string{"reset"}})
	}
	calls = append(calls,
		call{"plan_reset", a("group", absent, "topic", []any{orders}, "to-earliest", true, "allow-new-group", true), []string{"reset"}},
		call{"plan_delete_offsets", a("group", g, "topic", []any{orders + ":1"}, "assume-reset", "latest"), []string{"delete-offsets"}},
		call{"plan_delete_offsets", a("group", g, "all-topics", true), []string{"delete-offsets"}},
		call{"plan_delete_group", a("group", g, "assume-reset", "earliest"), []string{"delete-group"}},
		call{"plan_copy", a("group", g, "from-group", src, "all-topics", true), []string{"reset"}},
		// Refused: two strategies, an argument no tool takes.
		call{"plan_reset", a("group", g, "all-topics", true, "to-earliest", true, "to-latest", true), nil},
		call{"plan_reset", a("group", g, "all-topics", true, "to-earliest", true, "execute", true), nil},
		call{"plan_delete_group", a("group", g, "execute", true), nil},
	)
	var spec []mcpCall
	for _, c := range calls {
		spec = append(spec, mcpCall{Tool: c.tool, Arguments: c.args})
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got := driveMCP(t, py, map[string]any{"command": []string{self, "mcp", "--bootstrap-server", addr}, "env": map[string]string{runAsOffsettui: "1"}}, spec)
	t.Logf("stdio: %d tools listed, %d calls in %s", len(got.Tools), len(got.Calls), time.Since(start).Round(time.Millisecond))
	if len(got.Tools) != 8 || len(got.Calls) != len(calls) {
		t.Fatalf("%d tools, %d answers; want 8 and %d", len(got.Tools), len(got.Calls), len(calls))
	}
	for _, tool := range got.Tools {
		if !tool.ReadOnly {
			t.Errorf("tool %s is not marked read-only", tool.Name)
		}
	}
	checkAnswers(t, got.Calls, func(i int, r mcpCall) (any, string) {
		cmd := calls[i].cli
		if cmd == nil {
			return nil, ""
		}
		args := append([]string{cmd[0], "--bootstrap-server", addr}, cliArgs(r.Arguments)...)
		return commandJSON(t, args...), strings.Join(args, " ") + " -o json"
	})

	// The same client over serve's /mcp: the same plans; describe and check from its snapshot.
	srv := startServe(t, "--bootstrap-server", addr, "--interval", "1h") // one snapshot: the tools and the API answer from the same
	srv.waitFor(t, 90*time.Second, "serve's snapshot holds the groups", func() bool {
		code, body := srv.get("/api/v1/groups?group=" + g)
		return code == 200 && strings.Contains(body, `"group":"`+g+`"`)
	})
	var httpSpec []mcpCall
	var httpCalls []call
	for i, c := range calls {
		if c.tool != "list_groups" && (c.tool != "plan_reset" || i%4 == 1) {
			httpSpec, httpCalls = append(httpSpec, spec[i]), append(httpCalls, c)
		}
	}
	overHTTP := driveMCP(t, py, map[string]any{"url": "http://" + srv.addr + "/mcp"}, httpSpec)
	checkAnswers(t, overHTTP.Calls, func(i int, r mcpCall) (any, string) {
		if httpCalls[i].cli == nil {
			return nil, ""
		}
		group := url.PathEscape(r.Arguments["group"].(string))
		q := url.Values{}
		for k, v := range r.Arguments {
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					q.Add(k, e.(string))
				}
			case bool:
				q.Set(k, fmt.Sprint(x))
			case string:
				if k != "group" {
					q.Set(k, x)
				}
			}
		}
		var path string
		switch cmd := httpCalls[i].cli; {
		case cmd[0] == "describe":
			path = "/api/v1/groups/" + group + "?" + q.Encode()
		case cmd[0] == "check":
			path = "/api/v1/check/" + group + "?" + q.Encode()
		default:
			args := append([]string{cmd[0], "--bootstrap-server", addr}, cliArgs(r.Arguments)...)
			return commandJSON(t, args...), strings.Join(args, " ") + " -o json"
		}
		code, body := srv.get(path)
		var v map[string]any
		if err := json.Unmarshal([]byte(body), &v); err != nil || code != 200 {
			t.Fatalf("%s: %d %v", path, code, err)
		}
		if httpCalls[i].cli[0] == "check" {
			delete(v, "cluster") // the API's own two fields after check's
			delete(v, "intervalMs")
		}
		return v, path
	})

	for _, name := range groups {
		if after := s.Committed(name); !reflect.DeepEqual(after, before[name]) {
			t.Errorf("group %s: commits %v after the MCP calls, %v before", name, after, before[name])
		}
	}
}

// checkAnswers checks that refused calls are tool errors, and compares every other answer
// with the document want gives for it (the fields that say when it was read left out).
func checkAnswers(t *testing.T, got []mcpCall, want func(i int, r mcpCall) (any, string)) {
	t.Helper()
	for i, r := range got {
		name := r.Tool + " " + jsonOf(r.Arguments)
		refused := r.Arguments["execute"] != nil || (r.Arguments["to-earliest"] != nil && r.Arguments["to-latest"] != nil)
		switch {
		case refused:
			if !r.IsError {
				t.Errorf("%s: answered, want refused", name)
			}
			continue
		case r.IsError || len(r.Text) == 0 || r.Structured == nil:
			t.Errorf("%s: error %v, text %q, structured %v", name, r.IsError, r.Text, r.Structured != nil)
			continue
		}
		w, from := want(i, r)
		if w == nil {
			continue
		}
		if g, w := jsonOf(stable(r.Structured)), jsonOf(stable(w)); g != w {
			t.Errorf("%s: the tool answered\n%s\n%s answers\n%s", name, g, from, w)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
