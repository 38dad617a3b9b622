package realkafka

// Group shapes built with Kafka's own Java clients (test/kafka/Shapes.java), each returning
// the truth known by construction. Topics are created (and deleted at test end) here; the
// JVMs stop at test end.

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Committer starts a standalone committer on group: Kafka's consumer with assign() on every
// partition of topic, poll, and commitSync(position) every interval, never a member of the
// group (the Flink/Spark/Kafka Connect pattern). With perSec > 0 the same JVM also produces
// perSec records a second into topic, so the commits move. It returns once the first
// commit has landed; the Shape's "commit" events are every commit with its time.
func (b Broker) Committer(t testing.TB, group, topic string, interval time.Duration, perSec int) *Shape {
	t.Helper()
	s := b.StartShape(t, "committer", "--topic", topic, "--group", group,
		"--interval-ms", ms(interval), "--produce-per-sec", strconv.Itoa(perSec))
	s.Wait(t, "commit", 1, interval+60*time.Second)
	return s
}

// AdminCommit commits offs for group with Kafka's Admin.alterConsumerGroupOffsets (a group
// that never had a member, or an Empty one) and returns the commit event.
func (b Broker) AdminCommit(t testing.TB, group string, offs map[model.TP]int64) Event {
	t.Helper()
	spec := ""
	for tp, o := range offs {
		if spec != "" {
			spec += ","
		}
		spec += fmt.Sprintf("%s:%d=%d", tp.Topic, tp.Partition, o)
	}
	return only(t, b.RunShape(t, "admin-commit", "--group", group, "--offsets", spec), "commit")
}

// Produce writes records with Kafka's producer (acks=all): spec is "k=v,k2=v2,k3" (a key
// with no '=' is a tombstone), or count records "r0".."r<count-1>" when spec is "". It
// returns the "produced" event (first and last offset written).
func (b Broker) Produce(t testing.TB, topic string, partition int32, spec string, count int) Event {
	t.Helper()
	args := []string{"--topic", topic, "--partition", strconv.Itoa(int(partition))}
	if spec != "" {
		args = append(args, "--spec", spec)
	}
	if count > 0 {
		args = append(args, "--count", strconv.Itoa(count))
	}
	return only(t, b.RunShape(t, "produce", args...), "produced")
}

// Consume is a group member (classic or consumer protocol, read_uncommitted or
// read_committed) that reads up to max records (0: all there are), commits (style
// "position" or "last-plus-one"), stays in the group for stay without committing again, and
// leaves. It returns the commit and the leave events.
func (b Broker) Consume(t testing.TB, c ConsumeSpec) (commit, left Event) {
	t.Helper()
	evs := b.RunShape(t, "consume", c.args()...)
	return only(t, evs, "commit"), only(t, evs, "left")
}

// StartConsume is Consume in the background: the Shape's "commit" event comes once it has
// committed, "left" once it has left the group (after c.Stay, or when stopped with
// c.StaySubscribed).
func (b Broker) StartConsume(t testing.TB, c ConsumeSpec) *Shape {
	t.Helper()
	return b.StartShape(t, "consume", c.args()...)
}

// Member is a classic member that commits as c says and then stays in the group (Stable)
// until the test ends, without committing again: on the timers broker its commits never
// expire (a Stable group's subscribed topics are kept). It returns the commit event.
func (b Broker) Member(t testing.TB, c ConsumeSpec) Event {
	t.Helper()
	c.StaySubscribed = true
	return b.StartConsume(t, c).Wait(t, "commit", 1, 90*time.Second)
}

// ConsumeSpec says what a Consume member does.
type ConsumeSpec struct {
	Group, Topic   string
	Protocol       string        // "classic" (default) or "consumer" (KIP-848)
	ReadCommitted  bool          // isolation.level=read_committed
	Max            int           // records to read (0: all there are, up to the end offsets when assigned)
	ReadNothing    bool          // read nothing and commit each partition's first offset
	Style          string        // "position" (default) or "last-plus-one"
	Stay           time.Duration // in the group after the commit, then leave
	StaySubscribed bool          // stay until stopped
}

func (c ConsumeSpec) args() []string {
	a := []string{"--topic", c.Topic, "--group", c.Group, "--protocol", def(c.Protocol, "classic"),
		"--commit", def(c.Style, "position"), "--stay-ms", ms(c.Stay)}
	if c.ReadCommitted {
		a = append(a, "--isolation", "read_committed")
	}
	switch {
	case c.ReadNothing:
		a = append(a, "--max-records", "0")
	case c.Max > 0:
		a = append(a, "--max-records", strconv.Itoa(c.Max))
	}
	if c.StaySubscribed {
		a = append(a, "--stay-subscribed")
	}
	return a
}

// StaleTopicShape is a Stable classic group whose one member subscribes to Active only and
// still holds an old commit on Stale, below Stale's log start.
type StaleTopicShape struct {
	Group, Active, Stale string
	StaleCommit          Event // the commit on Stale (partition 0), made by the member
	StaleCommitted       int64 // 20
	StaleLogStart        int64 // 80: records 0..79 of Stale were deleted after the commit
	StaleHigh            int64 // 100
	Member               *Shape
}

// StaleTopic builds a StaleTopicShape: Stale gets 100 records and Active 10; a classic member
// subscribes to Stale, commits 20, re-subscribes to Active only (the group rebalances and is
// Stable with Active's partition, which it commits every second), and Stale's records below
// 80 are deleted. On the timers broker the commit on Stale expires a minute after it was
// made while the group stays Stable (KIP-496).
func (b Broker) StaleTopic(t testing.TB) StaleTopicShape {
	t.Helper()
	s := b.Seed(t)
	sh := StaleTopicShape{Group: Name("stale-grp"), Active: Name("stale-active"), Stale: Name("stale-old"),
		StaleCommitted: 20, StaleLogStart: 80, StaleHigh: 100}
	s.CreateTopic(sh.Active, 1, nil)
	s.CreateTopic(sh.Stale, 1, nil)
	b.Produce(t, sh.Stale, 0, "", int(sh.StaleHigh))
	b.Produce(t, sh.Active, 0, "", 10)
	sh.Member = b.StartShape(t, "stale", "--group", sh.Group, "--stale-topic", sh.Stale,
		"--stale-offset", strconv.FormatInt(sh.StaleCommitted, 10), "--active-topic", sh.Active)
	sh.StaleCommit = sh.Member.Wait(t, "commit", 1, 90*time.Second)
	sh.Member.Wait(t, "subscribed", 1, 90*time.Second)
	sh.Member.Wait(t, "commit", 2, 30*time.Second) // the first on Active
	if err := s.DeleteRecords(sh.Stale, 0, sh.StaleLogStart); err != nil {
		t.Fatalf("delete records of %s below %d: %v", sh.Stale, sh.StaleLogStart, err)
	}
	return sh
}

func only(t testing.TB, evs []Event, kind string) Event {
	t.Helper()
	var found []Event
	for _, e := range evs {
		if e.Event == kind {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("Shapes printed %d %q events, want 1: %+v", len(found), kind, evs)
	}
	return found[0]
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

func def(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
