package wire

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestResendGate: a resend waits for the first tries inside send and then goes alone; a first
// try waits while a resend holds the broker or waits for it; a resend that gives up lets the
// others go.
func TestResendGate(t *testing.T) {
	ctx := context.Background()
	var g resendGate
	leaveFirst, err := g.enter(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	resent := make(chan func(), 1)
	go func() {
		leave, err := g.enter(ctx, true)
		if err != nil {
			t.Error(err)
		}
		resent <- leave
	}()
	select {
	case <-resent:
		t.Fatal("the resend went while a first try was inside send")
	case <-time.After(50 * time.Millisecond):
	}
	// A first try that arrives while the resend waits goes after it.
	later := make(chan func(), 1)
	go func() {
		leave, err := g.enter(ctx, false)
		if err != nil {
			t.Error(err)
		}
		later <- leave
	}()
	time.Sleep(20 * time.Millisecond)
	leaveFirst()
	var leaveResend func()
	select {
	case leaveResend = <-resent:
	case <-time.After(time.Second):
		t.Fatal("the resend did not go once the first try left")
	}
	select {
	case <-later:
		t.Fatal("a first try went beside the resend")
	case <-time.After(50 * time.Millisecond):
	}
	leaveResend()
	select {
	case leave := <-later:
		leave()
	case <-time.After(time.Second):
		t.Fatal("the first try did not go once the resend left")
	}

	// A resend that stops waiting (its call timed out) lets first tries go again.
	leaveFirst, _ = g.enter(ctx, false)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if _, err := g.enter(wctx, true); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a resend behind a first try that never leaves: %v, want the deadline", err)
	}
	got := make(chan struct{})
	go func() {
		leave, _ := g.enter(ctx, false)
		leave()
		close(got)
	}()
	select {
	case <-got:
	case <-time.After(time.Second):
		t.Fatal("a first try waits for a resend that gave up")
	}
	leaveFirst()
}
