package kafka

import (
	"context"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/commitlog"
	"github.com/offsettui/offsettui/internal/kafka/groupread"
	"github.com/offsettui/offsettui/internal/kafka/logread"
	"github.com/offsettui/offsettui/internal/kafka/snapshot"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/kafka/write"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Config says how to reach a cluster (wire.Config).
type Config = wire.Config

// CommitLogOptions bound one read of __consumer_offsets (commitlog.Options).
type CommitLogOptions = commitlog.Options

var (
	// ErrBadConfig marks errors in the client configuration the user gave.
	ErrBadConfig = wire.ErrBadConfig
	// ErrCannotProveInactive is returned when the group was found nowhere and some
	// broker's group listing failed: a live group could be hiding on that broker.
	ErrCannotProveInactive = snapshot.ErrCannotProveInactive
)

// Client reads snapshots of one cluster and writes offsets to it. It is safe for
// concurrent use; it keeps its connections, and what its reads learned, between
// snapshots for its lifetime. Each method is one of its rooms' (doc.go).
type Client struct {
	conn      *wire.Conn
	groups    *groupread.Reader
	logs      *logread.Reader
	commitLog *commitlog.Reader
	snapshots *snapshot.Reader
	writes    *write.Writer
}

// NewContext checks the configuration and connects (one Metadata round trip); the
// connection stops waiting when ctx is done (a quit, Ctrl-C).
func NewContext(ctx context.Context, cfg Config) (*Client, error) {
	conn, err := wire.Dial(ctx, cfg)
	if err != nil {
		return nil, err
	}
	c := &Client{conn: conn, groups: groupread.New(conn), logs: logread.New(conn)}
	c.commitLog = commitlog.New(conn, c.logs)
	c.snapshots = snapshot.New(conn, c.groups, c.logs, c.commitLog)
	c.writes = write.New(conn, c.groups)
	return c, nil
}

// Close releases the connections (wire.Conn.Close).
func (c *Client) Close() error { return c.conn.Close() }

// Bootstrap returns the addresses the client was given, for display.
func (c *Client) Bootstrap() string { return c.conn.Bootstrap() }

// Snapshot reads the groups and topics q names (snapshot.Reader.Snapshot).
func (c *Client) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	return c.snapshots.Snapshot(ctx, q)
}

// SnapshotStaged is Snapshot that first hands listed the groups as listed.
func (c *Client) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	return c.snapshots.SnapshotStaged(ctx, q, listed)
}

// Observe is what Snapshot assembles, before it is assembled.
func (c *Client) Observe(ctx context.Context, q model.Query) (model.Observation, error) {
	return c.snapshots.Observe(ctx, q)
}

// ReadPlanInput reads what a reset plan of group needs (snapshot.Reader.ReadPlanInput).
func (c *Client) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	return c.snapshots.ReadPlanInput(ctx, group, topics, at)
}

// GroupNames lists the cluster's groups, for shell completion.
func (c *Client) GroupNames(ctx context.Context) ([]string, error) { return c.groups.GroupNames(ctx) }

// Committed reads group's committed offsets afresh, for a read-back.
func (c *Client) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	return c.groups.Committed(ctx, group)
}

// ShareStartOffsets reads a share group's start offsets afresh, for a read-back.
func (c *Client) ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error) {
	return c.groups.ShareStartOffsets(ctx, group)
}

// ShareUnwritable says why share group's offsets cannot be written, or "".
func (c *Client) ShareUnwritable(ctx context.Context, group string) string {
	return c.groups.ShareUnwritable(ctx, group)
}

// TopicNames lists the cluster's topics, for shell completion.
func (c *Client) TopicNames(ctx context.Context) ([]string, error) { return c.logs.TopicNames(ctx) }

// TopicErrors says which of topics cannot be read, and why.
func (c *Client) TopicErrors(ctx context.Context, topics []string) (map[string]*model.Error, error) {
	return c.logs.TopicErrors(ctx, topics)
}

// TargetTimestamps fetches the timestamps of the records at want, within budget bytes.
func (c *Client) TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time {
	return c.logs.TargetTimestamps(ctx, want, budget)
}

// ReadCommitLog reads groups' commits forward from __consumer_offsets (commitlog.Reader.Read).
func (c *Client) ReadCommitLog(ctx context.Context, groups []string, opt CommitLogOptions) (map[string]*model.CommitLog, model.CommitLogScan) {
	return c.commitLog.Read(ctx, groups, opt)
}

// SearchCommitLog searches __consumer_offsets backwards for what needs ask (commitlog.Reader.Search).
func (c *Client) SearchCommitLog(ctx context.Context, needs map[string]model.CommitLogNeed, opt CommitLogOptions) (map[string]*model.CommitLog, model.CommitLogScan) {
	return c.commitLog.Search(ctx, needs, opt)
}

// CommitsSeen lists the commits to group since a time, with who made them.
func (c *Client) CommitsSeen(ctx context.Context, group, typ string, since time.Time) []model.CommitSeen {
	return c.commitLog.CommitsSeen(ctx, group, typ, since)
}

// CommitOffsets commits offsets for group in the admin form (write.Writer.CommitOffsets).
func (c *Client) CommitOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error) {
	return c.writes.CommitOffsets(ctx, group, offsets)
}

// DeleteOffsets deletes group's commits of tps (write.Writer.DeleteOffsets).
func (c *Client) DeleteOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	return c.writes.DeleteOffsets(ctx, group, tps)
}

// DeleteGroup deletes group (write.Writer.DeleteGroup).
func (c *Client) DeleteGroup(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	return c.writes.DeleteGroup(ctx, group, tps)
}

// AlterShareOffsets sets share group's start offsets (write.Writer.AlterShareOffsets).
func (c *Client) AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error) {
	return c.writes.AlterShareOffsets(ctx, group, offsets)
}

// DeleteShareOffsets deletes share group's start offsets of tps (write.Writer.DeleteShareOffsets).
func (c *Client) DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error) {
	return c.writes.DeleteShareOffsets(ctx, group, tps)
}
