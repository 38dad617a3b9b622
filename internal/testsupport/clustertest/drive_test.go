package clustertest

// Running what the cluster tests watch: `offsettui describe --watch`, each JSON line
// handed over as it is printed, and the TUI in-process on internal/kafka, driven by hand
// (its commands run, its messages fed back to Update), its screen read after every
// refresh.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/views"
)

// watching is `offsettui describe --watch -o json` running until stop (Ctrl-C).
type watching struct {
	cmd  *exec.Cmd
	done chan struct{}
	code int
	// exitedEarly: the watch ended before it was stopped.
	exitedEarly bool
	stopping    atomic.Bool
	stderr      syncWriter
}

// watch starts `offsettui describe --watch -o json args...` and calls each with every
// snapshot and the time it was printed.
func watch(t *testing.T, each func(model.Snapshot, time.Time), args ...string) *watching {
	t.Helper()
	w := &watching{done: make(chan struct{})}
	w.cmd = exec.Command(offsettui, append([]string{"describe", "--watch", "-o", "json"}, args...)...)
	w.cmd.Stderr = &w.stderr
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			at := time.Now()
			var s model.Snapshot
			if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
				t.Errorf("describe --watch printed a line that is not JSON: %v", err)
				continue
			}
			each(s, at)
		}
		err := w.cmd.Wait()
		w.exitedEarly = !w.stopping.Load()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			w.code = ee.ExitCode()
		} else if err != nil {
			w.code = -1
		}
	}()
	t.Cleanup(w.stop)
	return w
}

// stop ends the watch with SIGINT, as Ctrl-C does, and waits for it.
func (w *watching) stop() {
	if w.stopping.Swap(true) {
		<-w.done
		return
	}
	_ = w.cmd.Process.Signal(os.Interrupt)
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		_ = w.cmd.Process.Kill()
		<-w.done
	}
}

type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// recordingSource is the TUI's source, counting the reads that failed.
type recordingSource struct {
	views.StagedSource
	mu     sync.Mutex
	failed int
}

func (r *recordingSource) note(err error) {
	if err != nil {
		r.mu.Lock()
		r.failed++
		r.mu.Unlock()
	}
}

func (r *recordingSource) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	s, err := r.StagedSource.Snapshot(ctx, q)
	r.note(err)
	return s, err
}

func (r *recordingSource) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	s, err := r.StagedSource.SnapshotStaged(ctx, q, listed)
	r.note(err)
	return s, err
}

func (r *recordingSource) failures() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// tuiRun is the TUI on the cluster, refreshing every second, filtered to the world's
// groups; check is called with the screen after every refresh and whether a refresh
// has failed since the last.
type tuiRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	quit   bool
	loads  int
}

func runTUIOn(t *testing.T, boot, filter string, check func(screen string, failedSince bool)) *tuiRun {
	t.Helper()
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: strings.Split(boot, ","), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	src := &recordingSource{StagedSource: cl}
	opts := views.Options{Source: src, Cluster: boot, Refresh: time.Second, NoColor: true, Now: time.Now}
	var m tea.Model = views.New(opts)
	ctx, cancel := context.WithCancel(context.Background())
	r := &tuiRun{cancel: cancel, done: make(chan struct{})}
	msgs := make(chan tea.Msg, 64)
	var exec func(tea.Cmd)
	exec = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		go func() {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					exec(c)
				}
				return
			}
			if msg != nil {
				select {
				case msgs <- msg:
				case <-ctx.Done():
				}
			}
		}()
	}
	keys := []tea.Msg{tea.WindowSizeMsg{Width: 200, Height: 60}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filter)}, tea.KeyMsg{Type: tea.KeyEnter}}
	go func() {
		defer close(r.done)
		defer cl.Close()
		exec(m.Init())
		for _, k := range keys {
			var cmd tea.Cmd
			m, cmd = m.Update(k)
			exec(cmd)
		}
		failedBefore := 0
		for {
			select {
			case <-ctx.Done():
				return
			case msg := <-msgs:
				if _, ok := msg.(tea.QuitMsg); ok {
					r.mu.Lock()
					r.quit = true
					r.mu.Unlock()
					return
				}
				var cmd tea.Cmd
				m, cmd = m.Update(msg)
				exec(cmd)
				if fmt.Sprintf("%T", msg) != "views.snapshotLoadedMsg" {
					continue
				}
				r.mu.Lock()
				r.loads++
				r.mu.Unlock()
				f := src.failures()
				check(ansi.Strip(m.View()), f > failedBefore)
				failedBefore = f
			}
		}
	}()
	t.Cleanup(r.stop)
	return r
}

func (r *tuiRun) stop() {
	r.cancel()
	<-r.done
}

// quitAndLoads reports whether the TUI quit by itself and how many refreshes it took.
func (r *tuiRun) quitAndLoads() (bool, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quit, r.loads
}

// screenRow is a group's row on the TUI's groups screen.
type screenRow struct{ state, members, lag string }

// screenRows reads the rows of the groups table of a TUI screen. The columns are found by
// their titles (a narrow screen hides some); every cell up to LAG is one word ("-" when
// empty) but the lag, which may read "≥ 15".
func screenRows(screen string) map[string]screenRow {
	out := map[string]screenRow{}
	col := map[string]int{}
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(l)
		if len(col) == 0 {
			if len(f) > 0 && f[0] == "GROUP" {
				for i, title := range f {
					col[strings.TrimRight(title, "↑↓")] = i
				}
				if _, ok := col["LAG"]; !ok {
					return out
				}
			}
			continue
		}
		if len(f) > 0 && f[0] == "▸" {
			f = f[1:]
		}
		if len(f) <= col["LAG"] {
			continue
		}
		lag := f[col["LAG"]]
		if lag == "≥" && len(f) > col["LAG"]+1 {
			lag += " " + f[col["LAG"]+1]
		}
		r := screenRow{state: "?", members: "?", lag: lag}
		if i, ok := col["STATE"]; ok {
			r.state = f[i]
		}
		if i, ok := col["MEMBERS"]; ok {
			r.members = f[i]
		}
		out[f[0]] = r
	}
	return out
}
