package kafka

import (
	"context"

	"github.com/offsettui/offsettui/internal/model"
)

// TopicErrors asks the cluster's metadata about topics (one request, never creating a
// topic) and returns, per topic it answered with an error, that error: not-found
// (UNKNOWN_TOPIC_OR_PARTITION) for a topic that does not exist, denied for one the
// principal may not describe. Topics that exist are left out.
func (c *Client) TopicErrors(ctx context.Context, topics []string) (map[string]*model.Error, error) {
	lay, err := c.metadata(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := map[string]*model.Error{}
	for _, t := range topics {
		if e := lay.topicErrs[t]; e != nil {
			out[t] = e
		}
	}
	return out, nil
}
