package kafka

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// errRequestTimeout is a request that got no answer within --timeout.
var errRequestTimeout = errors.New("no answer within --timeout")

// call sends one request to b and returns its answer, waiting at most until ctx
// is done or --timeout has passed since the call, whichever is first. sarama's
// requests cannot be cancelled: when the wait ends first, the broker is dropped
// (see check) and the request is left to finish in the background, so nothing
// queues behind it and the broker is not asked again until the next snapshot
// reconnects it. A call made after ctx is done sends nothing.
func call[T any](ctx context.Context, c *Client, b *sarama.Broker, send func() (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf("not asked: %w", deadlineErr(err))
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := send()
		done <- result{v, err}
	}()
	timer := time.NewTimer(c.cfg.Timeout)
	defer timer.Stop()
	var err error
	select {
	case r := <-done:
		err = r.err
		if isNetTimeout(err) {
			// sarama's own read deadline is --timeout too: the same wait, in
			// the same words (not "read tcp …: i/o timeout").
			err = fmt.Errorf("%w (%s)", errRequestTimeout, c.cfg.Timeout)
		}
		return r.v, c.check(b, err)
	case <-ctx.Done():
		err = deadlineErr(ctx.Err())
	case <-timer.C:
		err = fmt.Errorf("%w (%s)", errRequestTimeout, c.cfg.Timeout)
	}
	return zero, c.check(b, err)
}

// isNetTimeout reports whether err is a connection's deadline passing.
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// deadlineErr words a context error for the operator: the deadline is the
// command's or the snapshot's, derived from --timeout.
func deadlineErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the deadline (from --timeout) passed: %w", err)
	}
	return err
}

// snapshotBudget bounds one snapshot or one reset phase: a broker that never
// answers costs one --timeout, and the rest of the snapshot gets another.
func (c *Client) snapshotBudget() time.Duration { return 2 * c.cfg.Timeout }

// wireCall sends req to b through the wire client (wire.go) and treats its failures as
// call treats sarama's: a timeout is worded as one, not "read tcp …: i/o timeout", and a
// transport failure drops b until the next snapshot, so a hung broker costs one --timeout
// whichever client asked it first. A request b does not know keeps it.
func (c *Client) wireCall(ctx context.Context, b *sarama.Broker, req kmsg.Request) (kmsg.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("not asked: %w", deadlineErr(err))
	}
	resp, err := c.wire.request(ctx, b.Addr(), req)
	switch {
	case err == nil || errors.Is(err, errWireUnsupported):
		return resp, err
	case errors.Is(err, context.DeadlineExceeded):
		err = deadlineErr(err)
	case isNetTimeout(err):
		err = fmt.Errorf("%s: %w (%s)", kmsg.NameForKey(req.Key()), errRequestTimeout, c.cfg.Timeout)
	}
	return nil, c.check(b, err)
}
