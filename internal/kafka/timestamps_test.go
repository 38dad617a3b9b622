package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// TestCommittedTimestampsSharedPartition: two groups committed at different offsets
// of one partition each get the timestamp of their own record. A Fetch request
// holds one position per partition; asking for both offsets in one request used to
// give both groups the timestamp of the later record (expires-in 3h instead of 30m).
func TestCommittedTimestampsSharedPartition(t *testing.T) {
	c := kafkatest.Cluster(t)
	s := kafkatest.NewSeed(t, c.ListenAddrs())
	if _, err := s.Adm.CreateTopic(context.Background(), 1, 1, nil, "t"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Millisecond)
	old := now.Add(-150 * time.Minute)
	s.ProduceN("t", 0, 5, func(i int) time.Time { return old.Add(time.Duration(i) * time.Second) })
	s.ProduceN("t", 0, 5, func(i int) time.Time { return now.Add(time.Duration(i) * time.Millisecond) })
	s.Commit("early", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	s.Commit("late", map[model.TP]int64{{Topic: "t", Partition: 0}: 6})
	s.Commit("later", map[model.TP]int64{{Topic: "t", Partition: 0}: 8})
	snap, err := newClient(t, c.ListenAddrs(), nil).Snapshot(context.Background(), model.Query{FetchBudget: model.DefaultFetchBudget})
	if err != nil {
		t.Fatal(err)
	}
	for group, want := range map[string]time.Time{
		"early": old.Add(2 * time.Second), "late": now.Add(time.Millisecond), "later": now.Add(3 * time.Millisecond),
	} {
		p := findPartition(t, findGroup(t, snap, group), "t", 0)
		if p.CommittedTimestamp() == nil || !p.CommittedTimestamp().Equal(want) {
			t.Errorf("%s: committedTimestamp %v, want %v", group, p.CommittedTimestamp(), want)
		}
	}
}
