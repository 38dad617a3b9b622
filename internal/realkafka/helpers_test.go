package realkafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
)

// describeGroup is DescribeGroups (kadm) of one group.
func describeGroup(t testing.TB, s *realkafka.Seed, group string) kadm.DescribedGroup {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := s.Adm.DescribeGroups(ctx, group)
	if err != nil {
		t.Fatalf("describe group %s: %v", group, err)
	}
	g := d[group]
	if g.Err != nil {
		t.Fatalf("describe group %s: %v", group, g.Err)
	}
	return g
}

// committed is OffsetFetch (kadm) of one group.
func committed(t testing.TB, s *realkafka.Seed, group string) map[model.TP]int64 {
	t.Helper()
	return s.Committed(group)
}

// offsets is every ListOffsets of one partition.
func offsets(t testing.TB, s *realkafka.Seed, topic string, partition int32) realkafka.PartitionOffsets {
	t.Helper()
	o, err := s.Offsets(topic, partition)
	if err != nil {
		t.Fatalf("list offsets of %s-%d: %v", topic, partition, err)
	}
	return o
}
