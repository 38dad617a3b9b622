package groupread

import (
	"context"
	"fmt"

	"github.com/IBM/sarama"
)

// GroupNames lists the groups every broker coordinates, as a snapshot lists them
// (ListGroups: one ListGroups per broker), sorted; what shell completion offers. It fails
// only when no broker answered; the groups of a broker that did not answer are missing.
func (c *Reader) GroupNames(ctx context.Context) ([]string, error) {
	brokers := c.conn.Brokers()
	listed, errs := c.ListGroups(ctx)
	if len(errs) == len(brokers) {
		if len(errs) == 0 {
			return nil, sarama.ErrOutOfBrokers
		}
		return nil, fmt.Errorf("no broker answered ListGroups: %s", errs[0].Error())
	}
	names := make([]string, len(listed))
	for i, g := range listed {
		names[i] = g.Name
	}
	return names, nil
}
