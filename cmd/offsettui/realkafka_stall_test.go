package main

// A broker that stalls one API, or every API, through the fault proxy in front
// of the real broker: describe and check finish within the documented deadline
// (docs/cli.md "Deadlines"), what could not be read is unknown with a timeout,
// no partial number is shown as whole, the stalled broker is asked once per
// snapshot, check never passes what it could not read, and a group is called
// not-found only when every broker's listing answered.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// stallTimeout is --timeout in these tests; the deadline of a snapshot is twice
// that, and the process also connects, so stallBound leaves three seconds of slack
// for a loaded machine (the requests that are answered must also be answered within
// --timeout: 1 s was too short on a loaded CI broker). Before the one-deadline rule,
// each stalled request cost three timeouts, and a snapshot several of them; the
// request counts of each test say the same more exactly.
const (
	stallTimeout = 2 * time.Second
	stallBound   = 2*stallTimeout + 3*time.Second
)

// timed runs f and fails the test if it took longer than stallBound.
func timed(t *testing.T, what string, f func()) {
	t.Helper()
	start := time.Now()
	f()
	if d := time.Since(start); d > stallBound {
		t.Errorf("%s took %v; the deadline allows %v (twice --timeout %v, plus connecting)", what, d, stallBound, stallTimeout)
	}
}

// TestRealKafkaOneStalledAPI: the broker answers everything but one API, which
// it never answers. For each such API: describe --group G finishes in time and
// shows what it could not read as unknown with a timeout (never 0 or ok, no
// whole total), or fails (exit 1) when nothing could be read; describe --group
// of a group that does not exist is not-found (exit 3) only when the stalled API
// was not needed to know it; check exits 2 whenever the stalled API was asked,
// never 0; and the broker gets the stalled API at most once per command.
func TestRealKafkaOneStalledAPI(t *testing.T) {
	w := newTrustWorld(t, "stall")
	cases := []struct {
		key          kmsg.Key
		describeExit int  // describe --group G
		existence    bool // the API is needed to tell that a group does not exist
	}{
		{kmsg.ListOffsets, exitOK, false},
		{kmsg.OffsetFetch, exitOK, true},
		{kmsg.DescribeConfigs, exitOK, false},
		{kmsg.DescribeGroups, exitOK, true},
		{kmsg.FindCoordinator, exitOK, true}, // a listed group needs none
		{kmsg.ListGroups, exitFailure, true}, // the only broker: nothing is listed
		{kmsg.Metadata, exitFailure, true},   // no connection
	}
	for _, c := range cases {
		t.Run(c.key.Name(), func(t *testing.T) {
			t.Parallel()
			p, id := proxied(t, w.addr)
			p.Add(faultproxy.Rule{Broker: id, Key: c.key, Action: faultproxy.StallBefore})
			conn := []string{"--bootstrap-server", p.Addrs()[0], "--timeout", stallTimeout.String()}
			askedOnce := func(what string) bool {
				t.Helper()
				n := p.Requests(id, c.key)
				if n > 1 {
					t.Errorf("%s: the broker got %d %s requests; a stalled broker is asked once per snapshot (%s)", what, n, c.key.Name(), p.Summary())
				}
				p.ResetCounts()
				return n > 0
			}

			var code int
			var snap model.Snapshot
			var stderr string
			timed(t, "describe", func() { code, snap, stderr = describeJSON(t, append(conn, "--group", w.group)...) })
			asked := askedOnce("describe")
			if code != c.describeExit {
				t.Fatalf("describe: exit %d, want %d\nstderr %s", code, c.describeExit, stderr)
			}
			if code == exitOK {
				describeShowsStall(t, snap, w.group, asked)
			} else if !strings.Contains(stderr, "--timeout") {
				t.Errorf("describe: stderr %q does not say the timeout passed", stderr)
			}

			nosuch := realkafka.Name("nosuch")
			timed(t, "describe of a group that does not exist", func() { code, snap, stderr = describeJSON(t, append(conn, "--group", nosuch)...) })
			asked = askedOnce("describe nosuch")
			notFound := code == exitNotFound || hasError(snap.Errors, model.KindNotFound, "", nosuch)
			if wantNotFound := !(asked && c.existence); notFound != wantNotFound {
				t.Errorf("describe --group %s with %s stalled (asked %v): exit %d, not-found %v; want not-found %v\nerrors %+v\nstderr %s",
					nosuch, c.key.Name(), asked, code, notFound, wantNotFound, snap.Errors, stderr)
			}
			noPartialAsWhole(t, snap)

			var out string
			timed(t, "check", func() { code, out, _ = ckRun(t, append(conn, "--group", w.group)...) })
			if asked = askedOnce("check"); asked && (code != 2 || !strings.HasPrefix(lastLine(out), "INCOMPLETE")) {
				t.Errorf("check with %s stalled: exit %d, verdict %q; want 2, INCOMPLETE", c.key.Name(), code, lastLine(out))
			}
			if !asked && code != exitOK {
				t.Errorf("check without needing %s: exit %d, verdict %q; want 0", c.key.Name(), code, lastLine(out))
			}
		})
	}
}

