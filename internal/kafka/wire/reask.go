package wire

// Asking again what failed because a group coordinator or a partition leader was moving
// (a broker restarting, a leader election): Kafka answers NOT_COORDINATOR,
// COORDINATOR_LOAD_IN_PROGRESS or COORDINATOR_NOT_AVAILABLE for a coordinator that moved or
// is loading, NOT_LEADER_OR_FOLLOWER or LEADER_NOT_AVAILABLE for a partition mid-election,
// and a broker that is shutting down closes its connections. Such an answer is usually
// stale within a few hundred milliseconds, so it is asked again, a bounded number of times,
// inside the snapshot's one deadline (docs/kafka.md "When brokers move").

import (
	"context"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

const (
	// reaskAttempts is how many times a moved answer is asked again per snapshot and kind.
	reaskAttempts = 4
	// reaskFirst is the wait before the first re-ask; each next one waits twice as long
	// (100, 200, 400, 800 ms: 1.5 s in all).
	reaskFirst = 100 * time.Millisecond
)

// Reasker paces the re-asks of one kind within one snapshot.
type Reasker struct {
	reserve time.Duration
	done    int
}

// NewReasker returns a fresh pacing on c: re-asks stop when less than one --timeout
// would be left of the snapshot's deadline after the wait, so what follows still gets
// its turn.
func NewReasker(c *Conn) *Reasker { return &Reasker{reserve: c.cfg.Timeout} }

// Wait waits before the next re-ask and reports whether to make it.
func (r *Reasker) Wait(ctx context.Context) bool {
	if r.done >= reaskAttempts {
		return false
	}
	d := reaskFirst << r.done
	if dl, ok := ctx.Deadline(); ok && time.Until(dl)-d < r.reserve {
		return false
	}
	r.done++
	return pause(ctx, d)
}

// WaitPatiently is Wait past the rule's re-asks (a reset's phase waiting for a leader just
// elected): after them, each wait is as long as the rule's last, for as long as one
// --timeout is left of the deadline after it.
func (r *Reasker) WaitPatiently(ctx context.Context) bool {
	if r.done < reaskAttempts {
		return r.Wait(ctx)
	}
	d := reaskFirst << (reaskAttempts - 1)
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl)-d < r.reserve {
		return false
	}
	return pause(ctx, d)
}

// pause waits d, or until ctx is done; true when d passed.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// movedCodes are the answers of a coordinator or leader that moved or is loading.
var movedCodes = map[string]bool{
	"NOT_COORDINATOR": true, "COORDINATOR_LOAD_IN_PROGRESS": true, "COORDINATOR_NOT_AVAILABLE": true,
	"NOT_LEADER_OR_FOLLOWER": true, "LEADER_NOT_AVAILABLE": true, "REPLICA_NOT_AVAILABLE": true,
	"FENCED_LEADER_EPOCH": true, "UNKNOWN_LEADER_EPOCH": true, "OFFSET_NOT_AVAILABLE": true,
}

// Moved reports whether e is worth asking again: a coordinator or leader that moved, or a
// broker that refused or closed the connection (not one that stayed silent: a timeout has
// cost its --timeout already, and its broker is not asked again in this snapshot).
func Moved(e *model.Error) bool {
	switch {
	case e == nil:
		return false
	case e.Code != nil:
		return movedCodes[*e.Code]
	}
	return e.Kind == model.KindUnreachable
}

// OnLostBroker reports whether e is the failure of a broker dropped in this snapshot
// (brokers.go): it is not asked again before the next snapshot, so asking again for
// what it leads or coordinates is pointless until another broker takes it over.
func (c *Conn) OnLostBroker(e *model.Error) bool {
	if e == nil || e.Broker == nil {
		return false
	}
	_, lost := c.LostBrokers()[*e.Broker]
	return lost
}

// MovedKError is Moved for a protocol error code.
func MovedKError(k sarama.KError) bool { return movedCodes[CodeName(int16(k))] }
