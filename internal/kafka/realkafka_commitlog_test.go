package kafka_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
)

// On a real broker the reader agrees with an independent read of __consumer_offsets
// (realkafka.GroupRecords: franz-go's consumer, every key decoded) on each group's last
// commit per partition with its commit time, and on a classic group's last GroupMetadata
// record (the time it became Empty): a group committed by Kafka's Admin client and a
// classic group of Kafka's consumer that committed and left.
func TestRealKafkaCommitLog(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic := realkafka.Name("clog")
		s.CreateTopic(topic, 2, nil)
		b.Produce(t, topic, 0, "", 10)
		admin, classic := realkafka.Name("clog-admin"), realkafka.Name("clog-classic")
		b.AdminCommit(t, admin, map[model.TP]int64{{Topic: topic}: 3, {Topic: topic, Partition: 1}: 0})
		b.Consume(t, realkafka.ConsumeSpec{Group: classic, Topic: topic})
		c := newClient(t, []string{b.Addr}, time.Now)
		got, scan := c.ReadCommitLog(realkafka.Ctx(t, 30*time.Second), []string{admin, classic}, kafka.CommitLogOptions{})
		for _, g := range []string{admin, classic} {
			recs, _, err := realkafka.GroupRecords(realkafka.Ctx(t, 60*time.Second), []string{b.Addr}, g)
			if err != nil {
				t.Fatalf("the oracle's read of %s: %v", g, err)
			}
			want := map[model.TP]time.Time{}
			wantOffset := map[model.TP]int64{}
			var emptyAt time.Time
			members := -1
			for _, r := range recs {
				tp := model.TP{Topic: r.Topic, Partition: r.Partition}
				switch {
				case r.Commit != nil:
					want[tp], wantOffset[tp] = time.UnixMilli(r.Commit.CommitTimestamp), r.Commit.Offset
				case r.Type <= realkafka.RecordOffsetCommit && r.Tombstone:
					delete(want, tp)
				case r.Classic != nil:
					members, emptyAt = len(r.Classic.Members), time.UnixMilli(r.Classic.CurrentStateTimestamp)
				}
			}
			l := got[g]
			if l == nil || l.Status != model.CommitLogRead {
				t.Fatalf("%s: %+v, want read", g, l)
			}
			if len(l.Commits) != len(want) || len(want) == 0 {
				t.Errorf("%s: %d commits, the oracle has %d", g, len(l.Commits), len(want))
			}
			for _, cr := range l.Commits {
				if !cr.CommittedAt.Equal(want[cr.TP]) || cr.Offset != wantOffset[cr.TP] {
					t.Errorf("%s %s: offset %d committed at %v; the oracle: %d at %v", g, cr.TP, cr.Offset, cr.CommittedAt, wantOffset[cr.TP], want[cr.TP])
				}
			}
			switch {
			case g == admin && l.Classic != nil:
				t.Errorf("%s (admin commits only): a GroupMetadata record %+v, want none", g, l.Classic)
			case g == classic && (l.Classic == nil || l.Classic.Members != 0 || members != 0 || !l.Classic.StateAt.Equal(emptyAt)):
				t.Errorf("%s: GroupMetadata %+v; the oracle: %d members, state time %v", g, l.Classic, members, emptyAt)
			}
			if l.Partition != realkafka.OffsetsPartition(g, int32(offsetsPartitions(t, s))) {
				t.Errorf("%s: partition %d, Kafka's rule says %d", g, l.Partition, realkafka.OffsetsPartition(g, int32(offsetsPartitions(t, s))))
			}
		}
		t.Logf("%s: %d partitions of __consumer_offsets, %d requests, %d records, %d bytes in %v",
			b.Name(), scan.Partitions, scan.Requests, scan.Records, scan.Bytes, scan.Took)
	})
}

// offsetsPartitions is the partition count of __consumer_offsets.
func offsetsPartitions(t testing.TB, s *realkafka.Seed) int {
	t.Helper()
	td, err := s.Adm.ListTopicsWithInternal(realkafka.Ctx(t, 10*time.Second), realkafka.OffsetsTopic)
	if err != nil || len(td[realkafka.OffsetsTopic].Partitions) == 0 {
		t.Fatalf("metadata of __consumer_offsets: %v", err)
	}
	return len(td[realkafka.OffsetsTopic].Partitions)
}

// A principal that may not read __consumer_offsets gets a per-group "denied", whether the
// topic is hidden from it (no Describe: Metadata says TOPIC_AUTHORIZATION_FAILED) or only
// its records are (Describe without Read: Fetch says so), read forward or newest first.
func TestRealKafkaCommitLogDenied(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("clog-denied"), realkafka.Name("clog-denied-grp")
		s.CreateTopic(topic, 1, nil)
		b.AdminCommit(t, group, map[model.TP]int64{{Topic: topic}: 0})
		// read reads the group's commit log as user, forward (a client of many snapshots) and
		// newest first (a one-shot command), and fails unless both say the same.
		read := func(user string) *model.CommitLog {
			t.Helper()
			c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{b.SASLAddr}, Timeout: 10 * time.Second, Client: withProps(t, map[string]string{
				"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "SCRAM-SHA-512",
				"sasl.jaas.config": fmt.Sprintf(`org.apache.kafka.common.security.scram.ScramLoginModule required username=%q password=%q;`, user, user+"-secret")})})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got, _ := c.ReadCommitLog(context.Background(), []string{group}, kafka.CommitLogOptions{})
			found, _ := c.SearchCommitLog(context.Background(), map[string]model.CommitLogNeed{group: {Commits: []model.TP{{Topic: topic}}}}, kafka.CommitLogOptions{})
			if l, f := got[group], found[group]; l.Status != f.Status || len(l.Commits) != len(f.Commits) {
				t.Errorf("%s: read forward %+v, searched %+v", user, l, f)
			}
			return got[group]
		}
		if l := read("alice"); l.Status != model.CommitLogDenied || !strings.Contains(l.Reason, "TOPIC_AUTHORIZATION_FAILED") || len(l.Commits) != 0 {
			t.Errorf("alice (no ACL on __consumer_offsets): %+v, want denied", l)
		}
		s.Allow("User:bob", []string{realkafka.OffsetsTopic}, nil, kadm.OpDescribe)
		if l := read("bob"); l.Status != model.CommitLogDenied || len(l.Commits) != 0 {
			t.Errorf("bob (Describe, no Read on __consumer_offsets): %+v, want denied", l)
		}
		if l := read("admin"); l.Status != model.CommitLogRead || len(l.Commits) != 1 {
			t.Errorf("admin (a super user): %+v, want read with one commit", l)
		}
	})
}
