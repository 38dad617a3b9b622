package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/mcpserver"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/serve"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// serveFlags are serve's own flags (docs/cli.md#serve).
type serveFlags struct {
	contexts    []string
	allContexts bool
	listen      string
	interval    string
	budget      int64
	maxParts    int
	noAPI       bool
	// The series chosen (docs/metrics.md "Choosing the series").
	includeGroups, excludeGroups []string
	includeTopics, excludeTopics []string
	granularity                  string

	intervalD time.Duration
	series    serve.Selection
}

// newServeCmd is `offsettui serve`; SIGINT or SIGTERM ends it (exit 0).
func newServeCmd() *cobra.Command {
	var (
		c  common
		sf serveFlags
		tf timeFlags
	)
	cmd := &cobra.Command{
		Use:   "serve [--listen ADDR] [--interval DURATION] [--context NAME]... [--all-contexts] [flags]",
		Short: "a Prometheus exporter: lag, time to loss, statuses on /metrics; a read API (/api/v1) and MCP (/mcp)",
		Long: "A Prometheus exporter that pages before the loss: it snapshots each cluster every --interval,\n" +
			"keeps the time axis, and serves lag, lag in seconds, rates, ETA, time to loss, records lost,\n" +
			"statuses and evaluations on /metrics (docs/metrics.md), with /healthz and /readyz, and from the\n" +
			"same snapshots a read API (/api/v1, check --server) and MCP (/mcp) (docs/api.md). It never\n" +
			"writes. Alert rules and a Grafana dashboard: deploy/. SIGINT or SIGTERM ends it (exit 0).",
		Example: "  offsettui serve --demo\n" +
			"  offsettui serve --context prod-eu --context prod-us --listen :9308\n" +
			"  offsettui serve --all-contexts --interval 1m\n" +
			"  offsettui serve --context prod --include-group 'payments-.*' --exclude-group '.*-canary' --granularity topic\n" +
			"  curl -s localhost:9308/metrics | grep offsettui_group_loss_seconds\n" +
			"  curl -s localhost:9308/api/v1/check/fanout?topic=outbox",
	}
	fs := cmd.Flags()
	c.noOutput = true
	sf.register(fs, &c)
	tf.register(fs, "")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		return serveUntil(ctx, c, sf, tf, cmd.ErrOrStderr())
	}
	return cmd
}

// serveUntil is `offsettui serve` once its flags are parsed, until ctx ends.
func serveUntil(ctx context.Context, c common, sf serveFlags, tf timeFlags, stderr io.Writer) error {
	if err := c.validate(); err != nil {
		return badInput(err)
	}
	if err := tf.parse(); err != nil {
		return badInput(err)
	}
	if err := sf.validate(&c); err != nil {
		return badInput(err)
	}
	c.stderr = stderr
	sources, err := sf.sources(&c)
	defer func() {
		for _, s := range sources {
			s.lc.close()
		}
	}()
	if err != nil {
		return badInput(err)
	}
	// Listen first: a port already taken fails at once, not after the connections.
	l, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return failure(fmt.Errorf("--listen %s: %v", sf.listen, err))
	}
	defer l.Close()
	logger := log.New(stderr, "offsettui serve: ", log.LstdFlags)
	switch code := firstConnections(ctx, sources, 2*c.timeoutD, logger); {
	case code == exitBadInput:
		return exitWith(code)
	case ctx.Err() != nil:
		return nil // a signal before anything was served
	case code != exitOK:
		return exitWith(code)
	}
	targets := make([]serve.Target, len(sources))
	for i, s := range sources {
		targets[i] = serve.Target{Cluster: s.cluster, Source: s}
	}
	ex, err := serve.New(serve.Options{Targets: targets, Interval: sf.intervalD, Deadline: 2 * c.timeoutD,
		Query: c.withCommitLog(model.Query{RiskWindow: c.riskWindowD, FetchBudget: sf.budget, ConfigMaxAge: time.Minute, CommitLogCatchUp: true}),
		Time:  tf.options(), MaxPartitionSeries: sf.maxParts, Series: sf.series, Logf: logger.Printf, API: !sf.noAPI})
	if err != nil {
		return badInput(err)
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Cluster
	}
	if !sf.noAPI {
		ex.Handle("/mcp", mcpserver.HTTPHandler(mcpserver.New(mcpserver.Options{Cluster: servedClusters(ex, c, sources),
			RiskWindow: c.riskWindowD, Version: versionText()})))
	}
	logger.Printf("serving %s on http://%s/metrics every %s; rates, ETA and time to loss (offsettui_group_loss_seconds) "+
		"need two snapshots of a group: they appear from the second, in about %s (--interval)",
		strings.Join(names, ", "), l.Addr(), text.HumanDuration(sf.intervalD), text.HumanDuration(sf.intervalD))
	if err := ex.Run(ctx, l); err != nil {
		return failure(err)
	}
	logger.Printf("stopped")
	return nil
}

