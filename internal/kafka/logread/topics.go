package logread

import (
	"context"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// TopicNames lists the topics of the cluster, internal ones left out, sorted: one
// Metadata request for every topic, to the first broker that answers; what shell
// completion offers.
func (c *Reader) TopicNames(ctx context.Context) ([]string, error) {
	var lastErr error = sarama.ErrOutOfBrokers
	for _, b := range c.conn.Brokers() {
		resp, err := wire.Call(ctx, c.conn, b, func() (*sarama.MetadataResponse, error) {
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

// TopicErrors asks the cluster's metadata about topics (one request, never creating a
// topic) and returns, per topic it answered with an error, that error: not-found
// (UNKNOWN_TOPIC_OR_PARTITION) for a topic that does not exist, denied for one the
// principal may not describe. Topics that exist are left out.
func (c *Reader) TopicErrors(ctx context.Context, topics []string) (map[string]*model.Error, error) {
	lay, err := c.conn.Metadata(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := map[string]*model.Error{}
	for _, t := range topics {
		if e := lay.TopicErrs[t]; e != nil {
			out[t] = e
		}
	}
	return out, nil
}
