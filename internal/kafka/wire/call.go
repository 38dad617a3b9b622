package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/IBM/sarama"
)

// ErrRequestTimeout is a request that got no answer within --timeout.
var ErrRequestTimeout = errors.New("no answer within --timeout")

// Call sends one read to b and returns its answer, waiting at most until ctx is
// done or --timeout has passed since the call, whichever is first. sarama's
// requests cannot be cancelled: when the wait ends first, the broker is dropped
// (see check) and the request is left to finish in the background, so nothing
// queues behind it and the broker is not asked again until the next snapshot
// reconnects it. When b's connection drops instead (sarama then closes it), the
// read is sent once more, alone, on a fresh connection (resend.go): sarama sends
// one request at a time per broker, and a request queued behind the one whose
// connection dropped fails with it without having been sent. A call made after
// ctx is done sends nothing.
func Call[T any](ctx context.Context, c *Conn, b *sarama.Broker, send func() (T, error)) (T, error) {
	return callTries(ctx, c, b, send, 2)
}

// CallOnce is Call for a write: it is sent once, and when its answer is lost the
// caller reads back what happened instead of writing again.
func CallOnce[T any](ctx context.Context, c *Conn, b *sarama.Broker, send func() (T, error)) (T, error) {
	return callTries(ctx, c, b, send, 1)
}

func callTries[T any](ctx context.Context, c *Conn, b *sarama.Broker, send func() (T, error), tries int) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf("not asked: %w", deadlineErr(err))
	}
	type result struct {
		v   T
		err error
	}
	timer := time.NewTimer(c.cfg.Timeout)
	defer timer.Stop()
	// gctx ends a wait for the gate when the call has returned (a timeout).
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gate := c.brokers.gate(b)
	for try := 1; ; try++ {
		done := make(chan result, 1)
		go func(resend bool) {
			leave, err := gate.enter(gctx, resend)
			if err != nil {
				done <- result{err: fmt.Errorf("not asked: %w", deadlineErr(err))}
				return
			}
			defer leave()
			if resend {
				c.brokers.open(b) // a fresh connection, unless another resend opened one
			}
			v, err := send()
			done <- result{v, err}
		}(try > 1)
		var err error
		select {
		case r := <-done:
			err = r.err
			if isNetTimeout(err) {
				// sarama's own read deadline is --timeout too: the same wait, in
				// the same words (not "read tcp …: i/o timeout").
				err = fmt.Errorf("%w (%s)", ErrRequestTimeout, c.cfg.Timeout)
			}
			if try < tries && connectionDropped(err) && ctx.Err() == nil && c.brokers.askable(b) {
				c.logf("broker %d (%s): %v: sending again on a fresh connection", b.ID(), b.Addr(), err)
				continue
			}
			return r.v, c.check(b, err)
		case <-ctx.Done():
			err = deadlineErr(ctx.Err())
		case <-timer.C:
			err = fmt.Errorf("%w (%s)", ErrRequestTimeout, c.cfg.Timeout)
		}
		return zero, c.check(b, err)
	}
}

// connectionDropped reports an established connection that ended (the broker
// closed it, reset it, or it was closed under the request): the broker answers,
// only this connection is gone.
func connectionDropped(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE)
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

// SnapshotBudget bounds one snapshot or one reset phase: a broker that never
// answers costs one --timeout, and the rest of the snapshot gets another.
func (c *Conn) SnapshotBudget() time.Duration { return 2 * c.cfg.Timeout }
