package main

// Plan files on the real brokers (docs/resets.md#plan-files): a plan written by one person
// (reset --plan-out, delete-offsets --plan-out, an MCP plan tool over stdio) and applied by
// another (offsettui apply) writes exactly the plan; one byte changed, a commit moved since
// planning, a member joined, or another cluster: each refused, nothing written.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// planOut runs cmd (reset, delete-offsets) with args and --plan-out into dir and returns the
// plan file's path.
func planOut(t *testing.T, dir string, main func([]string, io.Writer, io.Writer) int, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, realkafka.Name("plan")+".json")
	var out, errb bytes.Buffer
	if code := main(append(args, "--plan-out", path), &out, &errb); code != exitOK || !strings.Contains(errb.String(), "PLAN FILE: "+path) {
		t.Fatalf("--plan-out: exit %d\n%s%s", code, out.String(), errb.String())
	}
	return path
}

// runApply runs `offsettui apply args... -o json` in-process: the exit code, the document
// (zero when none was printed: a refusal before the group was read) and stderr.
func runApply(t *testing.T, args ...string) (int, report.ApplyDocument, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := applyMain(append(args, "-o", "json"), &out, &errb)
	var d report.ApplyDocument
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("apply %s: exit %d, not JSON: %v\n%s", strings.Join(args, " "), code, err, out.String())
		}
	}
	t.Logf("offsettui apply %s → exit %d\n%s", strings.Join(args, " "), code, errb.String())
	return code, d, errb.String()
}

// applyAuditLine is the part of an audit line these tests read.
type applyAuditLine struct {
	Event     string `json:"event"`
	PlannedBy string `json:"plannedBy"`
	AppliedBy string `json:"appliedBy"`
	PlanFile  *struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
	} `json:"planFile"`
}

func applyAudit(t *testing.T, dir string) []applyAuditLine { return readAudit[applyAuditLine](t, dir) }

// nothingWritten fails unless group's commits are want and dir holds no backup and no audit.
func nothingWritten(t *testing.T, s *realkafka.Seed, group string, want map[model.TP]int64, dir string) {
	t.Helper()
	if got := s.Committed(group); !maps.Equal(got, want) {
		t.Errorf("group %s: commits %v, want %v as they were", group, got, want)
	}
	if files := backupFiles(t, dir); len(files) != 0 {
		t.Errorf("backups left: %v", files)
	}
	if log := applyAudit(t, dir); len(log) != 0 {
		t.Errorf("audit lines written: %+v", log)
	}
}

// blockerKinds is the kinds of what refuses d's plan now.
func refusedBy(d report.ApplyDocument) []plan.BlockerKind {
	var out []plan.BlockerKind
	for _, b := range d.Now.Blockers {
		out = append(out, b.Kind)
	}
	return out
}

