// Package serve is `offsettui serve`: a Prometheus exporter that snapshots
// one or more clusters on a schedule, keeps the time axis' history of each,
// and serves what the last snapshot showed — lag, time lag, rates, ETA, time
// to loss, statuses, evaluations — on /metrics (docs/metrics.md), with
// /healthz and /readyz. It only reads: a Target's Source can do nothing else.
package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// DefaultListen is where serve listens unless told otherwise: 9308 is the port
// Prometheus' list of exporter ports gives Kafka exporters, on loopback so that
// nothing is exposed beyond the machine without --listen saying so.
const DefaultListen = "127.0.0.1:9308"

// DefaultInterval is the time between two snapshots of a cluster.
const DefaultInterval = 30 * time.Second

// DefaultMaxPartitionSeries bounds the partitions per cluster that get series
// of their own.
const DefaultMaxPartitionSeries = 10000

// Options configure Run.
type Options struct {
	Targets []Target
	// Interval is the time between two snapshots of each cluster.
	Interval time.Duration
	// Deadline bounds each snapshot, the connection included when one is made.
	Deadline time.Duration
	// Query is what each snapshot reads (every group).
	Query model.Query
	// Time tunes the evaluation (--stall-after).
	Time timeaxis.Options
	// MaxPartitionSeries bounds the partitions per cluster with series of
	// their own (DefaultMaxPartitionSeries when 0).
	MaxPartitionSeries int
	// Series chooses the groups and topics exported and the granularity of lag
	// (every group, partitions, when zero); the snapshots read every group.
	Series Selection
	// Logf receives one line per change of a cluster's state (never a secret:
	// the messages are the client's errors, which name addresses only).
	Logf func(format string, args ...any)
	// Clock is the time snapshots are scheduled by (sampler.RealClock when
	// unset).
	Clock sampler.Clock
	// API serves the read API (/api/v1/..., api.go) from the last snapshot of each
	// cluster, which is then kept until the next.
	API bool
}

func (o *Options) defaults() error {
	if len(o.Targets) == 0 {
		return errors.New("no cluster to serve")
	}
	if o.Interval <= 0 || o.Deadline <= 0 {
		return errors.New("interval and deadline must be positive")
	}
	if o.Query.RiskWindow <= 0 {
		o.Query.RiskWindow = model.DefaultRiskWindow
	}
	if o.MaxPartitionSeries <= 0 {
		o.MaxPartitionSeries = DefaultMaxPartitionSeries
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Clock.Now == nil {
		o.Clock = sampler.RealClock
	}
	seen := map[string]bool{}
	for _, t := range o.Targets {
		if seen[t.Cluster] {
			return fmt.Errorf("cluster %q named twice", t.Cluster)
		}
		seen[t.Cluster] = true
	}
	return nil
}

// Exporter snapshots its clusters and serves their series.
type Exporter struct {
	opts    Options
	pollers []*poller
	handler http.Handler
	mux     *http.ServeMux
}

// New makes an exporter; Run starts it.
func New(o Options) (*Exporter, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	e := &Exporter{opts: o}
	for _, t := range o.Targets {
		e.pollers = append(e.pollers, newPoller(t, &e.opts))
	}
	runtime := prometheus.NewRegistry()
	runtime.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector())
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(&gatherer{pollers: e.pollers, runtime: runtime}, promhttp.HandlerOpts{
		// Scrapes queue rather than run side by side: each renders every series.
		MaxRequestsInFlight: 2,
		ErrorLog:            logger(o.Logf),
	}))
	mux.HandleFunc("GET /healthz", e.healthz)
	mux.HandleFunc("GET /readyz", e.readyz)
	mux.HandleFunc("GET /{$}", e.index)
	if o.API {
		e.apiRoutes(mux)
	}
	e.handler, e.mux = mux, mux
	return e, nil
}

// Handler serves /metrics, /healthz, /readyz and an index page.
func (e *Exporter) Handler() http.Handler { return e.handler }

// Handle serves h at pattern (http.ServeMux's) beside the exporter's own: offsettui
// mcp's /mcp, which reads through Read.
func (e *Exporter) Handle(pattern string, h http.Handler) { e.mux.Handle(pattern, h) }

// Run snapshots every cluster until ctx ends, serving on l meanwhile, then
// shuts the server down (waiting up to 5 s for scrapes in flight) and
// returns nil. It returns the server's error if serving fails.
func (e *Exporter) Run(ctx context.Context, l net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range e.pollers {
		wg.Go(func() { p.run(ctx) })
	}
	srv := &http.Server{Handler: e.handler, ReadHeaderTimeout: 10 * time.Second, ErrorLog: logger(e.opts.Logf)}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	var err error
	select {
	case <-ctx.Done():
		shut, stop := context.WithTimeout(context.Background(), 5*time.Second)
		_ = srv.Shutdown(shut)
		stop()
		<-served
	case err = <-served:
		cancel()
	}
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
