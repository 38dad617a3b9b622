package realkafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
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

// committedWith is OffsetFetch (kadm) of one group on a client of the test's own.
func committedWith(t testing.TB, cl *kgo.Client, group string) map[model.TP]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := kadm.NewClient(cl).FetchOffsets(ctx, group)
	if err != nil {
		t.Fatalf("offset fetch of %s: %v", group, err)
	}
	out := map[model.TP]int64{}
	r.Each(func(o kadm.OffsetResponse) {
		if o.Err != nil {
			t.Fatalf("offset fetch of %s, %s-%d: %v", group, o.Topic, o.Partition, o.Err)
		}
		out[model.TP{Topic: o.Topic, Partition: o.Partition}] = o.At
	})
	return out
}

// toolTimeout is kafka-consumer-groups' --timeout (ms) in these tests: its default, 5 s, is
// too short for a JVM tool on a loaded 2-core machine.
const toolTimeout = "30000"

// TestTableRowsOnOneLine: Kafka 3.9.1's --reset-offsets --dry-run prints its header and rows
// without line breaks (measured); they read as the rows they are.
func TestTableRowsOnOneLine(t *testing.T) {
	out := "\nGROUP                          TOPIC                          PARTITION  NEW-OFFSET     g           t                 1          0              g           t                 0          5              "
	rows := realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET")
	if len(rows) != 2 || rows[0]["PARTITION"] != "1" || rows[1]["NEW-OFFSET"] != "5" || rows[1]["GROUP"] != "g" {
		t.Errorf("rows %v", rows)
	}
	state := "\nGROUP  COORDINATOR (ID)  ASSIGNOR  STATE  #MEMBERS\ng  localhost:9092  (1)  range  Stable  1\n"
	if rows := realkafka.TableRows(state, "GROUP", "STATE", "#MEMBERS"); len(rows) != 1 || rows[0]["STATE"] != "Stable" || rows[0]["#MEMBERS"] != "1" || rows[0]["(ID)"] != "(1)" {
		t.Errorf("--state rows %v", rows)
	}
	members := "\nGROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS\ng m-1 /127.0.0.1 c 2\n"
	if rows := realkafka.TableRows(members, "GROUP", "CONSUMER-ID", "#PARTITIONS"); len(rows) != 1 || rows[0]["#PARTITIONS"] != "2" {
		t.Errorf("--members rows %v", rows)
	}
	lined := "\nGROUP TOPIC PARTITION NEW-OFFSET\ng t 1 0\ng t 0 5\n"
	if rows := realkafka.TableRows(lined, "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"); len(rows) != 2 || rows[1]["NEW-OFFSET"] != "5" {
		t.Errorf("rows %v", rows)
	}
}
