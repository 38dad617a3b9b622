package kafka_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// With ConfigMaxAge, configs read less than that long ago are reused (no
// DescribeConfigs), and read again once older: a retention change shows then.
// Without it, every snapshot reads them.
func TestConfigMaxAge(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, map[string]string{"retention.ms": "1000000"}); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.Produce("t", 0, time.Now())
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 1})
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	c := newClient(t, k.ListenAddrs(), clock)
	rc := kafkatest.CountRequests(k, kmsg.DescribeConfigs)
	defer rc.Remove()
	read := func(q model.Query) (retention int64, requests int) {
		t.Helper()
		before := rc.Hits(kmsg.DescribeConfigs)
		snap, err := c.Snapshot(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Topics) != 1 || snap.Topics[0].RetentionMs == nil {
			t.Fatalf("topics %+v", snap.Topics)
		}
		return *snap.Topics[0].RetentionMs, rc.Hits(kmsg.DescribeConfigs) - before
	}
	cached := model.Query{ConfigMaxAge: time.Minute}
	for i, step := range []struct {
		q         model.Query
		advance   time.Duration
		alter     string
		retention int64
		requests  int
	}{
		{q: cached, retention: 1000000, requests: 1},
		{q: cached, advance: 30 * time.Second, alter: "2000000", retention: 1000000, requests: 0}, // still fresh: reused
		{q: cached, advance: 31 * time.Second, retention: 2000000, requests: 1},                   // older than a minute: read again
		{q: cached, retention: 2000000, requests: 0},
		{q: model.Query{}, alter: "3000000", retention: 3000000, requests: 1}, // no max age: always read
	} {
		advance(step.advance)
		if step.alter != "" {
			alterRetention(t, s.Adm, "t", step.alter)
		}
		got, n := read(step.q)
		if got != step.retention || n != step.requests {
			t.Fatalf("step %d: retention.ms %d with %d DescribeConfigs; want %d with %d", i, got, n, step.retention, step.requests)
		}
	}
}

func alterRetention(t *testing.T, adm *kadm.Client, topic, ms string) {
	t.Helper()
	v := ms
	resp, err := adm.AlterTopicConfigs(context.Background(), []kadm.AlterConfig{{Name: "retention.ms", Value: &v}}, topic)
	if err == nil {
		_, err = resp.On(topic, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
}
