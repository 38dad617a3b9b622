package kafka_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
)

// silentListener accepts connections and never answers: a broker that hangs.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	return ln.Addr().String()
}

// TestNewContextStopsWhenTheContextEnds: a connection to a hung broker stops waiting
// when the caller's context ends (a quit), not after --timeout.
func TestNewContextStopsWhenTheContextEnds(t *testing.T) {
	addr := silentListener(t)
	const timeout = 30 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	cl, err := kafka.NewContext(ctx, kafka.Config{Bootstrap: []string{addr}, Timeout: timeout})
	if err == nil {
		_ = cl.Close()
		t.Fatal("connected to a broker that never answers")
	}
	if d := time.Since(start); d > timeout/2 {
		t.Fatalf("gave up after %v; the context ended after 200ms", d)
	}
}
