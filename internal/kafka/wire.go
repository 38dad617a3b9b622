package kafka

// The requests sarama does not speak (share- and streams-group describes, share-group offsets)
// go through this small client: franz-go's kmsg request and response types over a connection
// of our own, authenticated from the same *sarama.Config that ApplyProperties fills, so TLS
// and SASL are exactly the user's client.properties. docs/design-wire.md says why.
//
// One connection per broker address, one request in flight on it, kept between snapshots and
// dropped on any transport failure. Versions are negotiated with ApiVersions on connect; a
// request is never retried; the context's deadline bounds every dial, handshake and reply.

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxWireResponse bounds one response: describes of thousands of groups stay far below.
const maxWireResponse = 100 << 20

// errWireUnsupported marks a request the broker does not support in any version we know.
var errWireUnsupported = errors.New("the broker does not support this request")

// wireClient sends kmsg requests to brokers by address.
type wireClient struct {
	conf    *sarama.Config
	timeout time.Duration
	logf    func(string, ...any)

	mu    sync.Mutex
	conns map[string]*wireConn
}

func newWireClient(conf *sarama.Config, timeout time.Duration, logf func(string, ...any)) *wireClient {
	return &wireClient{conf: conf, timeout: timeout, logf: logf, conns: map[string]*wireConn{}}
}

// wireConn is one authenticated connection and the versions its broker supports.
type wireConn struct {
	mu       sync.Mutex
	addr     string
	conn     net.Conn
	fmt      *kmsg.RequestFormatter
	corr     int32
	versions map[int16]int16 // api key → highest version the broker supports
}

// supports returns the version to send req with: the highest both sides know.
func (c *wireConn) supports(req kmsg.Request) (int16, bool) {
	max, ok := c.versions[req.Key()]
	if !ok {
		return 0, false
	}
	return min(max, req.MaxVersion()), true
}

// maxVersion returns the highest version of req the broker at addr supports (connecting if
// needed), or false when it does not support req at all.
func (w *wireClient) maxVersion(ctx context.Context, addr string, req kmsg.Request) (int16, bool, error) {
	c, err := w.conn(ctx, addr)
	if err != nil {
		return 0, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.supports(req)
	return v, ok, nil
}

// request sends req to addr at the highest version both sides support and returns the reply.
// A transport failure drops the connection; nothing is retried.
func (w *wireClient) request(ctx context.Context, addr string, req kmsg.Request) (kmsg.Response, error) {
	c, err := w.conn(ctx, addr)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.supports(req)
	if !ok {
		return nil, fmt.Errorf("%s: %w", kmsg.NameForKey(req.Key()), errWireUnsupported)
	}
	req.SetVersion(v)
	resp, err := c.roundTrip(ctx, w.timeout, req)
	if err != nil {
		w.logf("wire: %s to %s: %v: connection dropped", kmsg.NameForKey(req.Key()), addr, err)
		w.drop(c)
		return nil, fmt.Errorf("%s to %s: %w", kmsg.NameForKey(req.Key()), addr, err)
	}
	return resp, nil
}

// conn returns the open connection to addr, dialling and authenticating one if needed.
func (w *wireClient) conn(ctx context.Context, addr string) (*wireConn, error) {
	w.mu.Lock()
	c := w.conns[addr]
	w.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := w.dial(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", addr, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if old := w.conns[addr]; old != nil { // another caller won the race
		_ = c.conn.Close()
		return old, nil
	}
	w.conns[addr] = c
	return c, nil
}

func (w *wireClient) drop(c *wireConn) {
	w.mu.Lock()
	if w.conns[c.addr] == c {
		delete(w.conns, c.addr)
	}
	w.mu.Unlock()
	_ = c.conn.Close()
}

// forget closes the connection to addr, if any: the next request dials afresh.
func (w *wireClient) forget(addr string) {
	w.mu.Lock()
	c := w.conns[addr]
	delete(w.conns, addr)
	w.mu.Unlock()
	if c != nil {
		_ = c.conn.Close()
	}
}

// close closes every connection.
func (w *wireClient) close() {
	w.mu.Lock()
	conns := w.conns
	w.conns = map[string]*wireConn{}
	w.mu.Unlock()
	for _, c := range conns {
		_ = c.conn.Close()
	}
}

// dial connects (TLS when the config says so), negotiates versions and authenticates.
func (w *wireClient) dial(ctx context.Context, addr string) (*wireConn, error) {
	d := net.Dialer{Timeout: w.timeout}
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	conn := raw
	if w.conf.Net.TLS.Enable {
		cfg := &tls.Config{}
		if w.conf.Net.TLS.Config != nil {
			cfg = w.conf.Net.TLS.Config.Clone()
		}
		if cfg.ServerName == "" { // as crypto/tls.Dial, which sarama uses, does
			if h, _, err := net.SplitHostPort(addr); err == nil {
				cfg.ServerName = h
			}
		}
		tc := tls.Client(raw, cfg)
		hctx, cancel := w.bound(ctx)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			_ = raw.Close()
			return nil, fmt.Errorf("TLS handshake: %w", err)
		}
		conn = tc
	}
	c := &wireConn{addr: addr, conn: conn, fmt: kmsg.NewRequestFormatter(kmsg.FormatterClientID(w.conf.ClientID))}
	if err := c.negotiate(ctx, w.timeout); err != nil {
		_ = conn.Close()
		return nil, err
	}
	if w.conf.Net.SASL.Enable {
		if err := c.authenticate(ctx, w.timeout, w.conf); err != nil {
			_ = conn.Close()
			return nil, err
		}
	}
	return c, nil
}

