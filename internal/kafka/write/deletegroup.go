package write

import (
	"context"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// DeleteGroup deletes group (DeleteGroups, one request to its coordinator), as
// kafka-consumer-groups --delete does; the broker refuses a group with members
// (NON_EMPTY_GROUP). tps are the group's commits the delete removes: each is returned
// rejected when the broker refused the group, with its reason; a group already gone
// counts as deleted. err is set only when the request as a whole failed. A group deleted is
// forgotten by this client (internal/kafka/groupread/remember.go): its next snapshot of all groups leaves it out at
// once, as a group this client deleted is no group gone missing.
func (c *Writer) DeleteGroup(ctx context.Context, group string, tps []model.TP) (rejected []model.Error, err error) {
	deleted := false
	defer func() {
		if deleted && err == nil {
			c.groups.Forget(group)
		}
	}()
	return c.writeGroup(ctx, group, "delete group", func(ctx context.Context, b *sarama.Broker) ([]model.Error, error) {
		req := &sarama.DeleteGroupsRequest{Version: 1}
		req.AddGroup(group)
		resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.DeleteGroupsResponse, error) { return b.DeleteGroups(req) })
		if err != nil {
			return nil, err
		}
		code, answered := resp.GroupErrorCodes[group]
		deleted = answered && (code == sarama.ErrNoError || code == sarama.ErrGroupIDNotFound)
		return rejections(group, tps, func(model.TP) (*model.Error, bool) {
			switch {
			case !answered:
				return nil, false
			case code == sarama.ErrNoError || code == sarama.ErrGroupIDNotFound:
				return nil, true
			}
			return model.Ptr(wire.KerrError(code, "delete group rejected: "+wire.KerrText(code))), true
		}), nil
	})
}
