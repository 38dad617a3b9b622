package logread

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// configCache keeps what DescribeConfigs said, per topic and for the broker's
// offsets.retention.minutes, with when it was read, for queries that allow
// configs of a certain age (model.Query.ConfigMaxAge). Only answers are kept:
// a failure is asked again on the next snapshot.
type configCache struct {
	mu       sync.Mutex
	topics   map[string]cachedTopic
	minutes  *int64
	checkMs  *int64
	brokerAt time.Time // when offsets.retention.minutes was read; zero when not
}

type cachedTopic struct {
	t  model.Topic
	at time.Time
}

// TopicConfigs returns the configs of topics, reusing the ones read less
// than maxAge ago and asking for the rest in one request (none when nothing
// is due). With maxAge 0 every config is read.
func (c *Reader) TopicConfigs(ctx context.Context, topics []string, maxAge time.Duration) ConfigResult {
	if maxAge <= 0 {
		return c.describeConfigs(ctx, topics)
	}
	now := c.conn.Now()
	cc := &c.configs
	cc.mu.Lock()
	res := ConfigResult{Topics: map[string]model.Topic{}}
	var due []string
	for _, t := range topics {
		if e, ok := cc.topics[t]; ok && now.Sub(e.at) < maxAge {
			res.Topics[t] = e.t
		} else {
			due = append(due, t)
		}
	}
	brokerFresh := !cc.brokerAt.IsZero() && now.Sub(cc.brokerAt) < maxAge
	res.OffsetsRetentionMinutes, res.OffsetsRetentionCheckMs = cc.minutes, cc.checkMs
	cc.mu.Unlock()
	if len(due) == 0 && brokerFresh {
		return res
	}
	got := c.describeConfigs(ctx, due)
	cc.mu.Lock()
	defer cc.mu.Unlock()
	maps.DeleteFunc(cc.topics, func(_ string, e cachedTopic) bool { return now.Sub(e.at) >= maxAge }) // bounded by what is fresh
	if cc.topics == nil {
		cc.topics = map[string]cachedTopic{}
	}
	for name, t := range got.Topics {
		res.Topics[name] = t
		if t.Error == nil {
			cc.topics[name] = cachedTopic{t: t, at: now}
		}
	}
	res.Errs = got.Errs
	res.OffsetsRetentionMinutes, res.OffsetsRetentionCheckMs = got.OffsetsRetentionMinutes, got.OffsetsRetentionCheckMs
	if len(got.Errs) == 0 {
		cc.minutes, cc.checkMs, cc.brokerAt = got.OffsetsRetentionMinutes, got.OffsetsRetentionCheckMs, now
	} else {
		cc.brokerAt = time.Time{}
	}
	return res
}
