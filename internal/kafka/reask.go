package kafka

// Asking again what failed because a group coordinator or a partition leader was moving
// (a broker restarting, a leader election): Kafka answers NOT_COORDINATOR,
// COORDINATOR_LOAD_IN_PROGRESS or COORDINATOR_NOT_AVAILABLE for a coordinator that moved or
// is loading, NOT_LEADER_OR_FOLLOWER or LEADER_NOT_AVAILABLE for a partition mid-election,
// and a broker that is shutting down closes its connections. Such an answer is usually
// stale within a few hundred milliseconds, so it is asked again, a bounded number of times,
// inside the snapshot's one deadline (docs/kafka.md "When brokers move").

import (
	"context"
	"sync"
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

// reasker paces the re-asks of one kind within one snapshot.
type reasker struct {
	reserve time.Duration
	done    int
}

// reasker returns a fresh pacing: re-asks stop when less than one --timeout would be
// left of the snapshot's deadline after the wait, so what follows still gets its turn.
func (c *Client) reasker() *reasker { return &reasker{reserve: c.cfg.Timeout} }

// wait waits before the next re-ask and reports whether to make it.
func (r *reasker) wait(ctx context.Context) bool {
	if r.done >= reaskAttempts {
		return false
	}
	d := reaskFirst << r.done
	if dl, ok := ctx.Deadline(); ok && time.Until(dl)-d < r.reserve {
		return false
	}
	r.done++
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// waitPatiently is wait past the rule's re-asks (a reset's phase waiting for a leader just
// elected): after them, each wait is as long as the rule's last, for as long as one
// --timeout is left of the deadline after it.
func (r *reasker) waitPatiently(ctx context.Context) bool {
	if r.done < reaskAttempts {
		return r.wait(ctx)
	}
	d := reaskFirst << (reaskAttempts - 1)
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl)-d < r.reserve {
		return false
	}
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

// moved reports whether e is worth asking again: a coordinator or leader that moved, or a
// broker that refused or closed the connection (not one that stayed silent: a timeout has
// cost its --timeout already, and its broker is not asked again in this snapshot).
func moved(e *model.Error) bool {
	switch {
	case e == nil:
		return false
	case e.Code != nil:
		return movedCodes[*e.Code]
	}
	return e.Kind == model.KindUnreachable
}

// onLostBroker reports whether e is the failure of a broker dropped in this snapshot
// (client.go): it is not asked again before the next snapshot, so asking again for
// what it leads or coordinates is pointless until another broker takes it over.
func (c *Client) onLostBroker(e *model.Error) bool {
	if e == nil || e.Broker == nil {
		return false
	}
	_, lost := c.lostBrokers()[*e.Broker]
	return lost
}

// movedKError is moved for a protocol error code.
func movedKError(k sarama.KError) bool { return movedCodes[codeName(int16(k))] }

// reaskMoved asks again for the groups whose describe or committed offsets failed because
// their coordinator moved, is loading or closed the connection: their coordinators are
// located again (FindCoordinator) and the groups described and offset-fetched afresh,
// until none has such a failure or the re-asks run out. groups[i] is replaced by the
// group as read again. A group whose lookup failed (asked again already, unlisted.go),
// or whose coordinator is still a broker dropped in this snapshot, is left as it is.
func (c *Client) reaskMoved(ctx context.Context, groups []*model.GroupObservation, settled map[string]bool) {
	r := c.reasker()
	for {
		var again []int
		for i, g := range groups {
			if !settled[g.Group] && (moved(g.Error) || moved(g.DescribeError)) {
				again = append(again, i)
			}
		}
		if len(again) == 0 || !r.wait(ctx) {
			return
		}
		names := make([]string, len(again))
		for k, i := range again {
			names[k] = groups[i].Group
		}
		c.logf("asking again for %d groups whose coordinator moved", len(names))
		coords, errs := c.findCoordinators(ctx, names)
		var fresh []*model.GroupObservation
		for _, i := range again {
			g := groups[i]
			if e := errs[g.Group]; e != nil && c.onLostBroker(e) {
				settled[g.Group] = true // still coordinated by a broker dropped in this snapshot
				continue
			}
			ng := &model.GroupObservation{Group: g.Group, Type: g.Type, RawType: g.RawType, State: g.State,
				ProtocolType: g.ProtocolType, Listed: g.Listed, Coordinator: -1, Members: []model.Member{},
				ShareAutoOffsetReset: g.ShareAutoOffsetReset, Error: errs[g.Group]}
			if b := coords[g.Group]; b != nil {
				ng.Coordinator = b.ID()
			}
			fresh, groups[i] = append(fresh, ng), ng
		}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); c.describeGroups(ctx, fresh, coords) }()
		go func() { defer wg.Done(); c.fetchCommitted(ctx, fresh, coords) }()
		wg.Wait()
	}
}