func (sf *serveFlags) register(fs *pflag.FlagSet, c *common) {
	// The common flags, less --context, which serve repeats; --read-only is
	// accepted and hidden: serve never writes.
	shared := pflag.NewFlagSet("shared", pflag.ContinueOnError)
	c.register(shared)
	shared.VisitAll(func(f *pflag.Flag) {
		if f.Name == "context" {
			return
		}
		f.Hidden = f.Name == "read-only"
		fs.AddFlag(f)
	})
	fs.StringArrayVar(&sf.contexts, "context", nil, "`NAME` a named cluster of the config file; repeat it to serve several (env OFFSETTUI_CONTEXT)")
	fs.BoolVar(&sf.allContexts, "all-contexts", false, "serve every context of the config file")
	fs.StringVar(&sf.listen, "listen", serve.DefaultListen, "`ADDR` where to serve /metrics, /healthz and /readyz (host:port; :9308 for every interface)")
	fs.StringVar(&sf.interval, "interval", serve.DefaultInterval.String(), "`DURATION` between two snapshots of each cluster")
	fs.Int64Var(&sf.budget, "fetch-budget", model.DefaultFetchBudget, "`BYTES` to fetch per snapshot for committed-record timestamps (lag in seconds, time to loss); 0 = none")
	fs.IntVar(&sf.maxParts, "max-partition-series", serve.DefaultMaxPartitionSeries, "`N` partitions per cluster, not ok, that get series of their own (the most severe first)")
	fs.StringArrayVar(&sf.includeGroups, "include-group", nil, "`REGEX` export only the groups it matches (RE2, the whole name; repeatable); the snapshots read every group")
	fs.StringArrayVar(&sf.excludeGroups, "exclude-group", nil, "`REGEX` export none of the groups it matches (wins over --include-group; repeatable)")
	fs.StringArrayVar(&sf.includeTopics, "include-topic", nil, "`REGEX` give only the topics it matches series of their own (repeatable); a group's totals count every topic")
	fs.StringArrayVar(&sf.excludeTopics, "exclude-topic", nil, "`REGEX` give none of the topics it matches series of their own (wins over --include-topic; repeatable)")
	fs.StringVar(&sf.granularity, "granularity", serve.GranularityPartition.String(), "`LEVEL` of the lag series: partition (each partition not ok), topic (one per group and topic) or group (totals only)")
	fs.BoolVar(&sf.noAPI, "no-api", false, "serve /metrics only: no read API (/api/v1/..., docs/api.md) and no /mcp, and no snapshot kept between two")
}

// servedClusters are serve's clusters as /mcp's tools read them, by the name of each
// (its context's): the only one when a call names none.
func servedClusters(ex *serve.Exporter, c common, sources []*serveSource) func(string) (mcpserver.Cluster, error) {
	byName := map[string]mcpserver.Cluster{}
	for _, s := range sources {
		byName[s.cluster] = &servedCluster{ex: ex, label: s.cluster, c: c, access: s.lc.access(), planner: planReader{lazyPlanSource{s.lc}},
			tool: s.lc.toolConnection}
	}
	return func(name string) (mcpserver.Cluster, error) {
		if name == "" && len(sources) == 1 {
			name = sources[0].cluster
		}
		if cl, ok := byName[name]; ok {
			return cl, nil
		}
		served := make([]string, len(sources))
		for i, s := range sources {
			served[i] = s.cluster
		}
		return nil, fmt.Errorf("context %q: this server serves %s; name one with the context argument", name, strings.Join(served, ", "))
	}
}

// validate checks serve's flags; the error names the flag.
func (sf *serveFlags) validate(c *common) error {
	var err error
	if sf.intervalD, err = parse.Duration(sf.interval); err != nil {
		return fmt.Errorf("--interval: %w", err)
	}
	if sf.intervalD <= 0 {
		return fmt.Errorf("--interval: must be positive, got %q", sf.interval)
	}
	if _, _, err := net.SplitHostPort(sf.listen); err != nil {
		return fmt.Errorf("--listen: want host:port (127.0.0.1:9308, :9308), got %q", sf.listen)
	}
	if sf.budget < 0 {
		return fmt.Errorf("--fetch-budget: must not be negative, got %d", sf.budget)
	}
	if sf.maxParts <= 0 {
		return fmt.Errorf("--max-partition-series: must be positive, got %d", sf.maxParts)
	}
	if err := nonEmpty("--context", sf.contexts); err != nil {
		return err
	}
	if sf.series.Granularity, err = serve.ParseGranularity(sf.granularity); err != nil {
		return fmt.Errorf("--granularity: %w", err)
	}
	for _, f := range []struct {
		flag  string
		exprs []string
		dst   *[]*regexp.Regexp
	}{
		{"--include-group", sf.includeGroups, &sf.series.IncludeGroups}, {"--exclude-group", sf.excludeGroups, &sf.series.ExcludeGroups},
		{"--include-topic", sf.includeTopics, &sf.series.IncludeTopics}, {"--exclude-topic", sf.excludeTopics, &sf.series.ExcludeTopics},
	} {
		if err := nonEmpty(f.flag, f.exprs); err != nil {
			return err
		}
		if *f.dst, err = serve.CompileNames(f.flag, f.exprs); err != nil {
			return err
		}
	}
	several := len(sf.contexts) > 1 || sf.allContexts
	switch {
	case sf.allContexts && len(sf.contexts) > 0:
		return errors.New("--all-contexts and --context exclude each other")
	case c.demo && (sf.allContexts || len(sf.contexts) > 0):
		return errors.New("--demo uses no context: leave out --context and --all-contexts")
	case several && (c.bootstrap != "" || c.commandConfig != ""):
		return errors.New("--bootstrap-server and --command-config apply to one cluster: with several contexts, each uses its own settings")
	}
	return nil
}

