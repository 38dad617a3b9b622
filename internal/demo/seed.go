package demo

import (
	"context"
	"fmt"
	"github.com/twmb/franz-go/pkg/kfake"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/seed"
)

// seeder fills the scenario through the shared seeding client; it is closed
// once Start has settled.
type seeder struct{ *seed.Seeder }

func newSeeder(bootstrap []string) (*seeder, error) {
	s, err := seed.New(bootstrap, kgo.ClientID("offsettui-demo-seed"),
		kgo.RetryBackoffFn(func(int) time.Duration { return 10 * time.Millisecond }))
	if err != nil {
		return nil, fmt.Errorf("connect seeding client to demo brokers %v: %w", bootstrap, err)
	}
	return &seeder{s}, nil
}

// close closes the seeding client.
func (s *seeder) close() { s.Close() }

// seed creates and fills the topics, commits the groups' offsets while they
// are empty and then moves log starts, so the commits below the new log
// start are "expired" the way retention would have left them.
func (s *seeder) seed(ctx context.Context, fake *kfake.Cluster, start time.Time, topics []topicSpec, groups []groupSpec) error {
	steps := []func() error{
		func() error { return s.createTopics(ctx, topics) },
		func() error { return s.produce(ctx, start, topics) },
		func() error { return s.commitAll(ctx, groups) },
		func() error { return s.seedShareGroups(ctx, fake) },
		func() error { return s.deleteRecords(ctx, topics) },
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) createTopics(ctx context.Context, topics []topicSpec) error {
	for _, t := range topics {
		if err := s.CreateTopic(ctx, t.name, t.partitions, 3, t.configs); err != nil {
			return err
		}
	}
	return nil
}

// produce writes every record with an explicit partition and CreateTime.
func (s *seeder) produce(ctx context.Context, start time.Time, topics []topicSpec) error {
	var recs []*kgo.Record
	for _, t := range topics {
		for p := range t.partitions {
			for k := range t.records {
				r := &kgo.Record{Topic: t.name, Partition: p, Value: []byte(t.value(p, k)), Timestamp: t.at(start, k)}
				if t.key != nil {
					r.Key = []byte(t.key(p, k))
				}
				recs = append(recs, r)
			}
		}
	}
	if err := s.Produce(ctx, recs...); err != nil {
		return fmt.Errorf("seed %d records: %w", len(recs), err)
	}
	return nil
}

// commitAll commits each group's offsets in the admin form (generation -1,
// no member id), which the coordinator accepts only while the group has no
// members; live members therefore join afterwards.
func (s *seeder) commitAll(ctx context.Context, groups []groupSpec) error {
	for _, g := range groups {
		if len(g.commits) == 0 {
			continue
		}
		offs := map[model.TP]int64{}
		for topic, parts := range g.commits {
			for p, off := range parts {
				offs[model.TP{Topic: topic, Partition: p}] = off
			}
		}
		if err := s.Commit(ctx, g.name, offs); err != nil {
			return err
		}
	}
	return nil
}

// deleteRecords moves the log start offsets the scenario sets.
func (s *seeder) deleteRecords(ctx context.Context, topics []topicSpec) error {
	for _, t := range topics {
		for p, low := range t.low {
			partErr, err := s.DeleteRecords(ctx, t.name, p, low)
			if err == nil {
				err = partErr
			}
			if err != nil {
				return fmt.Errorf("delete records of %s-%d up to %d: %w", t.name, p, low, err)
			}
		}
	}
	return nil
}
