package logread

import (
	"context"
	"fmt"
	"strconv"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// topicConfigNames are the topic configs a snapshot reads.
var topicConfigNames = []string{"cleanup.policy", "retention.ms", "retention.bytes", "delete.retention.ms",
	"remote.storage.enable", "local.retention.ms", "local.retention.bytes"}

// ConfigResult is what DescribeConfigs said.
type ConfigResult struct {
	Topics                  map[string]model.Topic
	OffsetsRetentionMinutes *int64
	// OffsetsRetentionCheckMs is offsets.retention.check.interval.ms.
	OffsetsRetentionCheckMs *int64
	// Errs holds failures that belong to no topic (the broker's own configs).
	Errs []model.Error
}

// describeConfigs reads topicConfigNames of every
// topic and the broker's offsets.retention.minutes and
// offsets.retention.check.interval.ms in one DescribeConfigs request
// (a broker resource must go to that broker, so the request goes there). A broker
// that refuses or closes the connection (shutting down) is followed by the next;
// one that stays silent is not, so it costs one --timeout.
func (c *Reader) describeConfigs(ctx context.Context, topics []string) ConfigResult {
	res := ConfigResult{Topics: map[string]model.Topic{}}
	bs := c.conn.Brokers()
	if len(bs) == 0 {
		res.Errs = append(res.Errs, model.Error{Kind: model.KindUnreachable, Message: "describe configs: no broker reachable"})
		for _, t := range topics {
			res.Topics[t] = model.Topic{Topic: t, Error: res.Errs[0].WithTopic(t)}
		}
		return res
	}
	var (
		b    *sarama.Broker
		resp *sarama.DescribeConfigsResponse
		err  error
	)
	for _, b = range bs {
		if resp, err = c.describeConfigsOf(ctx, b, topics); err == nil || !wire.Moved(model.Ptr(wire.ToError(err))) {
			break
		}
	}
	if err != nil {
		e := wire.BrokerErr(err, b.ID(), "describe configs")
		res.Errs = append(res.Errs, e)
		for _, t := range topics {
			res.Topics[t] = model.Topic{Topic: t, Error: e.WithTopic(t)}
		}
		return res
	}
	for _, r := range resp.Resources {
		if r.Type == sarama.BrokerResource {
			res.addBroker(r, b.ID())
			continue
		}
		res.Topics[r.Name] = topicConfig(r)
	}
	for _, t := range topics {
		if _, ok := res.Topics[t]; !ok {
			res.Topics[t] = model.Topic{Topic: t,
				Error: (&model.Error{Kind: model.KindBroker, Message: "describe configs: the broker's reply left the topic out"}).WithTopic(t)}
		}
	}
	return res
}

// describeConfigsOf sends the DescribeConfigs request of describeConfigs to b.
func (c *Reader) describeConfigsOf(ctx context.Context, b *sarama.Broker, topics []string) (*sarama.DescribeConfigsResponse, error) {
	req := &sarama.DescribeConfigsRequest{Version: 4}
	for _, t := range topics {
		req.Resources = append(req.Resources, &sarama.ConfigResource{
			Type: sarama.TopicResource, Name: t,
			ConfigNames: topicConfigNames,
		})
	}
	req.Resources = append(req.Resources, &sarama.ConfigResource{
		Type: sarama.BrokerResource, Name: strconv.Itoa(int(b.ID())), ConfigNames: []string{"offsets.retention.minutes", "offsets.retention.check.interval.ms"},
	})
	return wire.Call(ctx, c.conn, b, func() (*sarama.DescribeConfigsResponse, error) { return b.DescribeConfigs(req) })
}

// addBroker takes offsets.retention.minutes and the check interval from the broker's
// resource, or its error.
func (res *ConfigResult) addBroker(r *sarama.ResourceResponse, broker int32) {
	if r.ErrorCode != 0 {
		k := sarama.KError(r.ErrorCode)
		e := wire.KerrAt(k, model.BrokerConfigsWhat)
		e.Broker = model.Ptr(broker)
		res.Errs = append(res.Errs, e)
		return
	}
	for _, ce := range r.Configs {
		v, err := strconv.ParseInt(ce.Value, 10, 64)
		switch {
		case err != nil:
		case ce.Name == "offsets.retention.minutes":
			res.OffsetsRetentionMinutes = &v
		case ce.Name == "offsets.retention.check.interval.ms":
			res.OffsetsRetentionCheckMs = &v
		}
	}
}

// topicConfig reads a topic's resource: its retention configs, or its error.
// A topic without cleanup.policy, or whose policy names one offsettui does not know, cannot
// be classified and says so; an empty policy (KIP-1161) is read: never deleted by retention.
func topicConfig(r *sarama.ResourceResponse) model.Topic {
	t := model.Topic{Topic: r.Name}
	if r.ErrorCode != 0 {
		k := sarama.KError(r.ErrorCode)
		msg := r.ErrorMsg
		if msg == "" {
			msg = wire.KerrText(k)
		}
		t.Error = wire.KerrError(k, "describe configs: "+msg).WithTopic(r.Name)
		return t
	}
	for _, ce := range r.Configs {
		switch ce.Name {
		case "cleanup.policy":
			t.CleanupPolicy = model.Ptr(ce.Value)
		case "retention.ms":
			if v, err := strconv.ParseInt(ce.Value, 10, 64); err == nil {
				t.RetentionMs = &v
			}
		case "retention.bytes":
			if v, err := strconv.ParseInt(ce.Value, 10, 64); err == nil {
				t.RetentionBytes = &v
			}
		case "delete.retention.ms":
			t.DeleteRetentionMs = configInt(ce.Value)
		case "remote.storage.enable":
			t.RemoteStorage = model.Ptr(ce.Value == "true")
		case "local.retention.ms":
			t.LocalRetentionMs = configInt(ce.Value)
		case "local.retention.bytes":
			t.LocalRetentionBytes = configInt(ce.Value)
		}
	}
	switch {
	case t.CleanupPolicy == nil:
		t.Error = (&model.Error{Kind: model.KindBroker, Message: fmt.Sprintf("describe configs: no cleanup.policy returned for %s", r.Name)}).WithTopic(r.Name)
	case !model.KnownPolicy(*t.CleanupPolicy):
		t.Error = (&model.Error{Kind: model.KindBroker, Message: fmt.Sprintf("describe configs: cleanup.policy=%s of %s names a policy offsettui does not know", *t.CleanupPolicy, r.Name)}).WithTopic(r.Name)
	}
	return t
}

// configInt reads an integer config, nil when it is not one.
func configInt(v string) *int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}
