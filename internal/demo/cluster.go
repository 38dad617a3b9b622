package demo

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Options configure Start.
type Options struct {
	// Now is the clock record timestamps are relative to; nil means
	// time.Now.
	Now func() time.Time
	// Logf receives progress and trouble reports (a live member that
	// fails to rejoin, a broker warning); nil discards them. It must be
	// safe for concurrent use.
	Logf func(format string, args ...any)
	// Traffic starts producers and consumers at fixed rates on topics of
	// their own (TrafficGroups, docs/demo.md), so the time axis moves; the
	// scenario's own topics and groups stay exactly as seeded either way.
	Traffic bool
}

// Cluster is a running, seeded demo cluster. Close it when done.
type Cluster struct {
	fake      *kfake.Cluster
	bootstrap []string
	startedAt time.Time

	members   []*member
	traffic   *traffic
	closeOnce sync.Once
}

// startTimeout bounds Start when ctx has no earlier deadline: on loopback it
// takes well under a second, so anything near this is a hang.
const startTimeout = 30 * time.Second

// Start starts three brokers on loopback, seeds the scenario and returns
// once both live groups are Stable with their member assigned, so callers
// see a settled cluster. ctx bounds the start only; the cluster runs until
// Close.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	// Kafka timestamps have millisecond precision; truncating here makes
	// RecordTime(StartedAt(), ...) equal to what a fetch returns.
	start := now().Truncate(time.Millisecond)

	kopts := []kfake.Opt{kfake.NumBrokers(3), kfake.ClusterID("offsettui-demo"), kfake.WithLogger(kfakeLogger{logf})}
	if opts.Traffic {
		kopts = append(kopts, kfake.BrokerConfigs(map[string]string{
			"log.cleaner.backoff.ms": strconv.FormatInt(cleanerEvery.Milliseconds(), 10)}))
	}
	fake, err := kfake.NewCluster(kopts...)
	if err != nil {
		return nil, fmt.Errorf("start demo brokers: %w", err)
	}
	c := &Cluster{fake: fake, bootstrap: fake.ListenAddrs(), startedAt: start}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()

	s, err := newSeeder(c.bootstrap)
	if err != nil {
		return nil, err
	}
	defer s.close()
	if err := s.seed(ctx, fake, start, scenarioTopics(), scenarioGroups()); err != nil {
		return nil, fmt.Errorf("seed demo cluster: %w", err)
	}
	for _, g := range scenarioGroups() {
		if len(g.live) == 0 {
			continue
		}
		m, err := startMember(c.bootstrap, g.name, g.live, logf)
		if err != nil {
			return nil, err
		}
		c.members = append(c.members, m)
	}
	if err := c.settle(ctx, s); err != nil {
		return nil, err
	}
	if opts.Traffic {
		if c.traffic, err = startTraffic(ctx, c.bootstrap, now, logf); err != nil {
			return nil, err
		}
	}
	ok = true
	logf("demo: cluster %v seeded and settled in %v", c.bootstrap, time.Since(began).Round(time.Millisecond))
	return c, nil
}

// Bootstrap returns the "127.0.0.1:port" address of each broker.
func (c *Cluster) Bootstrap() []string { return append([]string(nil), c.bootstrap...) }

// Fake returns the underlying kfake cluster, for tests that inject errors or
// delays with ControlKey.
func (c *Cluster) Fake() *kfake.Cluster { return c.fake }

// Close stops the live members, which leave their groups without
// committing, then the brokers. It is safe to call more than once.
func (c *Cluster) Close() {
	c.closeOnce.Do(func() {
		if c.traffic != nil {
			c.traffic.stop()
		}
		c.stopMembers()
		c.fake.Close()
	})
}

// stopMembers stops every live member and waits for it to leave its group.
func (c *Cluster) stopMembers() {
	var wg sync.WaitGroup
	for _, m := range c.members {
		wg.Go(m.stop)
	}
	wg.Wait()
}

// kfakeLogger forwards the brokers' warnings and errors to Logf.
type kfakeLogger struct {
	logf func(format string, args ...any)
}

// Logf implements kfake.Logger.
func (l kfakeLogger) Logf(level kfake.LogLevel, format string, args ...any) {
	if level > kfake.LogLevelWarn {
		return
	}
	l.logf("demo broker %s: "+format, append([]any{level}, args...)...)
}
