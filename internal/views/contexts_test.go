package views

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/offsettui/offsettui/internal/model"
)

// fakeSwitcher connects to contexts that each serve one group named after them.
type fakeSwitcher struct {
	mu      sync.Mutex
	list    []ContextInfo
	fail    error
	closed  []string
	sources map[string]*fakeSource
}

func (f *fakeSwitcher) Contexts() []ContextInfo { return f.list }

func (f *fakeSwitcher) Connect(_ context.Context, name string) (Connection, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return Connection{}, f.fail
	}
	var info ContextInfo
	for _, c := range f.list {
		if c.Name == name {
			info = c
		}
	}
	src := &fakeSource{reply: func(model.Query) (model.Snapshot, error) {
		return model.Snapshot{Cluster: model.Cluster{Brokers: 1, TakenAt: model.Stamp{Time: fixtureNow}},
			Groups: []model.Group{{Group: name + "-billing", Counts: model.Counts{}}}}, nil
	}}
	f.sources[name] = src
	return Connection{Source: src, Cluster: info.Cluster, ReadOnly: info.ReadOnly, Context: info,
		Close: func() { f.mu.Lock(); f.closed = append(f.closed, name); f.mu.Unlock() }}, nil
}

func contextsFixture() *fakeSwitcher {
	return &fakeSwitcher{sources: map[string]*fakeSource{}, list: []ContextInfo{
		{Name: "dev", Label: "dev", Cluster: "localhost:9092"},
		{Name: "prod", Label: "PROD", Color: "1", Cluster: "b-1.prod:9096,b-2.prod:9096", ReadOnly: true},
	}}
}

func headerLine(v string) string { return strings.SplitN(v, "\n", 2)[0] }

// TestContextSwitch: the header names the context; :ctx lists the contexts, enter switches,
// and the new cluster's data (never the old one's) is shown, read-only when the context is.
func TestContextSwitch(t *testing.T) {
	clk := newClock()
	sw := contextsFixture()
	old := &fakeSource{now: clk.now}
	opts := optsWith(old, clk)
	opts.Context, opts.Contexts, opts.Cluster = sw.list[0], sw, "localhost:9092"
	hs := newHarness(t, opts, 100, 20)
	if h := headerLine(hs.view()); !strings.Contains(h, "offsettui · dev · localhost:9092") || strings.Contains(h, "READ-ONLY") {
		t.Fatalf("header %q", h)
	}
	oldRoot := hs.m
	hs.send(keyRunes(":")).typeText("ctx").send(keyType(tea.KeyEnter))
	if _, ok := hs.m.top().(*contextsScreen); !ok {
		t.Fatalf(":ctx did not open the list: %T", hs.m.top())
	}
	golden.RequireEqual(t, []byte(hs.view()))
	hs.send(keyRunes("j"), keyType(tea.KeyEnter))
	if hs.m == oldRoot {
		t.Fatal("no switch")
	}
	v := hs.view()
	if h := headerLine(v); !strings.Contains(h, "PROD") || !strings.Contains(h, "READ-ONLY") || !strings.Contains(h, "b-1.prod:9096") {
		t.Fatalf("header after the switch %q", h)
	}
	if !strings.Contains(v, "prod-billing") || strings.Contains(v, "fanout") {
		t.Fatalf("the old cluster's data is shown:\n%s", v)
	}
	if !hs.m.c.readOnly || len(sw.closed) != 0 || oldRoot.ctx.Err() == nil {
		t.Fatalf("read-only %v, closed %v, old reads cancelled %v", hs.m.c.readOnly, sw.closed, oldRoot.ctx.Err() != nil)
	}
	ghost := model.Snapshot{Cluster: model.Cluster{Brokers: 1, TakenAt: model.Stamp{Time: clk.now()}},
		Groups: []model.Group{{Group: "ghost"}}}
	hs.send(snapshotLoadedMsg{gen: oldRoot.ref.gen, snap: ghost, started: clk.now(), ended: clk.now()})
	if strings.Contains(hs.view(), "ghost") {
		t.Fatal("a reply from the old cluster was applied")
	}
	hs.send(keyRunes(":")).typeText("ctx dev").send(keyType(tea.KeyEnter))
	if h := headerLine(hs.view()); !strings.Contains(h, "dev") || strings.Contains(h, "READ-ONLY") || len(sw.closed) != 1 || sw.closed[0] != "prod" {
		t.Fatalf("back to dev: header %q, closed %v", h, sw.closed)
	}
}