// sources resolves the clusters to serve, each with a connection made on first
// use. A context the config file lacks, or one named twice, is bad input.
func (sf *serveFlags) sources(c *common) ([]*serveSource, error) {
	names := sf.contexts
	if sf.allContexts {
		file, err := c.loadConfig(c.errOut())
		if err != nil {
			return nil, err
		}
		if file == nil || len(file.Contexts) == 0 {
			return nil, errors.New("--all-contexts: the config file has no contexts (docs/connect.md)")
		}
		names = nil
		for _, ctx := range file.Contexts {
			names = append(names, ctx.Name)
		}
	}
	if len(names) == 0 {
		s, err := newServeSource(*c)
		if err != nil {
			return nil, err
		}
		return []*serveSource{s}, nil
	}
	var out []*serveSource
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			return nil, fmt.Errorf("--context %s: named twice", name)
		}
		seen[name] = true
		cc := *c
		cc.context, cc.onlyContext = name, len(names) > 1
		s, err := newServeSource(cc)
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, nil
}

// newServeSource resolves one cluster and names it: its context's name,
// "demo", or its bootstrap addresses.
func newServeSource(c common) (*serveSource, error) {
	conn, err := c.resolveConnection(c.errOut())
	if err != nil {
		return nil, err
	}
	label := "demo"
	switch {
	case c.demo:
	case conn.context != nil:
		label = conn.context.Name
	case len(conn.bootstrap) > 0:
		label = strings.Join(conn.bootstrap, ",")
	default:
		boot, err := clientconfig.PropertiesBootstrap(conn.props)
		if err != nil || len(boot) == 0 {
			return nil, errors.New("no bootstrap server: pass --bootstrap-server host:port, --context NAME or --demo")
		}
		label = strings.Join(boot, ",")
	}
	return &serveSource{cluster: label, lc: &lazyClient{c: c, conn: &conn}}, nil
}

// serveSource reads snapshots of one cluster through a connection made on
// first use and made again after a failed attempt; it offers serve nothing
// but Snapshot.
type serveSource struct {
	cluster string // the cluster label
	lc      *lazyClient
}

// Snapshot implements serve.Source.
func (s *serveSource) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	cl, err := s.lc.client(ctx)
	if err != nil {
		return model.Snapshot{}, fmt.Errorf("%w: %w", serve.ErrNotConnected, err)
	}
	return cl.Snapshot(ctx, q)
}

// firstConnections connects every cluster once, side by side, within one
// deadline: a client configuration that cannot be used is bad input (exit 2),
// and the demo must start (exit 1); a cluster that does not answer is tried
// again at every snapshot, offsettui_up 0 meanwhile.
func firstConnections(ctx context.Context, sources []*serveSource, deadline time.Duration, logger *log.Logger) exitCode {
	errs := make([]error, len(sources))
	var wg sync.WaitGroup
	for i, s := range sources {
		wg.Go(func() {
			ctx, cancel := ctx, context.CancelFunc(func() {})
			if !s.lc.c.demo { // the demo's start has its own bound (internal/demo)
				ctx, cancel = context.WithTimeout(ctx, deadline)
			}
			defer cancel()
			_, errs[i] = s.lc.client(ctx)
		})
	}
	wg.Wait()
	var code exitCode = exitOK
	for i, err := range errs {
		s := sources[i]
		switch {
		case err == nil:
		case isBadInput(err):
			logger.Printf("cluster %s: %v", s.cluster, err)
			code = max(code, exitBadInput)
		case s.lc.c.demo:
			logger.Printf("%v", err)
			code = max(code, exitFailure)
		default:
			logger.Printf("cluster %s: cannot connect yet, trying again at each snapshot: %v", s.cluster, err)
		}
	}
	return code
}
