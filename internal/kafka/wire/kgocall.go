package wire

// Requests sent with franz-go's kgo client (the share- and streams-group requests sarama
// does not speak) to one broker, by id. kgo dials, negotiates versions, authenticates,
// re-authenticates and retries a read once on a fresh connection; what is decided here is
// what a failure costs (docs/cli.md "Deadlines"): a broker that stays silent for --timeout,
// or cannot be connected to, is dropped until the next snapshot, whichever client found it
// so; any other failure (a connection dropped twice, a refused authentication) costs only
// the items of that request. One request at a time goes to a broker, as with sarama: kgo
// would pipeline them on one connection, and a connection that drops under one request
// would take the others (a share and a streams describe) with it.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ErrUnsupported marks a request the broker does not support in any version offsettui knows.
var ErrUnsupported = errors.New("the broker does not support this request")

// KgoRead sends a read to b; kgo sends it again, once, on a fresh connection when its
// connection drops.
func (c *Conn) KgoRead(ctx context.Context, b *sarama.Broker, req kmsg.Request) (kmsg.Response, error) {
	return c.kgoCall(ctx, b, req, true, true)
}

// KgoPipelined is KgoRead without waiting for b's turn: kgo pipelines it on b's connection
// beside the others. For many small reads of one kind (internal/kafka/groupread/offsets_each.go), where a dropped
// connection costs each of them one retry.
func (c *Conn) KgoPipelined(ctx context.Context, b *sarama.Broker, req kmsg.Request) (kmsg.Response, error) {
	return c.kgoCall(ctx, b, req, true, false)
}

// KgoWrite sends a write to b once: when its answer is lost, the caller reads back what
// happened instead of writing again.
func (c *Conn) KgoWrite(ctx context.Context, b *sarama.Broker, req kmsg.Request) (kmsg.Response, error) {
	return c.kgoCall(ctx, b, req, false, true)
}

func (c *Conn) kgoCall(ctx context.Context, b *sarama.Broker, req kmsg.Request, retry, turn bool) (kmsg.Response, error) {
	name := kmsg.NameForKey(req.Key())
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("not asked: %w", deadlineErr(err))
	}
	if turn {
		release, err := c.kgoTurn(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("%s: not asked: %w", name, err)
		}
		defer release()
	} else if err := c.brokers.lostErr(b.ID()); err != nil {
		return nil, fmt.Errorf("%s: not asked: %w", name, err)
	}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	kb := c.kgo.Broker(int(b.ID()))
	send := kb.Request
	if retry {
		send = kb.RetriableRequest
	}
	resp, err := send(rctx, req)
	switch {
	case err == nil:
		return resp, nil
	case brokerTooOld(err):
		return nil, fmt.Errorf("%s: %w", name, ErrUnsupported)
	case errors.Is(ctx.Err(), context.Canceled): // a quit: nothing to say about b
		return nil, fmt.Errorf("%s: %w", name, ctx.Err())
	case ctx.Err() != nil: // the snapshot's deadline passed while b was silent
		err = fmt.Errorf("%s: %w", name, deadlineErr(ctx.Err()))
	case rctx.Err() != nil, isNetTimeout(err): // b was silent for --timeout (kgo's read deadline is --timeout too)
		err = fmt.Errorf("%s: %w (%s)", name, ErrRequestTimeout, c.cfg.Timeout)
	case dialFailed(err): // b cannot be reached
		err = fmt.Errorf("%s: connect to broker %d (%s): %w", name, b.ID(), b.Addr(), err)
	default: // b answers: only this request failed
		c.logf("broker %d (%s): %s: %v", b.ID(), b.Addr(), name, err)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c.brokers.drop(b, err)
	return nil, err
}

// kgoTurn waits for b's turn: until no other kgo request is out to b, or ctx is done.
// A broker dropped meanwhile is not asked (a silent broker costs one --timeout).
func (c *Conn) kgoTurn(ctx context.Context, b *sarama.Broker) (release func(), err error) {
	turn := c.brokers.kgoTurn(b.ID())
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return nil, deadlineErr(ctx.Err())
	}
	release = func() { <-turn }
	if err := c.brokers.lostErr(b.ID()); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// brokerTooOld reports kgo's refusal to send a request the broker's ApiVersions does not
// list. kgo's error for it is unexported, so it is known by its text
// (TestKgoNegotiatesVersions fails if that text changes).
func brokerTooOld(err error) bool {
	return strings.HasPrefix(err.Error(), "broker is too old")
}

// dialFailed reports a failure to connect.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// APIVersions asks b for the highest version of each request it supports (ApiVersions).
func (c *Conn) APIVersions(ctx context.Context, b *sarama.Broker) (map[int16]int16, error) {
	req := kmsg.NewPtrApiVersionsRequest()
	// Kafka refuses an ApiVersions without a client software name and version (INVALID_REQUEST).
	req.ClientSoftwareName, req.ClientSoftwareVersion = softwareName, softwareVersion
	raw, err := c.KgoRead(ctx, b, req)
	if err != nil {
		return nil, err
	}
	resp := raw.(*kmsg.ApiVersionsResponse)
	if resp.ErrorCode != 0 {
		return nil, fmt.Errorf("ApiVersions: %w", codeErr(resp.ErrorCode))
	}
	out := map[int16]int16{}
	for _, k := range resp.ApiKeys {
		out[k.ApiKey] = k.MaxVersion
	}
	return out, nil
}