// describeShowsStall: group's JSON after a stall that was asked shows the group
// unknown, with a timeout error on the group, a partition or a topic, and no
// whole total; one that was not asked shows the group whole (lag 6 + 4).
func describeShowsStall(t *testing.T, snap model.Snapshot, group string, asked bool) {
	t.Helper()
	noPartialAsWhole(t, snap)
	i := slices.IndexFunc(snap.Groups, func(g model.Group) bool { return g.Group == group })
	if i < 0 {
		t.Fatalf("group %s missing from %+v", group, snap.Groups)
	}
	g := snap.Groups[i]
	if !asked {
		if text.Num(g.TotalLag) != "10" || g.WorstStatus != model.StatusOK {
			t.Errorf("nothing stalled was asked, yet totalLag %s, worst %s; want 10, ok", text.Num(g.TotalLag), g.WorstStatus)
		}
		return
	}
	timeout := g.Error != nil && g.Error.Kind == model.KindTimeout
	for _, p := range g.Partitions {
		timeout = timeout || p.Error != nil && p.Error.Kind == model.KindTimeout
	}
	for _, tp := range snap.Topics {
		timeout = timeout || tp.Error != nil && tp.Error.Kind == model.KindTimeout
	}
	for _, e := range snap.Errors {
		if e.Kind == model.KindTimeout && !strings.Contains(e.Message, "--timeout") {
			t.Errorf("timeout error %q does not say which wait passed (--timeout)", e.Error())
		}
	}
	if !timeout || g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
		t.Errorf("group %s: timeout error shown %v, worst %s, totalLag %s; want a timeout, unknown, null\n%+v",
			group, timeout, g.WorstStatus, text.Num(g.TotalLag), g)
	}
}

// TestRealKafkaEverySeedStalled: three seeds (proxies in front of the one
// broker) that accept connections and never answer: check exits 2 and describe
// exits 1 within about one --timeout, not one per seed.
func TestRealKafkaEverySeedStalled(t *testing.T) {
	t.Parallel()
	addr := realkafka.Addr(t)
	var seeds []string
	for range 3 {
		p, id := proxied(t, addr)
		p.Add(faultproxy.Rule{Broker: id, Key: faultproxy.AnyKey, Action: faultproxy.StallBefore})
		seeds = append(seeds, p.Addrs()[0])
	}
	const timeout = 2 * time.Second
	bound := timeout + 2*time.Second // the seeds are tried 300 ms apart; slack for a loaded machine
	args := []string{"--bootstrap-server", strings.Join(seeds, ","), "--timeout", timeout.String(), "--group", "g"}
	start := time.Now()
	code, out, _ := ckRun(t, args...)
	if d := time.Since(start); code != 2 || !strings.HasPrefix(lastLine(out), "INCOMPLETE") || d > bound {
		t.Errorf("check: exit %d after %v, verdict %q; want 2 within %v", code, d, lastLine(out), bound)
	}
	start = time.Now()
	var stdout, stderr bytes.Buffer
	code = describeMain(args, &stdout, &stderr)
	if d := time.Since(start); code != exitFailure || d > bound {
		t.Errorf("describe: exit %d after %v (%s); want 1 within %v", code, d, stderr.String(), bound)
	}
}

