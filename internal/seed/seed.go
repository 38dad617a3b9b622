// Package seed is the one client that builds a known state on a cluster:
// topics, records with chosen partitions and timestamps, commits in the admin
// form, moved log starts. The embedded demo cluster seeds its scenario with it
// and tests (through internal/testsupport/kafkatest) build the truth they compare with.
//
// It uses franz-go, independent of internal/kafka (sarama), so that what a test
// builds is never read back through the code under test.
package seed

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/offsettui/offsettui/internal/model"
)

// Seeder is a franz-go producer and admin client. Records go to the partition
// they name (manual partitioner), unlingered; the producer is idempotent, so a
// retried produce never writes a record twice.
type Seeder struct {
	Client *kgo.Client
	Adm    *kadm.Client
}

// New connects a Seeder to addrs; opts are added to its own.
func New(addrs []string, opts ...kgo.Opt) (*Seeder, error) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.MaxBufferedRecords(1 << 16)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("seeding client for %v: %w", addrs, err)
	}
	return &Seeder{Client: cl, Adm: kadm.NewClient(cl)}, nil
}

// Close closes the client.
func (s *Seeder) Close() { s.Client.Close() }

// CreateTopic creates a topic with its partitions, replication factor and
// configs, and waits until its partitions have leaders.
func (s *Seeder) CreateTopic(ctx context.Context, name string, partitions int32, replication int16, configs map[string]string) error {
	cfg := make(map[string]*string, len(configs))
	for k, v := range configs {
		cfg[k] = kadm.StringPtr(v)
	}
	if _, err := s.Adm.CreateTopic(ctx, partitions, replication, cfg, name); err != nil {
		return fmt.Errorf("create topic %s: %w", name, err)
	}
	return nil
}

// Produce writes the records, each to the partition it names, and waits for
// every acknowledgement.
func (s *Seeder) Produce(ctx context.Context, recs ...*kgo.Record) error {
	res := s.Client.ProduceSync(ctx, recs...)
	var failed []error
	for _, r := range res {
		if r.Err != nil {
			failed = append(failed, fmt.Errorf("%s-%d: %w", r.Record.Topic, r.Record.Partition, r.Err))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("produce (%d of %d records failed): %w", len(failed), len(recs), failed[0])
	}
	return nil
}

// Commit writes a group's offsets in the admin form (no member, generation
// −1), which the coordinator accepts only while the group has no members.
// A partition the broker refused is an error.
func (s *Seeder) Commit(ctx context.Context, group string, offs map[model.TP]int64) error {
	o := kadm.Offsets{}
	for tp, off := range offs {
		o.Add(kadm.Offset{Topic: tp.Topic, Partition: tp.Partition, At: off, LeaderEpoch: -1})
	}
	resp, err := s.Adm.CommitOffsets(ctx, group, o)
	if err == nil {
		err = resp.Error()
	}
	if err == nil && len(resp) == 0 && len(offs) > 0 {
		err = errors.New("no answer from the coordinator")
	}
	if err != nil {
		return fmt.Errorf("commit offsets of group %s: %w", group, err)
	}
	return nil
}

// Committed reads a group's committed offsets; partitions without a commit are
// left out.
func (s *Seeder) Committed(ctx context.Context, group string) (map[model.TP]int64, error) {
	resp, err := s.Adm.FetchOffsets(ctx, group)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("fetch offsets of %s: %w", group, err)
	}
	out := map[model.TP]int64{}
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[model.TP{Topic: o.Topic, Partition: o.Partition}] = o.At
		}
	})
	return out, nil
}

// DeleteRecords moves the log start of one partition to before. It returns
// the partition's own error (nil when the broker accepted it) and, separately,
// the error of a request that failed as a whole.
func (s *Seeder) DeleteRecords(ctx context.Context, topic string, partition int32, before int64) (partErr, reqErr error) {
	o := kadm.Offsets{}
	o.Add(kadm.Offset{Topic: topic, Partition: partition, At: before, LeaderEpoch: -1})
	resp, err := s.Adm.DeleteRecords(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("delete records of %s-%d before %d: %w", topic, partition, before, err)
	}
	return resp.Error(), nil
}

// SetGroupConfig sets one group config (IncrementalAlterConfigs on the GROUP resource),
// e.g. share.auto.offset.reset.
func (s *Seeder) SetGroupConfig(ctx context.Context, group, name, value string) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	r := kmsg.NewIncrementalAlterConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
	c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	c.Name, c.Value, c.Op = name, kmsg.StringPtr(value), kmsg.IncrementalAlterConfigOpSet
	r.Configs = append(r.Configs, c)
	req.Resources = append(req.Resources, r)
	resp, err := req.RequestWith(ctx, s.Client)
	if err == nil && len(resp.Resources) != 1 {
		err = fmt.Errorf("%d resources in the reply, want 1", len(resp.Resources))
	}
	if err == nil {
		err = kerr.ErrorForCode(resp.Resources[0].ErrorCode)
	}
	if err != nil {
		return fmt.Errorf("set %s=%s on group %s: %w", name, value, group, err)
	}
	return nil
}