// TestRealKafkaApply: on Kafka 4.4.0, plan files applied by offsettui apply. A --to-latest
// plan applied after the log grew writes the reviewed ends, not the new ones, reads them back,
// and its audit lines name who planned it, who applied it and the file; applied again, its
// commits have moved (by itself): refused. A copy with one byte changed, and one cut short:
// exit 2. A commit moved since planning, a member joined: exit 3, the row or the member named.
// The plan of a cluster applied on another (the oldest broker, where the same topic and group
// hold the same commits): exit 3. A delete-offsets plan of a topic the group no longer
// subscribes to applies while a member is live. A plan an MCP client had offsettui mcp write
// (stdio) applies as the CLI's. Nothing is written wherever it is refused.
func TestRealKafkaApply(t *testing.T) {
	t.Parallel()
	w := newTrustWorld(t, "apply")
	plans := t.TempDir()
	conn := []string{"--bootstrap-server", w.addr, "--timeout", "20s"}
	group := func(prefix string, offs map[model.TP]int64) string {
		g := realkafka.Name(prefix)
		w.seed.Commit(g, offs)
		return g
	}

	t.Run("applied as reviewed", func(t *testing.T) {
		g := group("apply-ok", w.want)
		path := planOut(t, plans, resetMain, append(conn, "--group", g, "--all-topics", "--to-latest")...)
		now := time.Now()
		for p := range int32(2) {
			w.seed.ProduceN(w.topic, p, 3, func(int) time.Time { return now })
		}
		code, d, _ := runApply(t, append(conn, path)...)
		if code != exitOK || d.Outcome != nil || !d.Now.Executable() || *d.Now.Rows[0].High < 13 || d.PlanFile.ClusterID == "" {
			t.Fatalf("dry run: exit %d, outcome %v, blockers %+v; want exit 0, nothing written", code, d.Outcome, d.Now.Blockers)
		}
		if got := w.seed.Committed(g); !maps.Equal(got, w.want) {
			t.Fatalf("the dry run wrote %v", got)
		}
		dir := t.TempDir()
		code, d, stderr := runApply(t, append(conn, path, "--execute", "--observe", "1s", "--backup-dir", dir)...)
		want := map[model.TP]int64{tpOf(w.topic, 0): 10, tpOf(w.topic, 1): 10} // the ends when planned, not 13
		if code != exitOK || d.Outcome == nil || *d.Outcome != plan.OutcomeApplied || !strings.Contains(stderr, "offsettui apply: applied") {
			t.Fatalf("--execute: exit %d, outcome %v, stderr %q", code, d.Outcome, stderr)
		}
		if got := w.seed.Committed(g); !maps.Equal(got, want) {
			t.Errorf("franz-go reads %v, want the reviewed targets %v", got, want)
		}
		log := applyAudit(t, dir)
		if len(log) != 2 || log[0].Event != "intent" || log[1].Event != "outcome" {
			t.Fatalf("audit log %+v", log)
		}
		for _, l := range log {
			if l.PlannedBy == "" || l.AppliedBy == "" || l.PlanFile == nil || l.PlanFile.Path != path || l.PlanFile.SHA256 != d.PlanFile.SHA256 {
				t.Errorf("audit line %+v: want plannedBy, appliedBy and the plan file %s", l, path)
			}
		}
		again := t.TempDir()
		code, d, _ = runApply(t, append(conn, path, "--execute", "--backup-dir", again)...)
		if code != exitBlocked || len(d.Now.Blockers) != 2 || refusedBy(d)[0] != plan.BlockDrift {
			t.Errorf("applied twice: exit %d, blockers %+v; want exit 3, the two rows' commits moved", code, d.Now.Blockers)
		}
		nothingWritten(t, w.seed, g, want, again)
	})

	t.Run("one byte changed or cut short", func(t *testing.T) {
		g := group("apply-edit", w.want)
		path := planOut(t, plans, resetMain, append(conn, "--group", g, "--all-topics", "--to-earliest")...)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(raw, []byte(`"target": 0`))
		edited := bytes.Clone(raw)
		edited[i+len(`"target": `)] = '3'
		for name, b := range map[string][]byte{"edited": edited, "cut": raw[:len(raw)-40], "cut at a line end": raw[:bytes.LastIndexByte(raw[:len(raw)-1], '\n')+1]} {
			bad := filepath.Join(t.TempDir(), "plan.json")
			if err := os.WriteFile(bad, b, 0o600); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			code, _, stderr := runApply(t, append(conn, bad, "--execute", "--backup-dir", dir)...)
			if code != exitBadInput || !strings.Contains(stderr, "refused") {
				t.Errorf("%s: exit %d, stderr %q; want exit 2, refused", name, code, stderr)
			}
			nothingWritten(t, w.seed, g, w.want, dir)
		}
	})

	t.Run("a commit moved since planning", func(t *testing.T) {
		g := group("apply-moved", w.want)
		path := planOut(t, plans, resetMain, append(conn, "--group", g, "--all-topics", "--to-earliest")...)
		moved := map[model.TP]int64{tpOf(w.topic, 0): 5, tpOf(w.topic, 1): 6}
		w.seed.Commit(g, moved)
		dir := t.TempDir()
		code, d, _ := runApply(t, append(conn, path, "--execute", "--backup-dir", dir)...)
		if code != exitBlocked || len(d.Now.Blockers) != 1 || d.Now.Blockers[0].Kind != plan.BlockDrift ||
			!strings.Contains(d.Now.Blockers[0].Message, "committed offset of "+w.topic+"-0 changed from 4 to 5") || *d.CommittedNow[0].Committed != 5 {
			t.Errorf("exit %d, blockers %+v, committed now %+v; want exit 3 naming %s-0", code, d.Now.Blockers, d.CommittedNow, w.topic)
		}
		nothingWritten(t, w.seed, g, moved, dir)
	})

	t.Run("a member joined, and a delete-offsets plan of a topic it does not read", func(t *testing.T) {
		stale := realkafka.Name("apply-stale")
		w.seed.CreateTopic(stale, 1, nil)
		w.seed.ProduceN(stale, 0, 5, func(int) time.Time { return time.Now() })
		offs := maps.Clone(w.want)
		offs[tpOf(stale, 0)] = 3
		g := group("apply-member", offs)
		reset := planOut(t, plans, resetMain, append(conn, "--group", g, "--topic", w.topic, "--to-earliest")...)
		del := planOut(t, plans, deleteOffsetsMain, append(conn, "--group", g, "--topic", stale)...)
		realkafka.ClassicMember(t, w.addr, g, "apply-joiner", w.topic)
		waitMembers(t, w.seed, g, 1)
		dir := t.TempDir()
		code, d, _ := runApply(t, append(conn, reset, "--execute", "--backup-dir", dir)...)
		if code != exitBlocked || len(d.Now.Blockers) != 1 || d.Now.Blockers[0].Kind != plan.BlockGroupNotEmpty || !strings.Contains(d.Now.Blockers[0].Message, "apply-joiner") {
			t.Errorf("reset: exit %d, blockers %+v; want exit 3, group-not-empty naming the member", code, d.Now.Blockers)
		}
		nothingWritten(t, w.seed, g, offs, dir)
		code, d, _ = runApply(t, append(conn, del, "--execute", "--backup-dir", t.TempDir())...)
		if code != exitOK || d.Outcome == nil || *d.Outcome != plan.OutcomeApplied {
			t.Errorf("delete-offsets of the live group's stale topic: exit %d, outcome %v, blockers %+v", code, d.Outcome, d.Now.Blockers)
		}
		if got := w.seed.Committed(g); !maps.Equal(got, w.want) {
			t.Errorf("after the delete-offsets plan franz-go reads %v, want %v (the stale topic's commit gone)", got, w.want)
		}
	})

	t.Run("another cluster", func(t *testing.T) {
		other := realkafka.Oldest(t)
		oldSeed := realkafka.NewSeed(t, other.Addr)
		topic, g := realkafka.Name("apply-twin"), realkafka.Name("apply-cluster")
		offs := map[model.TP]int64{tpOf(topic, 0): 4}
		for _, s := range []*realkafka.Seed{w.seed, oldSeed} { // the same topic and group on both clusters
			s.CreateTopic(topic, 1, nil)
			s.ProduceN(topic, 0, 10, func(int) time.Time { return time.Now() })
			s.Commit(g, offs)
		}
		path := planOut(t, plans, resetMain, append(conn, "--group", g, "--all-topics", "--to-earliest")...)
		dir := t.TempDir()
		code, d, _ := runApply(t, path, "--bootstrap-server", other.Addr, "--timeout", "20s", "--execute", "--backup-dir", dir)
		if code != exitBlocked || len(d.Now.Blockers) != 1 || d.Now.Blockers[0].Kind != plan.BlockOtherCluster {
			t.Errorf("on %s: exit %d, blockers %+v; want exit 3, other-cluster alone", other.Name(), code, d.Now.Blockers)
		}
		nothingWritten(t, oldSeed, g, offs, dir)
		if code, d, _ := runApply(t, append(conn, path)...); code != exitOK || !d.Now.Executable() {
			t.Errorf("the same file on its own cluster: exit %d, blockers %+v", code, d.Now.Blockers)
		}
	})

	t.Run("written by offsettui mcp", func(t *testing.T) {
		g := group("apply-mcp", w.want)
		path := filepath.Join(plans, realkafka.Name("mcp")+".json")
		res := mcpStdioCall(t, []string{"--bootstrap-server", w.addr}, "plan_reset",
			map[string]any{"group": g, "all-topics": true, "to-offset": 2, "plan-out": path})
		if res.IsError {
			t.Fatalf("plan_reset with plan-out: %+v", res.Content)
		}
		code, d, _ := runApply(t, append(conn, path, "--execute", "--backup-dir", t.TempDir())...)
		want := map[model.TP]int64{tpOf(w.topic, 0): 2, tpOf(w.topic, 1): 2}
		if code != exitOK || d.PlanFile.PlannedWith != "offsettui mcp" || !maps.Equal(w.seed.Committed(g), want) {
			t.Errorf("exit %d, planned with %q, commits %v; want 0, offsettui mcp, %v", code, d.PlanFile.PlannedWith, w.seed.Committed(g), want)
		}
	})
}

