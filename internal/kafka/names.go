package kafka

import (
	"context"
	"fmt"
	"slices"

	"github.com/IBM/sarama"
)

// GroupNames lists the groups every broker coordinates, as a snapshot lists them
// (listGroups: one ListGroups per broker), sorted; what shell completion offers. It fails
// only when no broker answered; the groups of a broker that did not answer are missing.
func (c *Client) GroupNames(ctx context.Context) ([]string, error) {
	brokers := c.brokers()
	listed, errs := c.listGroups(ctx)
	if len(errs) == len(brokers) {
		if len(errs) == 0 {
			return nil, sarama.ErrOutOfBrokers
		}
		return nil, fmt.Errorf("no broker answered ListGroups: %s", errs[0].Error())
	}
	names := make([]string, len(listed))
	for i, g := range listed {
		names[i] = g.name
	}
	return names, nil
}

// TopicNames lists the topics of the cluster, internal ones left out, sorted: one
// Metadata request for every topic, to the first broker that answers; what shell
// completion offers.
func (c *Client) TopicNames(ctx context.Context) ([]string, error) {
	var lastErr error = sarama.ErrOutOfBrokers
	for _, b := range c.brokers() {
		resp, err := call(ctx, c, b, func() (*sarama.MetadataResponse, error) {
			return b.GetMetadata(&sarama.MetadataRequest{Version: 10}) // no topic named: every topic
		})
		if err != nil {
			lastErr = err
			continue
		}
		var names []string
		for _, t := range resp.Topics {
			if t.Err == sarama.ErrNoError && !t.IsInternal {
				names = append(names, t.Name)
			}
		}
		slices.Sort(names)
		return names, nil
	}
	return nil, lastErr
}
