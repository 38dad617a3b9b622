package wire

import (
	"context"
	"sync"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// FindCoordinators locates the coordinators of groups: FindCoordinator v4+ carries every
// group in one request (through kgo; sarama stops at v3), sent to one broker after
// another until one answers. Where the brokers lack v4 each group is asked alone. A group
// that could not be located has its error instead (a protocol error as the broker said it,
// so COORDINATOR_NOT_AVAILABLE can be asked again).
func (c *Conn) FindCoordinators(ctx context.Context, names []string) (map[string]*sarama.Broker, map[string]*model.Error) {
	coords, errs := map[string]*sarama.Broker{}, map[string]*model.Error{}
	if len(names) == 0 {
		return coords, errs
	}
	var lastErr error = sarama.ErrOutOfBrokers
	for _, b := range c.Brokers() {
		req := kmsg.NewPtrFindCoordinatorRequest()
		req.CoordinatorKeys = names
		raw, err := c.KgoRead(ctx, b, req)
		if err != nil {
			lastErr = err
			continue
		}
		if raw.GetVersion() < 4 {
			return c.findEach(ctx, names)
		}
		for _, co := range raw.(*kmsg.FindCoordinatorResponse).Coordinators {
			if k := sarama.KError(co.ErrorCode); k != sarama.ErrNoError {
				errs[co.Key] = FindCoordinatorErr(k, co.Key)
				continue
			}
			if br, err := c.Broker(co.NodeID); err != nil {
				e := FindCoordinatorErr(err, co.Key)
				e.Broker = model.Ptr(co.NodeID) // the coordinator that cannot be asked (OnLostBroker)
				errs[co.Key] = e
			} else {
				coords[co.Key] = br
			}
		}
		for _, n := range names {
			if coords[n] == nil && errs[n] == nil {
				errs[n] = (&model.Error{Kind: model.KindBroker, Message: "find the group's coordinator: the broker's reply left the group out"}).WithGroup(n)
			}
		}
		return coords, errs
	}
	for _, n := range names {
		errs[n] = FindCoordinatorErr(lastErr, n)
	}
	return coords, errs
}

// findEach is FindCoordinators with one FindCoordinator request per group, for brokers
// older than FindCoordinator v4 (Kafka 2.8).
func (c *Conn) findEach(ctx context.Context, names []string) (map[string]*sarama.Broker, map[string]*model.Error) {
	var mu sync.Mutex
	coords, errs := map[string]*sarama.Broker{}, map[string]*model.Error{}
	Run(c, names, func(n string) {
		b, err := c.Coordinator(ctx, n)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs[n] = FindCoordinatorErr(err, n)
		} else {
			coords[n] = b
		}
	})
	return coords, errs
}

// FindCoordinatorErr is why a group that no broker listed could not be located
// (GROUP_AUTHORIZATION_FAILED reads as denied, with Kafka's code).
func FindCoordinatorErr(err error, group string) *model.Error {
	e := ToError(err)
	e.Message = "find the group's coordinator: " + e.Message
	return e.WithGroup(group)
}
