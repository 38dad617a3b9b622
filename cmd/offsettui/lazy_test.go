package main

import (
	"context"
	"net"
	"testing"
	"time"
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
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	const timeout = 30 * time.Second
	lc := &lazyClient{c: common{timeoutD: timeout}, conn: &connection{bootstrap: []string{ln.Addr().String()}}}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := lc.client(ctx); first <- err }()
	time.Sleep(100 * time.Millisecond) // the connection is under way
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
