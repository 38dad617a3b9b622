package realkafka

// Running test/kafka/Shapes.java (Kafka's own Java clients, compiled once per version by
// scripts/kafka.sh) and reading what it did: one JSON event a line on stdout.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Event is one line Shapes printed: what it did and when (epoch ms right after the broker
// answered). Offsets and Positions are keyed "topic/partition" on the wire; use Committed.
type Event struct {
	Event     string           `json:"event"` // produced, transaction, commit, assigned, subscribed, left, closed, tool
	AtMs      int64            `json:"atMs"`
	Group     string           `json:"group"`
	Topic     string           `json:"topic"`
	Partition int32            `json:"partition"`
	Index     int64            `json:"index"` // transaction number; a tool run's place in RunTools
	Batch     int64            `json:"batch"`
	First     int64            `json:"first"` // first and last offset written (produced, transaction)
	Last      int64            `json:"last"`
	Records   int64            `json:"records"`
	Style     string           `json:"style"` // consume's commit style
	Offsets   map[string]int64 `json:"offsets"`
	Positions map[string]int64 `json:"positions"`
	// Exit, Stdout and Stderr are a tool run's (tools: RunTools).
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// At is the event's time.
func (e Event) At() time.Time { return time.UnixMilli(e.AtMs) }

// Committed is the event's offsets by partition.
func (e Event) Committed() map[model.TP]int64 { return byTP(e.Offsets) }

// PositionsByTP is the event's consumer positions by partition.
func (e Event) PositionsByTP() map[model.TP]int64 { return byTP(e.Positions) }

func byTP(m map[string]int64) map[model.TP]int64 {
	out := make(map[model.TP]int64, len(m))
	for k, v := range m {
		i := strings.LastIndexByte(k, '/')
		p, err := strconv.ParseInt(k[i+1:], 10, 32)
		if i < 0 || err != nil {
			panic(fmt.Sprintf("Shapes printed a partition key %q that is not topic/partition", k))
		}
		out[model.TP{Topic: k[:i], Partition: int32(p)}] = v
	}
	return out
}

func parseEvents(t testing.TB, out string) []Event {
	t.Helper()
	var evs []Event
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("Shapes printed a line that is not an event: %q: %v", line, err)
		}
		evs = append(evs, e)
	}
	return evs
}

func (b Broker) shapesClasspath() string {
	return b.Shapes + string(filepath.ListSeparator) + filepath.Join(b.Lib, "*")
}

// RunShape runs a Shapes sub-command to completion on this broker (--bootstrap is added) and
// returns its events; a non-zero exit fails the test.
func (b Broker) RunShape(t testing.TB, sub string, args ...string) []Event {
	t.Helper()
	full := append([]string{sub, "--bootstrap", b.Addr}, args...)
	out, errOut, code := runJava(t, b.shapesClasspath(), nil, "Shapes", full...)
	if code != 0 {
		t.Fatalf("Shapes %s on %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(full, " "), b.Name(), code, out, errOut)
	}
	return parseEvents(t, out)
}

// Shape is a Shapes sub-command running in the background (a JVM). Stop, also run when the
// test ends, sends SIGTERM (a member leaves its group) and waits for the JVM to exit.
type Shape struct {
	name    string
	mu      sync.Mutex
	events  []Event
	changed chan struct{} // closed and replaced on every event
	stderr  syncBuffer
	stop    func()
	exited  chan struct{}
}

// StartShape starts a Shapes sub-command on this broker (--bootstrap is added).
func (b Broker) StartShape(t testing.TB, sub string, args ...string) *Shape {
	t.Helper()
	full := append([]string{sub, "--bootstrap", b.Addr}, args...)
	ctx, cancel := context.WithCancel(context.Background())
	// The JVM exits when its standard input ends: if this test process dies without stopping
	// it (a timeout's panic skips the cleanups), the pipe closes and no JVM is left behind.
	cmd := javaCmdOn(t, ctx, b.shapesClasspath(), "Shapes", append(full, "--exit-on-stdin-eof")...)
	s := &Shape{name: "Shapes " + strings.Join(full, " "), changed: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = &s.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 20 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", s.name, err)
	}
	go func() {
		s.read(t, stdout)
		_ = cmd.Wait()
		close(s.exited)
	}()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			<-s.exited
			_ = stdin.Close()
		})
	}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("%s stderr:\n%s", s.name, s.stderr.String())
		}
	})
	return s
}

func (s *Shape) read(t testing.TB, r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Errorf("%s printed a line that is not an event: %q: %v", s.name, sc.Text(), err)
			continue
		}
		s.mu.Lock()
		s.events = append(s.events, e)
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
	}
}

// Events returns the events so far.
func (s *Shape) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Event(nil), s.events...)
}

// Last returns the last event of kind so far, and whether there was one.
func (s *Shape) Last(kind string) (Event, bool) {
	evs := s.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Event == kind {
			return evs[i], true
		}
	}
	return Event{}, false
}

// Wait waits up to d for the n-th event of kind (n from 1) and returns it; the test fails if
// it does not come or the JVM exits first.
func (s *Shape) Wait(t testing.TB, kind string, n int, d time.Duration) Event {
	t.Helper()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		seen := 0
		for _, e := range s.events {
			if e.Event == kind {
				if seen++; seen == n {
					s.mu.Unlock()
					return e
				}
			}
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-s.exited:
			// The reader is done: one more pass sees every event.
			if ev, ok := s.nth(kind, n); ok {
				return ev
			}
			t.Fatalf("%s exited before its event %q #%d; stderr:\n%s", s.name, kind, n, s.stderr.String())
		case <-deadline.C:
			t.Fatalf("%s: no event %q #%d within %s (events: %d); stderr:\n%s", s.name, kind, n, d, len(s.Events()), s.stderr.String())
		}
	}
}

func (s *Shape) nth(kind string, n int) (Event, bool) {
	seen := 0
	for _, e := range s.Events() {
		if e.Event == kind {
			if seen++; seen == n {
				return e, true
			}
		}
	}
	return Event{}, false
}

// Stop stops the JVM (SIGTERM, then waits) and returns every event it printed.
func (s *Shape) Stop() []Event {
	s.stop()
	return s.Events()
}