func TestContextCommandErrors(t *testing.T) {
	clk := newClock()
	sw := contextsFixture()
	opts := optsWith(&fakeSource{now: clk.now}, clk)
	opts.Context, opts.Contexts = sw.list[0], sw
	hs := newHarness(t, opts, 100, 20)
	root := hs.m
	hs.send(keyRunes(":")).typeText("ctx stage").send(keyType(tea.KeyEnter))
	if !strings.Contains(hs.view(), `no context "stage" (:ctx lists them)`) || hs.m != root {
		t.Fatalf("unknown context:\n%s", hs.view())
	}
	sw.fail = errors.New("connect to b-1.prod:9096: SASL authentication failed")
	hs.send(keyRunes(":")).typeText("ctx prod").send(keyType(tea.KeyEnter))
	if v := hs.view(); !strings.Contains(v, "context prod: connect to b-1.prod:9096: SASL authentication failed") || hs.m != root {
		t.Fatalf("failed switch:\n%s", v)
	}
	if h := headerLine(hs.view()); !strings.Contains(h, "dev") {
		t.Fatalf("a failed switch changed the header: %q", h)
	}
	none := newHarness(t, optsWith(&fakeSource{now: clk.now}, clk), 100, 20)
	none.send(keyRunes(":")).typeText("ctx").send(keyType(tea.KeyEnter))
	if !strings.Contains(none.view(), "unknown command :ctx") { // not offered without contexts
		t.Fatalf("no switcher:\n%s", none.view())
	}
}

// TestContextSwitchClosesOutsideUpdate: the replaced root's connection, the first one
// included, is closed by a command, never inside Update (closing waits up to --timeout).
func TestContextSwitchClosesOutsideUpdate(t *testing.T) {
	clk := newClock()
	sw := contextsFixture()
	var mu sync.Mutex
	var closed []string
	opts := optsWith(&fakeSource{now: clk.now}, clk)
	opts.Context, opts.Contexts = sw.list[0], sw
	opts.Close = func() { mu.Lock(); closed = append(closed, "initial"); mu.Unlock() }
	hs := newHarness(t, opts, 100, 20)
	connect := hs.m.switchContext("prod")
	msg := connect()
	next, cmd := hs.m.Update(msg)
	if next == tea.Model(hs.m) {
		t.Fatal("no switch")
	}
	mu.Lock()
	n := len(closed)
	mu.Unlock()
	if n != 0 {
		t.Fatal("the old connection was closed inside Update")
	}
	hs.m = next.(*app)
	hs.run(cmd)
	if len(closed) != 1 {
		t.Fatalf("the first root's connection was not closed: %v", closed)
	}
}

// TestContextSwitchLatestWins: `:ctx dev` then `:ctx prod`, dev answering last, ends on
// prod, and dev's connection is closed.
func TestContextSwitchLatestWins(t *testing.T) {
	clk := newClock()
	sw := contextsFixture()
	opts := optsWith(&fakeSource{now: clk.now}, clk)
	opts.Context, opts.Contexts = sw.list[0], sw
	hs := newHarness(t, opts, 100, 20)
	toDev, toProd := hs.m.switchContext("dev"), hs.m.switchContext("prod")
	devMsg, prodMsg := toDev(), toProd()
	hs.send(prodMsg, devMsg)
	if h := headerLine(hs.view()); !strings.Contains(h, "PROD") {
		t.Fatalf("a stale switch won: header %q", h)
	}
	if len(sw.closed) != 1 || sw.closed[0] != "dev" {
		t.Fatalf("closed %v, want the stale dev connection", sw.closed)
	}
}

// TestNeverRead: a session that never read a snapshot (the cluster could not be reached)
// tells the caller so (offsettui exits 1); one that read any, before a `:ctx` switch too,
// does not.
func TestNeverRead(t *testing.T) {
	clk := newClock()
	down := &fakeSource{now: clk.now, reply: func(model.Query) (model.Snapshot, error) {
		return model.Snapshot{}, errors.New("connect to k:9092: connection refused")
	}}
	hs := newHarness(t, optsWith(down, clk), 100, 20)
	if !NeverRead(hs.m) {
		t.Error("a session that only failed to connect reads as having read the cluster")
	}
	sw := contextsFixture()
	opts := optsWith(&fakeSource{now: clk.now}, clk)
	opts.Context, opts.Contexts = sw.list[0], sw
	up := newHarness(t, opts, 100, 20)
	if NeverRead(up.m) {
		t.Error("a session that read a snapshot reads as never read")
	}
	sw.fail = nil
	next, _ := up.m.Update(up.m.switchContext("prod")()) // the new root, its first snapshot not run
	if NeverRead(next) {
		t.Error("a switch forgot that the session had read a cluster")
	}
}
