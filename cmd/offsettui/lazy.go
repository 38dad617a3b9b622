package main

import (
	"context"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/views"
)

// lazyClient connects on first use, so the TUI shows its first screen at once
// and a cluster that cannot be reached becomes an error screen instead of a
// blank terminal. A failed connection is tried again on the next use (r).
// It serves the TUI's reads (views.Source) and the reset service (reset.Cluster).
type lazyClient struct {
	c    common
	conn *connection // resolved before the program starts; nil: resolve on connect

	mu   sync.Mutex
	sess *session
}

// client returns the connected client, connecting first if needed.
func (l *lazyClient) client(ctx context.Context) (*kafka.Client, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil {
		return l.sess.client, nil
	}
	var s *session
	var err error
	if l.conn != nil {
		s, err = l.c.connectWith(ctx, *l.conn)
	} else {
		s, err = l.c.connect(ctx)
	}
	if err != nil {
		return nil, err
	}
	l.sess = s
	return s.client, nil
}

// close releases the session, if one was opened.
func (l *lazyClient) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil {
		l.sess.close()
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
func (l *lazyClient) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (model.PlanInput, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return model.PlanInput{}, err
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

// Committed implements reset.Cluster.
func (l *lazyClient) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.Committed(ctx, group)
}

// contextName names the context for the undo command ("" without one).
func (l *lazyClient) AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.AlterShareOffsets(ctx, group, offsets)
}

func (l *lazyClient) DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.DeleteShareOffsets(ctx, group, tps)
}

func (l *lazyClient) ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error) {
	cl, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.ShareStartOffsets(ctx, group)
}

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
