package main

// A failure costs only what it touches: through the fault proxy in front of the real broker,
// every connection that sends one API is cut as that API's request arrives. The snapshot
// shows unknown only the groups that API serves; the broker, which answers everything
// else, stays in the snapshot (docs/cli.md "Deadlines").

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// cutWorld is one group of each type on the real broker: classic (commits only), consumer
// (a live KIP-848 member), share (start offsets, no member) and streams (a running app).
type cutWorld struct {
	addr                              string
	classic, consumer, share, streams string
}

func newCutWorld(t *testing.T) cutWorld {
	t.Helper()
	addr := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, addr)
	realkafka.NeedStreamsGroups(t, addr)
	if !realkafka.AtLeast(4, 2) {
		t.Skipf("Kafka %s cannot give a share group start offsets without a member (AlterShareGroupOffsets does nothing before 4.2): skipped", realkafka.Version())
	}
	s := realkafka.NewSeed(t, addr)
	base := realkafka.Name("cut")
	in, out := base+"-in", base+"-out"
	s.CreateTopic(in, 2, nil)
	s.CreateTopic(out, 2, nil)
	now := func(int) time.Time { return time.Now() }
	s.ProduceN(in, 0, 6, now)
	s.ProduceN(in, 1, 4, now)
	w := cutWorld{addr: addr, classic: base + "-classic", consumer: base + "-consumer", share: base + "-share", streams: base + "-streams"}
	s.Commit(w.classic, map[model.TP]int64{tpOf(in, 0): 3, tpOf(in, 1): 2})
	s.ShareStartOffsets(w.share, map[model.TP]int64{tpOf(in, 0): 1, tpOf(in, 1): 1})
	realkafka.ConsoleConsumer(t, addr, w.consumer, "cut-consumer", in)
	realkafka.StreamsApp(t, addr, w.streams, in, out)
	realkafka.WaitUntil(t, 120*time.Second, "the four groups readable, the live ones with members", func() (bool, string) {
		_, snap, stderr := describeJSON(t, w.args(addr)...)
		bad := w.unknown(snap)
		for _, g := range snap.Groups {
			if (g.Group == w.consumer || g.Group == w.streams) && len(g.Members) == 0 {
				bad = append(bad, g.Group+" without members")
			}
		}
		return len(bad) == 0 && len(snap.Groups) == 4, fmt.Sprintf("%v %s", bad, stderr)
	})
	return w
}

func (w cutWorld) args(addr string) []string {
	return []string{"--bootstrap-server", addr, "--timeout", "10s",
		"--group", w.classic, "--group", w.consumer, "--group", w.share, "--group", w.streams}
}

// unknown lists the groups of a snapshot that are unknown or carry an error, sorted.
func (w cutWorld) unknown(s model.Snapshot) []string {
	var out []string
	for _, g := range s.Groups {
		if g.Error != nil || g.WorstStatus == model.StatusUnknown {
			out = append(out, g.Group)
		}
	}
	slices.Sort(out)
	return out
}

// TestRealKafkaOneDroppedConnection: for each API, every connection is cut when a request
// of that API arrives (sent again on a fresh connection, cut again). Only the groups that
// API serves are unknown, with the error on them; every other group is read whole, no
// broker is dropped, and the snapshot takes no --timeout.
func TestRealKafkaOneDroppedConnection(t *testing.T) {
	w := newCutWorld(t)
	p, id := proxied(t, w.addr)
	for _, c := range []struct {
		key    kmsg.Key
		serves []string
	}{
		{kmsg.ShareGroupDescribe, []string{w.share}},
		{kmsg.DescribeShareGroupOffsets, []string{w.share}},
		{kmsg.StreamsGroupDescribe, []string{w.streams}},
		{kmsg.ConsumerGroupDescribe, []string{w.consumer}},
		{kmsg.DescribeGroups, []string{w.classic}},
		{kmsg.OffsetFetch, []string{w.classic, w.consumer, w.streams}},
	} {
		t.Run(c.key.Name(), func(t *testing.T) {
			h := p.Add(faultproxy.Rule{Broker: id, Key: c.key, Action: faultproxy.CutBefore})
			defer h.Remove()
			start := time.Now()
			code, snap, stderr := describeJSON(t, w.args(p.Addrs()[0])...)
			took := time.Since(start)
			if h.Fired() == 0 {
				t.Fatalf("no %s request was cut", c.key.Name())
			}
			want := slices.Sorted(slices.Values(c.serves))
			got := w.unknown(snap)
			t.Logf("%s cut %d times: unknown %v in %v", c.key.Name(), h.Fired(), got, took.Round(time.Millisecond))
			if code != exitOK || !slices.Equal(got, want) || len(snap.Groups) != 4 {
				t.Errorf("exit %d, %d groups, unknown %v; want exit 0, the four groups, unknown exactly %v\nerrors %+v\nstderr %s",
					code, len(snap.Groups), got, want, snap.Errors, stderr)
			}
			for _, e := range snap.Errors {
				if e.Group == nil || !slices.Contains(want, *e.Group) || strings.Contains(e.Message, "moments ago") {
					t.Errorf("error %q: want errors only on %v, and no broker dropped", e.Error(), want)
				}
			}
			if took >= 10*time.Second {
				t.Errorf("the snapshot took %v, its --timeout 10s; a cut connection costs no --timeout", took)
			}
		})
	}
}
