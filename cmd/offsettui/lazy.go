package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/views"
)

// lazyClient connects on first use, so the TUI shows its first screen at once
// and a cluster that cannot be reached becomes an error screen instead of a
// blank terminal. A failed connection is tried again on the next use (r).
// It serves the TUI's reads (views.Source) and the reset service (reset.Cluster).
// The connection is made outside the lock, once for every caller waiting on it:
// a caller whose context ends (a quit) stops waiting, and close never waits for it.
type lazyClient struct {
	c    common
	conn *connection // resolved before the program starts; nil: resolve on connect

	mu      sync.Mutex
	sess    *session
	dialing *dialing // the connection under way; nil when none
	closed  bool
}

// dialing is one connection attempt: done closes when sess or err is set.
type dialing struct {
	done chan struct{}
	sess *session
	err  error
}

// client returns the connected client, connecting first if needed.
func (l *lazyClient) client(ctx context.Context) (*kafka.Client, error) {
	l.mu.Lock()
	if l.sess != nil {
		defer l.mu.Unlock()
		return l.sess.client, nil
	}
	if l.closed {
		l.mu.Unlock()
		return nil, errors.New("the connection was closed")
	}
	d := l.dialing
	if d == nil {
		d = &dialing{done: make(chan struct{})}
		l.dialing = d
		go l.dial(ctx, d)
	}
	l.mu.Unlock()
	select {
	case <-d.done:
		if d.err != nil {
			return nil, d.err
		}
		return d.sess.client, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dial makes the connection of d with the context of the caller that started it, and
// keeps it unless the client was closed meanwhile.
func (l *lazyClient) dial(ctx context.Context, d *dialing) {
	if l.conn != nil {
		d.sess, d.err = l.c.connectWith(ctx, *l.conn)
	} else {
		d.sess, d.err = l.c.connect(ctx)
	}
	l.mu.Lock()
	l.dialing = nil
	switch {
	case d.err != nil:
	case l.closed:
		d.sess.close()
		d.sess, d.err = nil, errors.New("the connection was closed")
	default:
		l.sess = d.sess
	}
	l.mu.Unlock()
	close(d.done)
}

// close releases the session, if one was opened; a connection still under way is
// released when it is made.
func (l *lazyClient) close() {
	l.mu.Lock()
	s := l.sess
	l.closed, l.sess = true, nil
	l.mu.Unlock()
	if s != nil {
		s.close()
	}
}

// Snapshot implements views.Source.
func (l *lazyClient) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return model.Snapshot{}, err
	}
	return cl.Snapshot(ctx, q)
}

var _ views.StagedSource = (*lazyClient)(nil)

// SnapshotStaged implements views.StagedSource: the TUI's first screen shows
// the groups as soon as they are listed.
func (l *lazyClient) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return model.Snapshot{}, err
	}
	return cl.SnapshotStaged(ctx, q, listed)
}

// ReadPlanInput implements reset.Cluster.
func (l *lazyClient) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return plan.Input{}, err
	}
	return cl.ReadPlanInput(ctx, group, topics, at)
}

// TargetTimestamps implements reset.Cluster.
func (l *lazyClient) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	cl, err := l.client(ctx)
	if err != nil {
		return nil
	}
	return cl.TargetTimestamps(ctx, want, budget)
}

// CommitOffsets implements reset.Cluster.
func (l *lazyClient) CommitOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.CommitOffsets(ctx, group, offsets)
}

// DeleteOffsets implements reset.Cluster.
func (l *lazyClient) DeleteOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.DeleteOffsets(ctx, group, tps)
}

// DeleteGroup implements reset.Cluster.
func (l *lazyClient) DeleteGroup(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.DeleteGroup(ctx, group, tps)
}

// Committed implements reset.Cluster.
func (l *lazyClient) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.Committed(ctx, group)
}

// AlterShareOffsets implements reset.Cluster.
func (l *lazyClient) AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.AlterShareOffsets(ctx, group, offsets)
}

// DeleteShareOffsets implements reset.Cluster.
func (l *lazyClient) DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.DeleteShareOffsets(ctx, group, tps)
}

// ShareStartOffsets implements reset.Cluster.
func (l *lazyClient) ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.ShareStartOffsets(ctx, group)
}

// ShareUnwritable implements reset.Cluster.
func (l *lazyClient) ShareUnwritable(ctx context.Context, group string) string {
	cl, err := l.client(ctx)
	if err != nil {
		return "cannot connect to learn whether the cluster takes share-group start offsets: " + err.Error()
	}
	return cl.ShareUnwritable(ctx, group)
}

// access is whether the TUI may write: its session's, decided with the connection it was
// made with; before the connection, that resolved connection's; refused when neither is
// known.
func (l *lazyClient) access() writeAccess {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.sess != nil:
		return l.sess.access
	case l.conn != nil:
		return l.conn.access
	}
	return writeAccess{}
}

// contextName names the context for the undo command ("" without one).
func (l *lazyClient) contextName() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.sess != nil:
		return l.sess.contextName()
	case l.conn != nil && l.conn.context != nil:
		return l.conn.context.Name
	}
	return ""
}

// bootstrap names the cluster for the undo command: the client's addresses
// once connected (the demo's are known only then), else the flag's.
func (l *lazyClient) bootstrap() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil {
		return l.sess.client.Bootstrap()
	}
	return l.c.bootstrap
}
