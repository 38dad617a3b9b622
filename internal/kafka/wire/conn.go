package wire

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Config says how to reach a cluster.
type Config struct {
	// Bootstrap, when set, wins over Client.Bootstrap.
	Bootstrap []string
	// Client is how to connect and authenticate (TLS, SASL, client.id), from
	// clientconfig.FromProperties; the zero value is plaintext without SASL.
	Client clientconfig.Settings
	// Timeout bounds every request (dial, read, write).
	Timeout time.Duration
	// Concurrency bounds requests in flight across brokers (default 16).
	Concurrency int
	// Logger receives debug lines; nil discards them.
	Logger *log.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// ErrBadConfig marks errors in the client configuration the user gave.
var ErrBadConfig = errors.New("bad client configuration")

// Conn is offsettui's connection to one cluster: the known brokers and their
// sarama connections, franz-go's kgo client for the requests sarama lacks, and the
// call policy every request goes through (call.go). It is safe for concurrent use.
//
// It talks to brokers directly (no sarama.Client) so that the reads above it decide
// every request: which topics a Metadata request names, which broker gets what
// batch. sarama sends what it speaks; kgo sends the rest (kgocall.go).
type Conn struct {
	cfg  Config
	conf *sarama.Config
	sem  chan struct{}
	logf func(string, ...any)
	// kgo sends the requests sarama lacks, to brokers by id (kgocall.go).
	kgo *kgo.Client

	// brokers are the cluster's brokers as this Conn knows them (brokers.go).
	brokers *brokerSet
}

// Dial checks the configuration and connects (one Metadata round trip); the
// connection stops waiting when ctx is done (a quit, Ctrl-C).
func Dial(ctx context.Context, cfg Config) (*Conn, error) {
	if len(cfg.Bootstrap) == 0 {
		cfg.Bootstrap = cfg.Client.Bootstrap
	}
	if len(cfg.Bootstrap) == 0 {
		return nil, fmt.Errorf("%w: no bootstrap server: pass --bootstrap-server host:port, set KAFKA_BOOTSTRAP_SERVERS "+
			"or bootstrap.servers in the client properties", ErrBadConfig)
	}
	if err := clientconfig.CheckBootstrap(cfg.Bootstrap); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 16
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	conf, err := saramaConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	c := &Conn{cfg: cfg, conf: conf, sem: make(chan struct{}, cfg.Concurrency)}
	c.logf = func(string, ...any) {}
	var kgoLog func(string, ...any)
	if cfg.Logger != nil {
		c.logf, kgoLog = cfg.Logger.Printf, cfg.Logger.Printf
	}
	if ignored := cfg.Client.Ignored; len(ignored) > 0 {
		c.logf("client properties ignored (not used by offsettui): %s", strings.Join(ignored, ", "))
	}
	c.brokers = newBrokerSet(conf, c.logf, cfg.Bootstrap)
	if err := c.RefreshBrokers(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("connect to %s: %w", strings.Join(cfg.Bootstrap, ","), describeConnErr(err))
	}
	// kgo is seeded with the brokers the metadata named, or the bootstrap servers
	// when it named none.
	seeds := c.brokers.addrs()
	if len(seeds) == 0 {
		seeds = cfg.Bootstrap
	}
	opts, err := kgoOptions(cfg, seeds, kgoLog)
	if err == nil {
		c.kgo, err = kgo.NewClient(opts...)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	return c, nil
}

// RefreshBrokers learns the cluster's brokers from a seed or a known broker and
// gives the brokers dropped after a failure a fresh connection: it is called
// where a snapshot or a read-back starts, never in the middle of one.
func (c *Conn) RefreshBrokers(ctx context.Context) error {
	_, err := c.metadataRequest(ctx, nil, true)
	return err
}

// metadataAnswer is one Metadata answer (the probe topic removed) and what the
// visibility probe showed.
type metadataAnswer struct {
	resp    *sarama.MetadataResponse
	visible *bool
	// probeDenied: the probe topic was denied (TOPIC_AUTHORIZATION_FAILED).
	probeDenied bool
	clusterID   *string
}

// metadataStagger is how long a Metadata request may go unanswered before the
// next candidate broker is asked as well.
const metadataStagger = 300 * time.Millisecond

// metadataRequest sends Metadata for topics, plus the visibility probe (see
// visibility.go), to the known brokers and the seeds: one at a time, the next as
// soon as one fails or stays silent for metadataStagger, so a hung seed costs
// little when another answers. The first answer wins and its brokers are
// learned; the brokers dropped after a failure come back only with reconnect.
func (c *Conn) metadataRequest(ctx context.Context, topics []string, reconnect bool) (metadataAnswer, error) {
	candidates := c.brokers.candidates()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	probe := probeTopicName()
	type result struct {
		ans metadataAnswer
		err error
	}
	results := make(chan result, len(candidates))
	ask := func(b *sarama.Broker) {
		c.brokers.open(b)
		req := &sarama.MetadataRequest{Version: 10, Topics: append(slices.Clone(topics), probe),
			IncludeClusterAuthorizedOperations: true}
		resp, err := Call(ctx, c, b, func() (*sarama.MetadataResponse, error) { return b.GetMetadata(req) })
		if err != nil {
			results <- result{err: err}
			return
		}
		results <- result{ans: readProbe(resp, probe, req.Version)}
	}
	var lastErr error
	pending, next := 0, 0
	for next < len(candidates) || pending > 0 {
		if next < len(candidates) {
			go ask(candidates[next])
			next++
			pending++
		}
		var stagger <-chan time.Time
		if next < len(candidates) {
			stagger = time.After(metadataStagger)
		}
		select {
		case r := <-results:
			pending--
			if r.err == nil {
				c.brokers.learn(r.ans.resp.Brokers, reconnect)
				return r.ans, nil
			}
			lastErr = r.err
		case <-stagger:
		}
	}
	if lastErr == nil {
		lastErr = sarama.ErrOutOfBrokers
	}
	return metadataAnswer{}, lastErr
}

// check drops b after a failure that says the broker is silent or unreachable
// (a timeout, a failed dial): sarama keeps a connection after a read timeout,
// and a late reply on it would then answer the next request ("correlation ID
// didn't match"). A connection that dropped costs only its request: sarama has
// closed it, and the next request opens a fresh one (reopen). Protocol errors
// (KError) keep the connection.
func (c *Conn) check(b *sarama.Broker, err error) error {
	var (
		k   sarama.KError
		enc sarama.PacketEncodingError
	)
	switch {
	case err == nil, errors.As(err, &k), errors.As(err, &enc), errors.Is(err, sarama.ErrUnsupportedVersion),
		errors.Is(err, context.Canceled):
	case connectionDropped(err):
		c.logf("broker %d (%s): %v: the connection dropped; the next request reconnects", b.ID(), b.Addr(), err)
	default:
		c.brokers.drop(b, err)
	}
	return err
}

// Coordinator finds a group's coordinator with FindCoordinator. A protocol error
// (GROUP_AUTHORIZATION_FAILED, COORDINATOR_NOT_AVAILABLE) is returned as the
// broker said it, as a sarama.KError.
func (c *Conn) Coordinator(ctx context.Context, group string) (*sarama.Broker, error) {
	var lastErr error
	for _, b := range c.Brokers() {
		resp, err := Call(ctx, c, b, func() (*sarama.FindCoordinatorResponse, error) {
			return b.FindCoordinator(&sarama.FindCoordinatorRequest{Version: 2, CoordinatorKey: group, CoordinatorType: sarama.CoordinatorGroup})
		})
		if err != nil {
			lastErr = err
			continue
		}
		if resp.Err != sarama.ErrNoError {
			return nil, resp.Err
		}
		return c.Broker(resp.Coordinator.ID())
	}
	if lastErr == nil {
		lastErr = sarama.ErrOutOfBrokers
	}
	return nil, lastErr
}

// Close releases the connections. sarama's Broker.Close waits for replies still
// due, so the brokers are closed concurrently and Close returns after at most the
// request timeout, leaving any straggler to finish in the background.
func (c *Conn) Close() error {
	if c.kgo != nil {
		c.kgo.Close()
	}
	all := c.brokers.all()
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for _, b := range all {
			wg.Add(1)
			go func() { defer wg.Done(); _ = b.Close() }()
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(c.cfg.Timeout):
	}
	return nil
}

// Broker returns the connected broker with id.
func (c *Conn) Broker(id int32) (*sarama.Broker, error) { return c.brokers.broker(id) }

// Brokers returns every known broker sorted by id, connected.
func (c *Conn) Brokers() []*sarama.Broker { return c.brokers.sorted() }

// LostBrokers returns the brokers dropped after a failure, with their errors.
func (c *Conn) LostBrokers() map[int32]error { return c.brokers.lostCopy() }

// Now is the client's clock.
func (c *Conn) Now() time.Time { return c.cfg.Now() }

// Logf writes a debug line (--debug), or nothing.
func (c *Conn) Logf(format string, args ...any) { c.logf(format, args...) }

// Bootstrap returns the addresses the client was given, for display.
func (c *Conn) Bootstrap() string { return strings.Join(c.cfg.Bootstrap, ",") }

// Run calls fn for each item concurrently, bounded by the client's semaphore,
// and waits for all. Every item gets its call, even after the caller's deadline: a
// request then fails at once (see Call) and the item records why, instead of
// silently missing from the result.
func Run[T any](c *Conn, items []T, fn func(T)) {
	var wg sync.WaitGroup
	for _, it := range items {
		c.sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-c.sem }()
			fn(it)
		}()
	}
	wg.Wait()
}