// TestRealKafkaApplyCancelledDuringTheWatch: SIGINT while `apply --execute` watches the
// group's commits before its backup: exit 3, cancelled, nothing sent to commit, no backup,
// one audit line (outcome cancelled). Not parallel: the signal reaches every command of
// the process.
func TestRealKafkaApplyCancelledDuringTheWatch(t *testing.T) {
	w := newTrustWorld(t, "apply-cancel")
	path := planOut(t, t.TempDir(), resetMain, "--bootstrap-server", w.addr, "--group", w.group, "--all-topics", "--to-earliest")
	p, id := proxied(t, w.addr)
	go func() {
		for p.Requests(id, kmsg.OffsetFetch) < 4 { // the re-read once; the watch every 500 ms
			time.Sleep(20 * time.Millisecond)
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	dir := t.TempDir()
	start := time.Now()
	code, d, stderr := runApply(t, path, "--bootstrap-server", p.Addrs()[0], "--timeout", "20s", "--backup-dir", dir, "--execute", "--observe", "10s")
	if took := time.Since(start); code != exitBlocked || d.Outcome == nil || *d.Outcome != plan.OutcomeCancelled || !strings.Contains(stderr, "cancelled") || took > 9*time.Second {
		t.Errorf("exit %d, outcome %v after %s, stderr %q; want exit 3, cancelled, before the watch's end", code, d.Outcome, took, stderr)
	}
	if n := p.Requests(id, kmsg.OffsetCommit); n != 0 {
		t.Errorf("%d commits sent", n)
	}
	if got := w.seed.Committed(w.group); !maps.Equal(got, w.want) {
		t.Errorf("commits %v, want %v", got, w.want)
	}
	if files := backupFiles(t, dir); len(files) != 0 {
		t.Errorf("the cancel left backups %v", files)
	}
	if log := auditLog(t, dir); len(log) != 1 || log[0].Event != "outcome" || log[0].Result == nil || *log[0].Result != "cancelled" {
		t.Errorf("audit log %+v; want one outcome line, cancelled", log)
	}
}

// waitMembers waits until group is Stable with n members.
func waitMembers(t *testing.T, s *realkafka.Seed, group string, n int) {
	t.Helper()
	realkafka.WaitUntil(t, 30*time.Second, "the member joined", func() (bool, string) {
		d, err := s.Adm.DescribeGroups(realkafka.Ctx(t, 10*time.Second), group)
		if err != nil {
			return false, err.Error()
		}
		return d[group].State == "Stable" && len(d[group].Members) == n, d[group].State
	})
}

// mcpStdioCall runs offsettui mcp with args in-process over pipes, as a client's stdio, makes
// one call with the Go SDK's client and returns its result.
func mcpStdioCall(t *testing.T, args []string, tool string, arguments map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		root := newRootCmd()
		root.SetArgs(append([]string{"mcp"}, args...))
		root.SetIn(inR)
		root.SetOut(outW)
		root.SetErr(io.Discard)
		err := root.ExecuteContext(ctx)
		outW.Close()
		done <- int(codeOf(err))
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "offsettui-test"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: arguments})
	cs.Close()
	inW.Close()
	if err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != exitOK {
		t.Errorf("offsettui mcp exit %d", code)
	}
	return res
}