// bound returns ctx limited by the per-request timeout.
func (w *wireClient) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, w.timeout)
}

// negotiate learns the broker's versions with ApiVersions v3 (Kafka 2.4+; the share- and
// streams-group requests need 4.x anyway).
func (c *wireConn) negotiate(ctx context.Context, timeout time.Duration) error {
	req := kmsg.NewPtrApiVersionsRequest()
	req.Version = 3
	req.ClientSoftwareName, req.ClientSoftwareVersion = "offsettui", "1"
	resp, err := c.roundTrip(ctx, timeout, req)
	if err != nil {
		return fmt.Errorf("ApiVersions: %w", err)
	}
	av := resp.(*kmsg.ApiVersionsResponse)
	if av.ErrorCode != 0 && len(av.ApiKeys) == 0 {
		return fmt.Errorf("ApiVersions: %w", sarama.KError(av.ErrorCode))
	}
	c.versions = map[int16]int16{}
	for _, k := range av.ApiKeys {
		c.versions[k.ApiKey] = k.MaxVersion
	}
	return nil
}

// authenticate runs SaslHandshake and SaslAuthenticate with the mechanism and credentials of
// the sarama config: PLAIN, SCRAM (the config's SCRAM client) or OAUTHBEARER (its token
// provider). Errors never contain a credential.
func (c *wireConn) authenticate(ctx context.Context, timeout time.Duration, conf *sarama.Config) error {
	sasl := conf.Net.SASL
	mech := string(sasl.Mechanism)
	if mech == "" {
		mech = sarama.SASLTypePlaintext
	}
	hs := kmsg.NewPtrSASLHandshakeRequest()
	hs.Mechanism = mech
	if _, err := c.send(ctx, timeout, hs, func(r kmsg.Response) error {
		if code := r.(*kmsg.SASLHandshakeResponse).ErrorCode; code != 0 {
			return fmt.Errorf("SASL handshake (%s): %w", mech, sarama.KError(code))
		}
		return nil
	}); err != nil {
		return err
	}
	step := func(token []byte) ([]byte, error) {
		req := kmsg.NewPtrSASLAuthenticateRequest()
		req.SASLAuthBytes = token
		resp, err := c.send(ctx, timeout, req, func(r kmsg.Response) error {
			if ar := r.(*kmsg.SASLAuthenticateResponse); ar.ErrorCode != 0 {
				msg := sarama.KError(ar.ErrorCode).Error()
				if ar.ErrorMessage != nil {
					msg = *ar.ErrorMessage
				}
				return fmt.Errorf("SASL authentication (%s) failed: %w: %s", mech, sarama.KError(ar.ErrorCode), msg)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return resp.(*kmsg.SASLAuthenticateResponse).SASLAuthBytes, nil
	}
	switch mech {
	case sarama.SASLTypePlaintext:
		_, err := step([]byte(sasl.AuthIdentity + "\x00" + sasl.User + "\x00" + sasl.Password))
		return err
	case sarama.SASLTypeSCRAMSHA256, sarama.SASLTypeSCRAMSHA512:
		return saslScram(sasl.SCRAMClientGeneratorFunc, sasl.User, sasl.Password, sasl.SCRAMAuthzID, step)
	case sarama.SASLTypeOAuth:
		if sasl.TokenProvider == nil {
			return errors.New("SASL OAUTHBEARER: no token provider configured")
		}
		tok, err := sasl.TokenProvider.Token()
		if err != nil {
			return fmt.Errorf("SASL OAUTHBEARER: get a token: %w", err)
		}
		_, err = step([]byte(oauthFirstMessage(tok)))
		return err
	}
	return fmt.Errorf("SASL mechanism %s: %w", mech, errWireUnsupported)
}

// saslScram runs a SCRAM conversation with a client made by gen, as sarama does.
func saslScram(gen func() sarama.SCRAMClient, user, pass, authz string, step func([]byte) ([]byte, error)) error {
	if gen == nil {
		return errors.New("SASL SCRAM: no SCRAM client configured")
	}
	sc := gen()
	if err := sc.Begin(user, pass, authz); err != nil {
		return fmt.Errorf("SASL SCRAM: %w", err)
	}
	msg, err := sc.Step("")
	for err == nil && !sc.Done() {
		var reply []byte
		if reply, err = step([]byte(msg)); err != nil {
			return err
		}
		msg, err = sc.Step(string(reply))
	}
	if err != nil {
		return fmt.Errorf("SASL SCRAM: %w", err)
	}
	return nil
}

// oauthFirstMessage is the OAUTHBEARER client message (RFC 7628) sarama sends: the token and
// the provider's extensions, sorted by key.
func oauthFirstMessage(tok *sarama.AccessToken) string {
	keys := make([]string, 0, len(tok.Extensions))
	for k := range tok.Extensions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ext strings.Builder
	for _, k := range keys {
		ext.WriteString("\x01" + k + "=" + tok.Extensions[k])
	}
	return "n,,\x01auth=Bearer " + tok.Token + ext.String() + "\x01\x01"
}

// send sends req at the negotiated version during connection setup and checks the reply.
func (c *wireConn) send(ctx context.Context, timeout time.Duration, req kmsg.Request, check func(kmsg.Response) error) (kmsg.Response, error) {
	v, ok := c.supports(req)
	if !ok {
		return nil, fmt.Errorf("%s: %w", kmsg.NameForKey(req.Key()), errWireUnsupported)
	}
	req.SetVersion(v)
	resp, err := c.roundTrip(ctx, timeout, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kmsg.NameForKey(req.Key()), err)
	}
	return resp, check(resp)
}

// roundTrip writes req and reads its reply within ctx and timeout. The caller holds c.mu.
func (c *wireConn) roundTrip(ctx context.Context, timeout time.Duration, req kmsg.Request) (kmsg.Response, error) {
	deadline := time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return nil, err
	}
	// A cancelled context unblocks the read at once.
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c.corr++
	if _, err := c.conn.Write(c.fmt.AppendRequest(nil, req, c.corr)); err != nil {
		return nil, ctxErr(ctx, err)
	}
	var head [8]byte
	if _, err := io.ReadFull(c.conn, head[:]); err != nil {
		return nil, ctxErr(ctx, err)
	}
	size := int32(binary.BigEndian.Uint32(head[:4]))
	if size < 4 || size > maxWireResponse {
		return nil, fmt.Errorf("invalid response size %d", size)
	}
	if corr := int32(binary.BigEndian.Uint32(head[4:])); corr != c.corr {
		return nil, fmt.Errorf("correlation id %d, want %d", corr, c.corr)
	}
	body := make([]byte, size-4)
	if _, err := io.ReadFull(c.conn, body); err != nil {
		return nil, ctxErr(ctx, err)
	}
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if resp.IsFlexible() && req.Key() != 18 { // ApiVersions replies never carry header tags
		n, skip := binary.Uvarint(body)
		if skip <= 0 || n != 0 {
			return nil, errors.New("unexpected tagged fields in the response header")
		}
		body = body[skip:]
	}
	if err := resp.ReadFrom(body); err != nil {
		return nil, fmt.Errorf("decode %s v%d: %w", kmsg.NameForKey(req.Key()), req.GetVersion(), err)
	}
	return resp, nil
}

// ctxErr prefers the context's error (deadline, cancel) to the I/O error it caused; the
// connection's deadline is the context's, so its timeout can fire a moment before the
// context's own timer.
func ctxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) && errors.Is(err, os.ErrDeadlineExceeded) {
		return context.DeadlineExceeded
	}
	return err
}