// TestDescribeNotFoundNeedsEveryListing: on a three-broker cluster, one broker
// whose ListGroups never answers may coordinate the group asked for, so a group
// that no other broker lists is not called not-found (exit 3); it is unknown,
// never ok, whichever broker stalls. With every listing answered it is.
func TestDescribeNotFoundNeedsEveryListing(t *testing.T) {
	t.Parallel()
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 3, nil); err != nil {
		t.Fatal(err)
	}
	p := faultproxy.New(t, k.ListenAddrs())
	conn := []string{"--bootstrap-server", strings.Join(p.Addrs(), ","), "--timeout", stallTimeout.String(), "--group", "nosuch"}
	code, snap, _ := describeJSON(t, conn...)
	if code != exitNotFound || !hasError(snap.Errors, model.KindNotFound, "GROUP_ID_NOT_FOUND", "nosuch") {
		t.Fatalf("every listing answered: exit %d, errors %+v; want 3, not-found", code, snap.Errors)
	}
	for _, id := range p.Brokers() {
		h := p.Add(faultproxy.Rule{Broker: id, Key: kmsg.ListGroups, Action: faultproxy.StallBefore})
		code, snap, stderr := describeJSON(t, conn...)
		h.Remove()
		if code != exitOK || len(snap.Groups) != 1 {
			t.Fatalf("broker %d's ListGroups stalled: exit %d, %d groups (%s); want 0 and the group", id, code, len(snap.Groups), stderr)
		}
		g := snap.Groups[0]
		if g.Error == nil || g.Error.IsGroupNotFound() || g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
			t.Errorf("broker %d's ListGroups stalled: error %v, worst %s, totalLag %s; want an error other than not-found, unknown, null",
				id, g.Error, g.WorstStatus, text.Num(g.TotalLag))
		}
	}
}

// TestRealKafkaStalledAPIOverSASL: the same through the SASL listener, as alice
// (SCRAM, ACLs enforced), with the group's OffsetFetch stalled: every new
// connection logs in through the proxy; describe shows the group unknown with a
// timeout in time, and check exits 2.
func TestRealKafkaStalledAPIOverSASL(t *testing.T) {
	t.Parallel()
	w := newTrustWorld(t, "stall-sasl")
	sasl := realkafka.SASLAddr(t)
	w.seed.Allow("User:alice", nil, []string{w.group}, kadm.OpDescribe, kadm.OpRead)
	w.seed.Allow("User:alice", []string{w.topic}, nil, kadm.OpDescribe, kadm.OpDescribeConfigs)
	p := faultproxy.New(t, []string{sasl}, kgo.SASL(scram.Auth{User: "admin", Pass: "admin-secret"}.AsSha512Mechanism()))
	id := p.Brokers()[0]
	p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetFetch, Action: faultproxy.StallBefore})
	conn := []string{"--bootstrap-server", p.Addrs()[0], "--command-config", realkafka.SASLProperties(t, "alice", "alice-secret"),
		"--timeout", stallTimeout.String(), "--group", w.group}
	var code int
	var snap model.Snapshot
	var stderr string
	timed(t, "describe", func() { code, snap, stderr = describeJSON(t, conn...) })
	if code != exitOK {
		t.Fatalf("describe: exit %d: %s", code, stderr)
	}
	describeShowsStall(t, snap, w.group, true)
	if n := p.Requests(id, kmsg.OffsetFetch); n != 1 {
		t.Errorf("%d OffsetFetch requests, want 1 (%s)", n, p.Summary())
	}
	if p.Requests(id, kmsg.SASLAuthenticate) < p.Connections(id) {
		t.Errorf("not every connection logged in: %s", p.Summary())
	}
	var out string
	timed(t, "check", func() { code, out, _ = ckRun(t, conn...) })
	if code != 2 || !strings.HasPrefix(lastLine(out), "INCOMPLETE") {
		t.Errorf("check: exit %d, verdict %q; want 2, INCOMPLETE", code, lastLine(out))
	}
}

