package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// served is an `offsettui serve` running in-process for a test.
type served struct {
	addr   string
	stderr *syncBuffer
	code   chan int
	stop   context.CancelFunc
}

// syncBuffer is a bytes.Buffer safe for the exporter's log and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServe runs `offsettui serve args... --listen ADDR` until the test ends
// (or stop), and waits until it answers /healthz.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	s := &served{addr: freeAddr(t), stderr: &syncBuffer{}, code: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	go func() { s.code <- serveContext(ctx, append(args, "--listen", s.addr), io.Discard, s.stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.code:
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not end within 30s of its context")
		}
	})
	s.waitFor(t, 60*time.Second, "/healthz answers", func() bool { code, _ := s.get("/healthz"); return code == http.StatusOK })
	return s
}

// get fetches path; code 0 when nothing answered.
func (s *served) get(path string) (int, string) {
	resp, err := http.Get("http://" + s.addr + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// metrics returns the series lines of /metrics (comments left out).
func (s *served) metrics(t *testing.T) []string {
	t.Helper()
	code, body := s.get("/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	var out []string
	for l := range strings.SplitSeq(body, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// waitFor polls cond every 50 ms until it holds, failing the test after d.
func (s *served) waitFor(t *testing.T, d time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("%s: not within %s; serve's log:\n%s", what, d, s.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// withPrefix returns the lines that start with prefix.
func withPrefix(lines []string, prefix string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}
