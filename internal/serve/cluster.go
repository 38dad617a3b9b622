package serve

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/sampler"
	dto "github.com/prometheus/client_model/go"
)

// Source reads snapshots of one cluster (the program's *kafka.Client behind
// a connection made on first use). It is all the exporter can do with a
// cluster: read.
type Source interface {
	Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error)
}

// ErrNotConnected marks a snapshot that failed because no connection to the
// cluster could be made (a Source wraps its connection errors with it).
var ErrNotConnected = errors.New("not connected")

// Target is one cluster to export.
type Target struct {
	// Cluster is the value of the cluster label: the context's name, "demo",
	// or the bootstrap addresses.
	Cluster string
	Source  Source
}

// Failure reasons (offsettui_snapshot_failures_total's reason label).
const (
	reasonConnect = "connect"
	reasonTimeout = "timeout"
	reasonRead    = "read"
)

var failureReasons = [...]string{reasonConnect, reasonTimeout, reasonRead}

// clusterState is what the exporter knows of one cluster after its last
// snapshot. It is never modified once published: each snapshot publishes a
// new one, and scrapes read whichever is current.
type clusterState struct {
	// attempted: a snapshot has ended (read or failed) since the start.
	attempted bool
	up        bool
	// families holds the group and partition series of the last snapshot,
	// served only while up: a cluster that cannot be read shows none of its
	// last good values.
	families    []*dto.MetricFamily
	groups      int
	itemErrors  [len(errorKinds)]int
	leftOut     int
	duration    time.Duration
	lastSuccess time.Time // zero before the first snapshot read
	lastEnd     time.Time // when the last snapshot ended
	snapshots   uint64
	failures    [len(failureReasons)]uint64
	lastErr     string
	lastReason  string
	// snap is the last snapshot read, annotated with the time axis, for the read API
	// (api.go); nil without the API, or when the last snapshot failed. Never modified.
	snap *model.Snapshot
}

// poller snapshots one cluster on a schedule and publishes its state.
type poller struct {
	target  Target
	opts    *Options
	history *timeaxis.History // only the poller's goroutine touches it
	state   atomic.Pointer[clusterState]
	started time.Time
}

func newPoller(t Target, o *Options) *poller {
	p := &poller{target: t, opts: o, history: timeaxis.NewWatchHistory(o.Time.StallAfter), started: o.Clock.Now()}
	p.state.Store(&clusterState{})
	return p
}

// run snapshots the cluster at once and then every interval until ctx ends.
func (p *poller) run(ctx context.Context) {
	_ = sampler.Run(ctx, sampler.Plan{Every: p.opts.Interval}, p.opts.Clock, func(ctx context.Context, _ bool) error {
		p.take(ctx)
		return nil
	})
}

// take reads one snapshot within one deadline and publishes what it shows.
func (p *poller) take(ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, p.opts.Deadline)
	defer cancel()
	start := p.opts.Clock.Now()
	snap, err := p.target.Source.Snapshot(sctx, p.opts.Query)
	if ctx.Err() != nil {
		return // shutting down: the snapshot was cut short, not failed
	}
	end := p.opts.Clock.Now()
	old := p.state.Load()
	next := &clusterState{attempted: true, duration: end.Sub(start), lastEnd: end, lastSuccess: old.lastSuccess,
		snapshots: old.snapshots + 1, failures: old.failures}
	if err != nil {
		reason := failureReason(sctx, err)
		next.failures[reasonIndex(reason)]++
		next.lastErr, next.lastReason = err.Error(), reason
		if !old.attempted || old.up || old.lastReason != reason { // one line per outage and reason, not per snapshot
			p.opts.Logf("cluster %s: snapshot failed (%s) after %s: %v; its series are absent and offsettui_up is 0 until it is read again",
				p.target.Cluster, reason, next.duration.Round(time.Millisecond), err)
		}
		p.state.Store(next)
		return
	}
	p.history.Add(&snap, true)
	p.history.Annotate(&snap, p.opts.Time)
	v := buildView(&snap, p.opts.Query.RiskWindow, p.opts.MaxPartitionSeries, &p.opts.Series)
	next.up, next.lastSuccess = true, snap.Cluster.TakenAt.Time
	next.families, next.groups, next.itemErrors, next.leftOut = viewFamilies(p.target.Cluster, v, p.opts.Series.Granularity), v.all, v.itemErrors, v.leftOut
	if p.opts.API {
		next.snap = &snap
	}
	if !old.up {
		p.opts.Logf("cluster %s: read (%d groups) in %s", p.target.Cluster, len(snap.Groups), next.duration.Round(time.Millisecond))
	}
	p.state.Store(next)
}

// failureReason classifies a snapshot that failed whole.
func failureReason(ctx context.Context, err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(ctx.Err(), context.DeadlineExceeded):
		return reasonTimeout
	case errors.Is(err, ErrNotConnected):
		return reasonConnect
	}
	return reasonRead
}

func reasonIndex(reason string) int {
	for i, r := range failureReasons {
		if r == reason {
			return i
		}
	}
	return len(failureReasons) - 1
}

// stuck reports whether the poller has not ended a snapshot for much longer
// than its schedule allows: three intervals plus three deadlines.
func (p *poller) stuck(now time.Time) bool {
	last := p.state.Load().lastEnd
	if last.IsZero() {
		last = p.started
	}
	return now.Sub(last) > 3*(p.opts.Interval+p.opts.Deadline)
}
