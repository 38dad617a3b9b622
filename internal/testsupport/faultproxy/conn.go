package faultproxy

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// dialTimeout bounds the proxy's connection to an upstream broker.
const dialTimeout = 10 * time.Second

// conn is one client connection and, once its first request is forwarded, the
// proxy's connection to the upstream broker. Two goroutines serve it: one reads
// the client's requests and forwards them, one reads the broker's answers and
// returns them. Answers are matched to requests by correlation id.
type conn struct {
	p      *Proxy
	l      *listener
	client net.Conn
	once   sync.Once

	mu       sync.Mutex
	upstream net.Conn // nil until the first request is forwarded
	closed   bool
	pending  map[int32]pending // forwarded requests awaiting their answer

	// silent (request goroutine only): a rule stalled or is cutting the
	// connection; requests are still read and counted, never forwarded.
	silent bool
}

// pending is what the answer to a forwarded request needs: how to decode it,
// and what the rule that matched the request does to it.
type pending struct {
	key     kmsg.Key
	version int16
	action  Action
	delay   time.Duration
	release <-chan struct{}
	rewrite func(kmsg.Response)
}

// serveRequests reads the client's requests until the connection ends.
func (c *conn) serveRequests() {
	defer c.p.wg.Done()
	defer c.close()
	for {
		frame, err := readFrame(c.client)
		if err != nil {
			c.noteErr(err)
			return
		}
		h, err := parseRequestHeader(frame)
		if err != nil {
			c.noteErr(err)
			return
		}
		c.p.count(c.l.id, h.key)
		c.p.keep(h.key, frame)
		if c.silent {
			continue
		}
		if h.key == kmsg.SASLHandshake && h.version == 0 {
			c.noteErr(fmt.Errorf("%w: SaslHandshake v0 (raw SASL tokens) is not supported; use v1", errProtocol))
			return
		}
		rule := c.p.match(c.l.id, h.key)
		switch rule.Action {
		case StallBefore:
			c.silent = true
			continue
		case CutBefore:
			return
		case DelayRequest:
			if !c.p.hold(rule.Delay, rule.Release) {
				return
			}
		}
		if err := c.forward(frame, h, rule); err != nil {
			return
		}
		if rule.Action == StallAfter || rule.Action == CutAfter {
			c.silent = true
		}
	}
}

// forward sends one request upstream, dialing the broker first if needed.
func (c *conn) forward(frame []byte, h requestHeader, rule Rule) error {
	up, err := c.dial()
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.pending[h.corrID] = pending{key: h.key, version: h.version, action: rule.Action, delay: rule.Delay, release: rule.Release, rewrite: rule.Rewrite}
	c.mu.Unlock()
	_, err = up.Write(frame)
	return err
}

// dial returns the upstream connection, opening it (and its answer goroutine)
// on first use.
func (c *conn) dial() (net.Conn, error) {
	c.mu.Lock()
	up := c.upstream
	c.mu.Unlock()
	if up != nil {
		return up, nil
	}
	d := net.Dialer{Timeout: dialTimeout}
	up, err := d.DialContext(c.p.ctx, "tcp", c.l.upstream)
	if err != nil {
		return nil, err // the client sees a closed connection, as from a broker that is down
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		_ = up.Close()
		return nil, net.ErrClosed
	}
	c.upstream = up
	c.p.wg.Add(1)
	go c.serveAnswers(up)
	return up, nil
}

// serveAnswers reads the broker's answers and returns them to the client,
// rewritten where they name brokers, until the connection ends.
func (c *conn) serveAnswers(up net.Conn) {
	defer c.p.wg.Done()
	defer c.close()
	for {
		frame, err := readFrame(up)
		if err != nil {
			c.noteErr(err)
			return
		}
		corrID, err := responseCorrID(frame)
		if err != nil {
			c.noteErr(err)
			return
		}
		c.mu.Lock()
		req, ok := c.pending[corrID]
		delete(c.pending, corrID)
		c.mu.Unlock()
		if !ok {
			c.noteErr(fmt.Errorf("%w: broker %d answered correlation id %d, which no request carried", errProtocol, c.l.id, corrID))
			return
		}
		switch req.action {
		case StallAfter:
			continue
		case CutAfter:
			return
		case DelayResponse:
			if !c.p.hold(req.delay, req.release) {
				return
			}
		case Rewrite:
			resp, bodyAt, err := decodeResponse(frame, req.key, req.version)
			if err != nil {
				c.noteErr(err)
				return
			}
			req.rewrite(resp)
			frame = encodeResponse(frame[:bodyAt], resp)
		}
		if frame, err = rewriteResponse(frame, req.key, req.version, c.p.rewriteEndpoint); err != nil {
			c.noteErr(err)
			return
		}
		c.p.countAnswer(c.l.id, req.key, len(frame)) // before the client can have read it
		if _, err := c.client.Write(frame); err != nil {
			return
		}
	}
}

// noteErr records err if it is a protocol error rather than a connection ending.
func (c *conn) noteErr(err error) {
	if errors.Is(err, errProtocol) {
		c.p.fail(fmt.Errorf("broker %d (%s): %w", c.l.id, c.l.upstream, err))
	}
}

// close ends both sides of the connection; safe to call more than once.
func (c *conn) close() {
	c.once.Do(func() {
		_ = c.client.Close()
		c.mu.Lock()
		c.closed = true
		if c.upstream != nil {
			_ = c.upstream.Close()
		}
		c.mu.Unlock()
		c.p.mu.Lock()
		delete(c.p.conns, c)
		c.p.mu.Unlock()
	})
}
