package realkafka_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// A standalone committer (assign + commitSync every 2 s, never a member): the group is Empty
// with no members while its commits move, and a reset by Kafka's own tool on it is accepted
// and then overwritten by the committer's next commit.
func TestRealKafkaShapeCommitter(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("committer"), realkafka.Name("committer-grp")
		s.CreateTopic(topic, 2, nil)
		c := b.Committer(t, group, topic, 2*time.Second, 20)
		first := c.Wait(t, "commit", 2, 30*time.Second)
		last := c.Wait(t, "commit", 4, 30*time.Second)
		if gap := last.At().Sub(first.At()); gap < 3500*time.Millisecond || gap > 12*time.Second {
			t.Errorf("commits 2 and 4 are %s apart, want about 4 s (every 2 s)", gap)
		}
		if sum(last.Committed()) <= sum(first.Committed()) {
			t.Errorf("the committed offsets did not move: %v then %v", first.Committed(), last.Committed())
		}

		// Independent reads: the broker's group is Empty with no members, its commits move.
		d := describeGroup(t, s, group)
		if d.State != "Empty" || len(d.Members) != 0 || d.ProtocolType != "" {
			t.Errorf("the committer's group: state %q with %d members, protocol type %q; want Empty with 0, none", d.State, len(d.Members), d.ProtocolType)
		}
		before := committed(t, s, group)
		realkafka.WaitUntil(t, 15*time.Second, "the committed offsets move", func() (bool, string) {
			now := committed(t, s, group)
			return sum(now) > sum(before), "still " + strconv.FormatInt(sum(now), 10)
		})
		out, errOut, _ := b.RunTool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--describe", "--group", group)
		if !strings.Contains(errOut, "has no active members") || len(realkafka.TableRows(out, "CURRENT-OFFSET")) != 2 {
			t.Errorf("kafka-consumer-groups --describe does not show the group's 2 partitions with no active members:\n%s\n%s", out, errOut)
		}

		// Kafka's tool resets the Empty group to the earliest offsets; the committer's next
		// commit (within 2 s) puts its position back.
		reset := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--reset-offsets",
			"--group", group, "--topic", topic, "--to-earliest", "--execute")
		resetAt := time.Now()
		if rows := realkafka.TableRows(reset, "NEW-OFFSET"); len(rows) != 2 || rows[0]["NEW-OFFSET"] != "0" {
			t.Fatalf("kafka-consumer-groups --reset-offsets --to-earliest --execute printed:\n%s", reset)
		}
		realkafka.WaitUntil(t, 10*time.Second, "the committer overwrites the reset", func() (bool, string) {
			now := committed(t, s, group)
			return sum(now) > 0, "still at 0"
		})
		t.Logf("%s: the reset to earliest was overwritten %.1f s later", b.Name(), time.Since(resetAt).Seconds())
	})
}

// A committer every 30 s, the interval of Kafka Connect's and many Flink jobs' commits: its
// first commit comes 30 s after it was assigned its partitions.
func TestRealKafkaShapeCommitterSlow(t *testing.T) {
	t.Parallel()
	b := realkafka.Main(t)
	s := b.Seed(t)
	topic, group := realkafka.Name("committer30"), realkafka.Name("committer30-grp")
	s.CreateTopic(topic, 1, nil)
	c := b.Committer(t, group, topic, 30*time.Second, 5)
	assigned, _ := c.Last("assigned")
	first, _ := c.Last("commit")
	if gap := first.At().Sub(assigned.At()); gap < 29*time.Second || gap > 45*time.Second {
		t.Errorf("the first commit came %s after the assignment, want about 30 s", gap)
	}
	if got := committed(t, s, group); sum(got) != sum(first.Committed()) || sum(got) == 0 {
		t.Errorf("committed %v, the committer's commit %v (records were produced)", got, first.Committed())
	}
}

// A group committed once with Kafka's Admin client and never a member: Empty, no members,
// its commits do not move.
func TestRealKafkaShapeAdminCommitted(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("admin"), realkafka.Name("admin-grp")
		s.CreateTopic(topic, 2, nil)
		b.Produce(t, topic, 0, "", 10)
		want := map[model.TP]int64{{Topic: topic, Partition: 0}: 7, {Topic: topic, Partition: 1}: 0}
		ev := b.AdminCommit(t, group, want)
		if fmt.Sprint(ev.Committed()) != fmt.Sprint(want) {
			t.Fatalf("the admin commit reported %v, want %v", ev.Committed(), want)
		}
		d := describeGroup(t, s, group)
		if d.State != "Empty" || len(d.Members) != 0 || d.ProtocolType != "" {
			t.Errorf("group %s: state %q, %d members, protocol type %q; want Empty, 0, none", group, d.State, len(d.Members), d.ProtocolType)
		}
		time.Sleep(3 * time.Second)
		if got := committed(t, s, group); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("committed %v 3 s later, want %v", got, want)
		}
		out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", toolTimeout, "--describe", "--group", group)
		tool := map[model.TP]int64{}
		for _, r := range realkafka.TableRows(out, "PARTITION", "CURRENT-OFFSET") {
			p, _ := strconv.ParseInt(r["PARTITION"], 10, 32)
			o, _ := strconv.ParseInt(r["CURRENT-OFFSET"], 10, 64)
			tool[model.TP{Topic: r["TOPIC"], Partition: int32(p)}] = o
		}
		if fmt.Sprint(tool) != fmt.Sprint(want) {
			t.Errorf("kafka-consumer-groups --describe: %v, want %v:\n%s", tool, want, out)
		}
	})
}

func sum(m map[model.TP]int64) int64 {
	var n int64
	for _, o := range m {
		n += o
	}
	return n
}
