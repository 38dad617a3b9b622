package kafka_test

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealDeletedGroupReadsAsGone, on Kafka 4.4.0 and 4.0.0, where a deleted group is at once left
// out of ListGroups, its DescribeGroups answers state Dead (with GROUP_ID_NOT_FOUND from v6
// on; with no error at v5, which offsettui sends) and its OffsetFetch answers no commits and
// no error:
//   - a group this client deleted is left out of its next snapshot (it stayed "ERROR
//     broker" for 10 s and more, counted with the problems);
//   - a group deleted by another client between ListGroups and the describe reads as gone
//     (no problem), not as an error;
//   - a group another client deleted since the previous snapshot reads as gone (Dead) until
//     its coordinator has said so for 10 s.
func TestRealDeletedGroupReadsAsGone(t *testing.T) {
	realkafka.EachVersion(t, deletedGroupReadsAsGone)
}

func deletedGroupReadsAsGone(t *testing.T, b realkafka.Broker) {
	seed := b.Seed(t)
	topic := realkafka.Name("gone-t")
	seed.CreateTopic(topic, 1, nil)
	own, racing, other := realkafka.Name("gone-own"), realkafka.Name("gone-racing"), realkafka.Name("gone-other")
	tp := model.TP{Topic: topic, Partition: 0}
	for _, g := range []string{own, racing, other} {
		seed.Commit(g, map[model.TP]int64{tp: 0})
	}
	p := faultproxy.New(t, strings.Split(b.Addr, ","))
	c := newClient(t, p.Addrs(), nil)
	q := model.Query{} // every group: a gone group has no rows, and --topic would leave it out
	first := realSnapshot(t, c, q)
	for _, g := range []string{own, racing, other} {
		if !hasGroup(first, g) {
			t.Fatalf("group %s is not in the first snapshot", g)
		}
	}

	if rejected, err := c.DeleteGroup(realkafka.Ctx(t, 30*time.Second), own, []model.TP{tp}); err != nil || len(rejected) > 0 {
		t.Fatalf("delete %s: %v %v", own, rejected, err)
	}
	if s := realSnapshot(t, c, q); hasGroup(s, own) {
		t.Errorf("%s, deleted by this client, is still in its next snapshot: %+v", own, findGroup(t, s, own))
	}

	// ListGroups lists racing; every describe and offset fetch is held until another client
	// has deleted it.
	release := make(chan struct{})
	held := p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: kmsg.DescribeGroups, Action: faultproxy.DelayRequest, Release: release})
	fetch := p.Add(faultproxy.Rule{Broker: faultproxy.AnyBroker, Key: kmsg.OffsetFetch, Action: faultproxy.DelayRequest, Release: release})
	done := make(chan model.Snapshot, 1)
	go func() {
		s, err := c.Snapshot(realkafka.Ctx(t, 30*time.Second), q)
		if err != nil {
			t.Errorf("snapshot: %v", err)
		}
		done <- s
	}()
	// Either comes after ListGroups has answered; on one connection the first held holds the
	// other behind it.
	realkafka.WaitUntil(t, 10*time.Second, "the snapshot's first describe or offset fetch held", func() (bool, string) {
		return held.Fired()+fetch.Fired() > 0, "no DescribeGroups nor OffsetFetch yet"
	})
	if r, err := seed.Adm.DeleteGroup(realkafka.Ctx(t, 10*time.Second), racing); err != nil || r.Err != nil {
		t.Fatal(err, r.Err)
	}
	close(release)
	raced := <-done
	held.Remove()
	fetch.Remove()
	if g := findGroup(t, raced, racing); !g.Gone() || g.HasProblem() {
		t.Errorf("%s, deleted between ListGroups and its describe: error %v, gone %v, problem %v; want gone, no problem", racing, g.Error, g.Gone(), g.HasProblem())
	}

	if _, err := seed.Adm.DeleteGroup(realkafka.Ctx(t, 10*time.Second), other); err != nil {
		t.Fatal(err)
	}
	s := realSnapshot(t, c, q)
	if g := findGroup(t, s, other); !g.Gone() || g.State != "Dead" || g.HasProblem() || g.Error.Code == nil || *g.Error.Code != "GROUP_ID_NOT_FOUND" {
		t.Errorf("%s, deleted by another client since the previous snapshot: state %q, error %v, problem %v; want gone (Dead, GROUP_ID_NOT_FOUND), no problem",
			other, g.State, g.Error, g.HasProblem())
	}
}
