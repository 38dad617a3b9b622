package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/model"
)

// newClient connects internal/kafka to addrs.
func newClient(t testing.TB, addrs []string, now func() time.Time) *kafka.Client {
	t.Helper()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: addrs, Timeout: 5 * time.Second, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// withProps is the client settings of client properties, or fails.
func withProps(t testing.TB, props map[string]string) clientconfig.Settings {
	t.Helper()
	s, err := clientconfig.FromProperties(props, clientconfig.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// findGroup returns the named group of a snapshot or fails.
func findGroup(t testing.TB, s model.Snapshot, name string) model.Group {
	t.Helper()
	for _, g := range s.Groups {
		if g.Group == name {
			return g
		}
	}
	t.Fatalf("group %q not in snapshot", name)
	return model.Group{}
}

// findPartition returns one partition of a group or fails.
func findPartition(t testing.TB, g model.Group, topic string, p int32) model.GroupPartition {
	t.Helper()
	for _, gp := range g.Partitions {
		if gp.Topic == topic && gp.Partition == p {
			return gp
		}
	}
	t.Fatalf("group %s has no partition %s-%d", g.Group, topic, p)
	return model.GroupPartition{}
}

func val[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// tsAt returns record timestamps one second apart starting at unix second base.
func tsAt(base int64) func(int) time.Time {
	return func(i int) time.Time { return time.Unix(base+int64(i), 0) }
}
