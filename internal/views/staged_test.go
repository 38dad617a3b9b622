package views

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/offsettui/offsettui/internal/model"
)

// stagedSource serves the fixture in two stages: the groups alone, then,
// once released, the snapshot (or fail).
type stagedSource struct {
	fakeSource
	release chan struct{}
	fail    error
	staged  atomic.Int32
}

func (s *stagedSource) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	s.staged.Add(1)
	full, err := s.fakeSource.Snapshot(ctx, q)
	listed(listedOf(full))
	<-s.release
	if s.fail != nil {
		return model.Snapshot{}, s.fail
	}
	return full, err
}

// listedOf is what the read path knows of s once its groups are described.
func listedOf(s model.Snapshot) model.Snapshot {
	obs := model.Observation{Bootstrap: s.Cluster.Bootstrap, Brokers: s.Cluster.Brokers, TakenAt: s.Cluster.TakenAt.Time}
	for _, g := range s.Groups {
		obs.Groups = append(obs.Groups, model.GroupObservation{Group: g.Group, Type: g.Type, State: g.State,
			ProtocolType: g.ProtocolType, Protocol: g.Protocol, Coordinator: g.Coordinator, Members: g.Members})
	}
	return model.ListedSnapshot(obs)
}

// startStaged builds the inspector on src and runs its first read up to the
// groups: the returned command is the rest of that read.
func startStaged(t *testing.T, src *stagedSource, w, h int, opt ...func(*Options)) (*harness, tea.Cmd) {
	t.Helper()
	o := optsWith(src, newClock())
	for _, f := range opt {
		f(&o)
	}
	m := New(o).(*app)
	m.tick = func(time.Duration) tea.Cmd { return nil }
	hs := &harness{t: t, m: m}
	hs.send(sizeMsg(w, h))
	listed := m.Init()() // the groups: the source waits for release
	next, rest := hs.m.Update(listed)
	hs.m = next.(*app)
	return hs, rest
}

// TestStagedFirstScreen: the groups show as soon as they are listed, every
// number and status they do not know yet marked as loading, never as a zero
// or OK; then the snapshot replaces them.
func TestStagedFirstScreen(t *testing.T) {
	src := &stagedSource{release: make(chan struct{})}
	hs, rest := startStaged(t, src, 120, 30)
	v := hs.view()
	for _, want := range []string{"billing", "audit-export", "fanout", "LOADING", loadingNote, "loading…"} {
		if !strings.Contains(v, want) {
			t.Errorf("loading view lacks %q:\n%s", want, v)
		}
	}
	for _, never := range []string{" OK", "EXPIRED", "with problems", "updated"} {
		if strings.Contains(v, never) {
			t.Errorf("loading view claims %q:\n%s", never, v)
		}
	}
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "billing") && !strings.Contains(line, loadingText) {
			t.Errorf("billing's row shows no loading mark: %q", line)
		}
	}
	golden.RequireEqual(t, v)
	close(src.release)
	hs.run(rest)
	v = hs.view()
	if strings.Contains(v, "LOADING") || !strings.Contains(v, "EXPIRED") || !strings.Contains(v, "with problems") {
		t.Errorf("after the snapshot:\n%s", v)
	}
}

// A read that fails after the groups were listed leaves no loading screen:
// the error screen says the cluster could not be read.
func TestStagedFailureDropsTheGroups(t *testing.T) {
	src := &stagedSource{release: make(chan struct{}), fail: errors.New("broker 2 went away")}
	hs, rest := startStaged(t, src, 120, 30)
	close(src.release)
	hs.run(rest)
	v := hs.view()
	if strings.Contains(v, "LOADING") || strings.Contains(v, "billing") || !strings.Contains(v, "broker 2 went away") {
		t.Errorf("after a failed read:\n%s", v)
	}
}

// Once a snapshot is on screen, refreshes are not staged: the screen keeps
// the last snapshot instead of flipping back to loading.
func TestRefreshesAreNotStaged(t *testing.T) {
	src := &stagedSource{release: make(chan struct{})}
	hs, rest := startStaged(t, src, 120, 30)
	close(src.release)
	hs.run(rest)
	hs.send(keyRunes("r"))
	if n := src.staged.Load(); n != 1 {
		t.Errorf("%d staged reads, want only the first", n)
	}
	if v := hs.view(); strings.Contains(v, "LOADING") {
		t.Errorf("a refresh shows loading:\n%s", v)
	}
}

// While loading, a group's screen says its offsets are being read (not "no
// partitions"), and no report is written.
func TestLoadingGroupAndReport(t *testing.T) {
	src := &stagedSource{release: make(chan struct{})}
	var wrote int
	hs, rest := startStaged(t, src, 120, 30, func(o *Options) {
		o.ReportDir = t.TempDir()
		o.WriteReport = func(io.Writer, model.Snapshot) error { wrote++; return nil }
	})
	defer func() { close(src.release); hs.run(rest) }()
	hs.send(keyRunes("w"))
	if v := hs.view(); wrote != 0 || !strings.Contains(v, "no report yet") {
		t.Errorf("report while loading (%d written):\n%s", wrote, v)
	}
	hs.send(keyRunes("/")).typeText("billing").send(keyType(tea.KeyEnter))
	v := hs.view()
	if !strings.Contains(v, loadingNote) || strings.Contains(v, "no partitions") || strings.Contains(v, "total lag") {
		t.Errorf("billing while loading:\n%s", v)
	}
}