// TestDescribeOneBrokerListOffsetsStalled: on a three-broker cluster, one
// broker's ListOffsets never answers. The partitions it leads are unknown with a
// timeout; the others are read; the group's total is null and its lower bound is
// exactly the lags that were read, shown "≥ N" in the table; check exits 2; the
// broker gets ListOffsets once per command, and each command ends in time.
func TestDescribeOneBrokerListOffsetsStalled(t *testing.T) {
	t.Parallel()
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 6, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	commits := map[model.TP]int64{}
	for p := range int32(6) {
		s.ProduceN("t", p, 10+int(p), func(int) time.Time { return time.Now() })
		commits[tpOf("t", p)] = int64(p) // lag 10 on every partition
	}
	s.Commit("g", commits)
	meta, err := s.Adm.Metadata(t.Context(), "t")
	if err != nil {
		t.Fatal(err)
	}
	hung := meta.Topics["t"].Partitions[0].Leader
	var readable int64
	for _, p := range meta.Topics["t"].Partitions {
		if p.Leader != hung {
			readable += 10
		}
	}
	p := faultproxy.New(t, k.ListenAddrs())
	p.Add(faultproxy.Rule{Broker: hung, Key: kmsg.ListOffsets, Action: faultproxy.StallBefore})
	conn := []string{"--bootstrap-server", strings.Join(p.Addrs(), ","), "--timeout", stallTimeout.String(), "--group", "g"}

	var code int
	var snap model.Snapshot
	timed(t, "describe", func() { code, snap, _ = describeJSON(t, conn...) })
	noPartialAsWhole(t, snap)
	if code != exitOK || len(snap.Groups) != 1 {
		t.Fatalf("describe: exit %d, %d groups", code, len(snap.Groups))
	}
	g := snap.Groups[0]
	for _, gp := range g.Partitions {
		led := meta.Topics["t"].Partitions[gp.Partition].Leader
		timedOut := gp.Error != nil && gp.Error.Kind == model.KindTimeout
		if (led == hung) != (gp.Status == model.StatusUnknown && timedOut) {
			t.Errorf("t-%d (leader %d, stalled %d): status %s, error %v", gp.Partition, led, hung, gp.Status, gp.Error)
		}
	}
	if g.TotalLag != nil || g.TotalLagAtLeast == nil || *g.TotalLagAtLeast != readable {
		t.Errorf("totalLag %s, at least %s; want null, %d", text.Num(g.TotalLag), text.Num(g.TotalLagAtLeast), readable)
	}
	if n := p.Requests(hung, kmsg.ListOffsets); n != 1 {
		t.Errorf("the stalled broker got %d ListOffsets in one describe, want 1 (%s)", n, p.Summary())
	}
	var out, errb bytes.Buffer
	timed(t, "describe table", func() { code = describeMain(conn, &out, &errb) })
	if want := fmt.Sprintf("lag ≥ %d", readable); code != exitOK || !strings.Contains(out.String(), want) {
		t.Errorf("table: exit %d, lacks %q:\n%s", code, want, out.String())
	}
	var ck string
	timed(t, "check", func() { code, ck, _ = ckRun(t, conn...) })
	ckExpect(t, code, ck, 2, "INCOMPLETE g:")
}
