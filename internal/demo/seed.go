package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/IBM/sarama"
)

// seeder holds the sarama client used to create and fill the scenario; it is
// closed once Start has settled.
type seeder struct {
	client   sarama.Client
	admin    sarama.ClusterAdmin
	producer sarama.SyncProducer
}

// seedConfig is a sarama configuration for a client on loopback: short
// timeouts and backoffs, since nothing here should ever wait long.
func seedConfig(clientID string) *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.ClientID = clientID
	cfg.Net.DialTimeout = 5 * time.Second
	cfg.Net.ReadTimeout = 5 * time.Second
	cfg.Net.WriteTimeout = 5 * time.Second
	cfg.Metadata.Retry.Backoff = 10 * time.Millisecond
	cfg.Admin.Timeout = 5 * time.Second
	cfg.Admin.Retry.Backoff = 10 * time.Millisecond
	return cfg
}

func newSeeder(bootstrap []string) (*seeder, error) {
	cfg := seedConfig("offsettui-demo-seed")
	cfg.Producer.Return.Successes = true
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	// Every message names its partition; the scenario pins records to
	// partitions.
	cfg.Producer.Partitioner = sarama.NewManualPartitioner
	cfg.Producer.Retry.Backoff = 10 * time.Millisecond

	client, err := sarama.NewClient(bootstrap, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect seeding client to demo brokers %v: %w", bootstrap, err)
	}
	admin, err := sarama.NewClusterAdminFromClient(client)
	if err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("open admin client on demo brokers: %w", err)
	}
	producer, err := sarama.NewSyncProducerFromClient(client)
	if err != nil {
		_ = admin.Close()
		return nil, fmt.Errorf("open producer on demo brokers: %w", err)
	}
	return &seeder{client: client, admin: admin, producer: producer}, nil
}

// close closes the producer and the admin, which closes the client.
func (s *seeder) close() {
	_ = s.producer.Close()
	_ = s.admin.Close()
}

// seed creates and fills the topics, commits the groups' offsets while they
// are empty and then moves log starts, so the commits below the new log
// start are "expired" the way retention would have left them.
func (s *seeder) seed(ctx context.Context, start time.Time, topics []topicSpec, groups []groupSpec) error {
	steps := []func() error{
		func() error { return s.createTopics(topics) },
		func() error { return s.produce(start, topics) },
		func() error { return s.commitAll(groups) },
		func() error { return s.deleteRecords(topics) },
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

func (s *seeder) createTopics(topics []topicSpec) error {
	names := make([]string, 0, len(topics))
	for _, t := range topics {
		cfg := make(map[string]*string, len(t.configs))
		for k, v := range t.configs {
			cfg[k] = &v
		}
		detail := &sarama.TopicDetail{NumPartitions: t.partitions, ReplicationFactor: 3, ConfigEntries: cfg}
		if err := s.admin.CreateTopic(t.name, detail, false); err != nil {
			return fmt.Errorf("create topic %s: %w", t.name, err)
		}
		names = append(names, t.name)
	}
	// Learn the new partitions' leaders now rather than through the
	// producer's retry backoff.
	if err := s.client.RefreshMetadata(names...); err != nil {
		return fmt.Errorf("refresh metadata for %v: %w", names, err)
	}
	return nil
}

// produce writes every record with an explicit partition and CreateTime.
func (s *seeder) produce(start time.Time, topics []topicSpec) error {
	var msgs []*sarama.ProducerMessage
	for _, t := range topics {
		for p := range t.partitions {
			for k := range t.records {
				m := &sarama.ProducerMessage{
					Topic:     t.name,
					Partition: p,
					Value:     sarama.StringEncoder(t.value(p, k)),
					Timestamp: t.at(start, k),
				}
				if t.key != nil {
					m.Key = sarama.StringEncoder(t.key(p, k))
				}
				msgs = append(msgs, m)
			}
		}
	}
	if err := s.producer.SendMessages(msgs); err != nil {
		var perrs sarama.ProducerErrors
		if errors.As(err, &perrs) && len(perrs) > 0 {
			first := perrs[0]
			return fmt.Errorf("produce to %s partition %d (%d of %d records failed): %w",
				first.Msg.Topic, first.Msg.Partition, len(perrs), len(msgs), first.Err)
		}
		return fmt.Errorf("produce %d records: %w", len(msgs), err)
	}
	return nil
}

// deleteRecords moves the log start offsets the scenario sets.
func (s *seeder) deleteRecords(topics []topicSpec) error {
	for _, t := range topics {
		if len(t.low) == 0 {
			continue
		}
		if err := s.admin.DeleteRecords(t.name, t.low); err != nil {
			return fmt.Errorf("delete records of %s up to %v: %w", t.name, t.low, err)
		}
	}
	return nil
}
