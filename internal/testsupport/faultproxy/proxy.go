// Package faultproxy is a Kafka protocol proxy for tests that injects faults:
// it stalls, cuts or delays chosen requests on their way to a cluster (kfake or
// a real broker) and counts every request each broker gets. It is test support:
// only _test.go files import it, and the production code of cmd/offsettui must
// never import it (internal/testsupport/layers checks this).
//
// Start listens on 127.0.0.1 once per broker of the upstream cluster. A client
// bootstrapped on Addrs stays on the proxy: broker addresses in Metadata,
// FindCoordinator (v0–v3 and the batched v4+), DescribeCluster and the leader
// hints of Produce, Fetch, ShareFetch and ShareAcknowledge answers are rewritten
// to the proxy's listeners (a broker first named in an answer gets a listener
// then). Every other byte passes through unchanged, SaslHandshake (v1) and
// SaslAuthenticate included, so SASL works end to end.
//
// Record keeps the requests of one API key for a test to read back decoded
// (Recorded), say to compare what two clients send.
//
// Rules (Add) act per broker id and API key, can change while clients are
// connected, and can fire a limited number of times: see Action. As on a real
// broker, which answers one connection's requests in order, a request held
// forever holds the rest of its connection: those later requests are counted,
// never forwarded, even after the rule is removed. New connections are served.
//
// Limits: plaintext only, no TLS (the proxy must read the frames; test TLS
// without it). The legacy SASL of SaslHandshake v0 (raw tokens after the
// handshake) is refused. A request that gets no answer (Produce with acks=0)
// leaves StallAfter, CutAfter and DelayResponse nothing to act on. An answer
// the proxy cannot decode for rewriting closes the connection and is recorded
// (Err; New fails the test with it).
package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Proxy stands between clients and one Kafka cluster. It is safe for concurrent
// use.
type Proxy struct {
	ctx    context.Context // ended by Close: stops dials and delays
	cancel context.CancelFunc
	wg     sync.WaitGroup // accept loops and connection goroutines

	mu        sync.Mutex
	closed    bool
	listeners map[string]*listener // by upstream address
	seeds     []*listener          // the brokers Start learned, by id
	conns     map[*conn]struct{}
	rules     []*Handle
	counts    map[countKey]int
	answered  map[countKey]int64 // bytes of the answers returned to clients
	accepted  map[int32]int
	recorded  map[kmsg.Key][][]byte // request frames of the keys Record names
	err       error                 // the first protocol error
}

// listener is the proxy's stand-in for one upstream broker endpoint.
type listener struct {
	id       int32
	upstream string
	ln       net.Listener
	host     string // the listener's own address, as written into answers
	port     int32
}

// Start asks the upstream cluster (bootstrap addresses, and opts for the
// proxy's own client, e.g. kgo.SASL for a SASL listener) for its brokers and
// opens one listener per broker. ctx bounds only that first Metadata request;
// the proxy runs until Close.
func Start(ctx context.Context, upstream []string, opts ...kgo.Opt) (*Proxy, error) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(upstream...)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: client for %v: %w", upstream, err)
	}
	meta, err := kadm.NewClient(cl).BrokerMetadata(ctx)
	cl.Close()
	if err == nil && len(meta.Brokers) == 0 {
		err = errors.New("no broker named")
	}
	if err != nil {
		return nil, fmt.Errorf("faultproxy: metadata from %v: %w", upstream, err)
	}
	pctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{ctx: pctx, cancel: cancel, listeners: map[string]*listener{},
		conns: map[*conn]struct{}{}, counts: map[countKey]int{}, answered: map[countKey]int64{}, accepted: map[int32]int{}}
	for _, b := range meta.Brokers {
		l, err := p.listenerFor(b.NodeID, net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))))
		if err != nil {
			_ = p.Close()
			return nil, err
		}
		p.seeds = append(p.seeds, l)
	}
	slices.SortFunc(p.seeds, func(a, b *listener) int { return int(a.id - b.id) })
	return p, nil
}

// New is Start for a test: it fails the test if the proxy cannot start, closes
// it when the test ends, and then fails the test if the proxy met a protocol
// error it could not handle.
func New(t testing.TB, upstream []string, opts ...kgo.Opt) *Proxy {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, upstream, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("fault proxy: %v", err)
		}
	})
	return p
}

// Addrs is the bootstrap list through the proxy: one address per broker Start
// learned, in broker id order.
func (p *Proxy) Addrs() []string {
	out := make([]string, len(p.seeds))
	for i, l := range p.seeds {
		out[i] = l.ln.Addr().String()
	}
	return out
}

// Brokers are the ids of the brokers Start learned, in order.
func (p *Proxy) Brokers() []int32 {
	out := make([]int32, len(p.seeds))
	for i, l := range p.seeds {
		out[i] = l.id
	}
	return out
}

// Broker is the proxy's address for broker id, or "" if the proxy has none.
func (p *Proxy) Broker(id int32) string {
	for _, l := range p.seeds {
		if l.id == id {
			return l.ln.Addr().String()
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.listeners {
		if l.id == id {
			return l.ln.Addr().String()
		}
	}
	return ""
}

// Err is the first protocol error the proxy met (a frame it could not parse, an
// answer it could not rewrite, legacy SASL), or nil.
func (p *Proxy) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Proxy) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
}

// Close stops the listeners, closes every connection (stalled and held ones
// too) and waits for the proxy's goroutines to end.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.cancel()
	for _, l := range p.listeners {
		_ = l.ln.Close()
	}
	conns := make([]*conn, 0, len(p.conns))
	for c := range p.conns {
		conns = append(conns, c)
	}
	p.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	p.wg.Wait()
	return nil
}

// listenerFor returns the listener standing for the upstream endpoint addr of
// broker id, opening one if there is none yet.
func (p *Proxy) listenerFor(id int32, addr string) (*listener, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.listeners[addr]; l != nil {
		return l, nil
	}
	if p.closed {
		return nil, errors.New("faultproxy: closed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: listen for broker %d: %w", id, err)
	}
	at := ln.Addr().(*net.TCPAddr)
	l := &listener{id: id, upstream: addr, ln: ln, host: at.IP.String(), port: int32(at.Port)}
	p.listeners[addr] = l
	p.wg.Add(1)
	go p.accept(l)
	return l, nil
}

func (p *Proxy) accept(l *listener) {
	defer p.wg.Done()
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			return // closed
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			_ = nc.Close()
			return
		}
		c := &conn{p: p, l: l, client: nc, pending: map[int32]pending{}}
		p.conns[c] = struct{}{}
		p.accepted[l.id]++
		p.wg.Add(1)
		p.mu.Unlock()
		go c.serveRequests()
	}
}

// rewriteEndpoint points a broker endpoint of an answer at the proxy.
func (p *Proxy) rewriteEndpoint(id int32, host *string, port *int32) error {
	l, err := p.listenerFor(id, net.JoinHostPort(*host, strconv.Itoa(int(*port))))
	if err != nil {
		return err
	}
	*host, *port = l.host, l.port
	return nil
}

// hold waits d, or until release is closed when it is set (with d 0: only
// until then); it reports false when the proxy closed first.
func (p *Proxy) hold(d time.Duration, release <-chan struct{}) bool {
	var timeout <-chan time.Time
	switch {
	case d > 0:
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	case release == nil:
		return true
	}
	select {
	case <-timeout:
		return true
	case <-release:
		return true
	case <-p.ctx.Done():
		return false
	}
}
