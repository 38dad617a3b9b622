package wire

import (
	"context"
	"sync"
)

// resendGate orders the requests to one sarama broker so that a request sent again after
// its connection dropped goes alone, on a fresh connection. sarama sends one request at a
// time per broker; when the connection drops under one, the requests queued behind it fail
// with the same error without having been sent. Sent again side by side, they would queue
// on the fresh connection behind the request that dropped the first one, and a request
// that drops every connection it is sent on (a broker or proxy that closes the connection
// on one API) would take them down a second time. Alone, a resent request fails only for
// itself (TestRealKafkaOneDroppedConnection).
type resendGate struct {
	mu      sync.Mutex
	sending int           // first tries inside send
	alone   bool          // a resend is sending, or waiting for the first tries to finish
	changed chan struct{} // closed when sending or alone changes; nil when nobody waits
}

// enter waits for a turn to send: a first try waits while a resend holds the broker or
// waits for it; a resend waits for every request inside send to finish, and holds the
// broker alone until leave. It stops waiting when ctx is done.
func (g *resendGate) enter(ctx context.Context, resend bool) (leave func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.alone {
		if err := g.wait(ctx); err != nil {
			return nil, err
		}
	}
	if !resend {
		g.sending++
		return func() { g.update(func() { g.sending-- }) }, nil
	}
	g.alone = true
	for g.sending > 0 {
		if err := g.wait(ctx); err != nil {
			g.alone = false
			g.notify()
			return nil, err
		}
	}
	return func() { g.update(func() { g.alone = false }) }, nil
}

// wait releases g.mu until the next change or until ctx is done; g.mu is held again on return.
func (g *resendGate) wait(ctx context.Context) error {
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	changed := g.changed
	g.mu.Unlock()
	defer g.mu.Lock()
	select {
	case <-changed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *resendGate) update(change func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	change()
	g.notify()
}

// notify wakes every waiter; g.mu is held.
func (g *resendGate) notify() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}
