package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// TestLazyClientQuitDuringAHungConnect: while the first connection hangs, a caller
// whose context ends (quit, Ctrl-C) stops waiting, a second caller waits on the same
// attempt, and close returns at once instead of waiting for --timeout.
func TestLazyClientQuitDuringAHungConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			accepted <- struct{}{}
		}
	}()
	const timeout = 30 * time.Second
	lc := &lazyClient{c: common{timeoutD: timeout}, conn: &connection{bootstrap: []string{ln.Addr().String()}}}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := lc.client(ctx); first <- err }()
	select { // the connection is under way
	case <-accepted:
	case <-time.After(10 * time.Second):
		t.Fatal("the client never connected")
	}
	start := time.Now()
	closed := make(chan struct{})
	go func() { lc.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(timeout / 2):
		t.Fatal("close waited for the hung connection")
	}
	cancel()
	select {
	case err := <-first:
		if err == nil {
			t.Fatal("connected to a broker that never answers")
		}
	case <-time.After(timeout / 2):
		t.Fatal("the caller kept waiting after its context ended")
	}
	if d := time.Since(start); d > timeout/2 {
		t.Fatalf("quitting took %v", d)
	}
	if _, err := lc.client(context.Background()); err == nil {
		t.Fatal("a closed client connected")
	}
}

// groupAtTwoOfFive starts a fake cluster with topic t (one partition, 5 records) and group g
// committed at 2 on it, and returns its addresses.
func groupAtTwoOfFive(t *testing.T) []string {
	t.Helper()
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 5, func(int) time.Time { return time.Now() })
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	return k.ListenAddrs()
}

// TestTUIResetNamesTheClusterItConnectedTo: a TUI reset made before the connection (a
// context or KAFKA_BOOTSTRAP_SERVERS leaves --bootstrap-server empty) names the cluster
// it connected to in the audit log and the backup's manifest, not "".
func TestTUIResetNamesTheClusterItConnectedTo(t *testing.T) {
	addrs := groupAtTwoOfFive(t)
	dir := t.TempDir()
	c := common{timeoutD: 10 * time.Second} // no --bootstrap-server: the context's addresses
	lc := &lazyClient{c: c, conn: &connection{bootstrap: addrs, access: decideAccess(false)}}
	defer lc.close()
	r := newTUIResetter(c, lc, dir)
	st, err := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Plan(t.Context(), "g", plan.Scope{AllTopics: true}, st)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Execute(t.Context(), p); res.Outcome != plan.OutcomeApplied {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Notes)
	}
	want := `"cluster":"` + strings.Join(addrs, ",") + `"`
	audit, err := os.ReadFile(filepath.Join(dir, "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(audit), want); n != 2 { // intent and outcome
		t.Errorf("audit log names the cluster %d times as %s:\n%s", n, want, audit)
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, m := range manifests {
		b, _ := os.ReadFile(m)
		if !strings.Contains(string(b), `"bootstrap": "`+strings.Join(addrs, ",")+`"`) {
			t.Errorf("manifest %s:\n%s", m, b)
		}
	}
	if len(manifests) == 0 {
		t.Errorf("no manifest in %s", dir)
	}
}

// TestRunTUIBadInputOnItsStderr: the TUI's input errors go to the stderr it was given
// (exit 2), before any terminal is touched.
func TestRunTUIBadInputOnItsStderr(t *testing.T) {
	for _, args := range [][]string{
		{"--stall-after", "soon"},
		{"--bootstrap-server", "k:9092", "--command-config", filepath.Join(t.TempDir(), "missing.properties")},
	} {
		var out, errb strings.Builder
		if code := runTUI(args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "offsettui: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the error on the given stderr", args, code, errb.String())
		}
	}
}

// TestTUIAssumeReset: the TUI's --assume-reset reaches its plans (a delete-offsets row says
// where the consumer starts without its commit: at low for earliest, not at high), and a
// value that is not one of auto.offset.reset's is bad input, exit 2, before any screen.
func TestTUIAssumeReset(t *testing.T) {
	addrs := groupAtTwoOfFive(t)
	for assume, start := range map[string]int64{model.ResetEarliest: 0, model.ResetLatest: 5} {
		c := common{timeoutD: 10 * time.Second, assumeReset: assume}
		lc := &lazyClient{c: c, conn: &connection{bootstrap: addrs, access: decideAccess(false)}}
		p, err := newTUIResetter(c, lc, t.TempDir()).Plan(t.Context(), "g", plan.Scope{Topics: []plan.TopicScope{{Topic: "t"}}}, plan.DeleteOffsetsStrategy())
		lc.close()
		if err != nil {
			t.Fatal(err)
		}
		if p.AssumeReset != assume || len(p.Rows) != 1 || p.Rows[0].ResetStart == nil || *p.Rows[0].ResetStart != start {
			t.Errorf("--assume-reset %s: plan assumes %s, rows %+v; want the consumer to start at %d", assume, p.AssumeReset, p.Rows, start)
		}
	}
	var out, errb bytes.Buffer
	if code := runTUI([]string{"--demo", "--assume-reset", "sometimes"}, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "--assume-reset") {
		t.Errorf("--assume-reset sometimes: exit %d, %q; want 2 naming the flag", code, errb.String())
	}
}
