package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The rules, on kfake and on the real broker. Each case commits an offset
// through the proxy under one rule and reads the group back directly from the
// cluster: that tells whether the request reached the broker, whatever answer
// the client got.
func TestRules(t *testing.T) { testRules(t, fakeUpstream(t)) }

func TestRealKafkaRules(t *testing.T) { testRules(t, realUpstream(t)) }

// TestRealKafkaRulesSASL: the rules on the real broker's SASL listener, where
// every connection logs in before its first request.
func TestRealKafkaRulesSASL(t *testing.T) {
	u := realUpstream(t)
	u.addrs = []string{realkafka.SASLAddr(t)}
	u.opts = []kgo.Opt{kgo.SASL(saslLogin("SCRAM-SHA-512", "admin", "admin-secret").mech)}
	testRules(t, u)
}

const (
	clientTimeout = 500 * time.Millisecond // the deadline of a commit that is never answered
	answerTimeout = 5 * time.Second        // the deadline of one that is answered or cut: a loaded broker is slow
	holdFor       = time.Second            // DelayRequest, DelayResponse
)

// ruleCase is one rule put in force on the group coordinator's OffsetCommit
// requests, and what a client that commits offset 1 through it must see.
type ruleCase struct {
	name        string
	rule        Rule
	wantTimeout bool // the client's 500ms deadline passes; otherwise the connection closes or it answers (within 5 s)
	wantAnswer  bool // the commit is answered
	wantLanded  bool // the commit is in the group afterwards
}

var ruleCases = []ruleCase{
	{name: "pass", rule: Rule{Action: Pass}, wantAnswer: true, wantLanded: true},
	{name: "stall-before", rule: Rule{Action: StallBefore}, wantTimeout: true},
	{name: "stall-after", rule: Rule{Action: StallAfter}, wantTimeout: true, wantLanded: true},
	{name: "cut-before", rule: Rule{Action: CutBefore}},
	{name: "cut-after", rule: Rule{Action: CutAfter}, wantLanded: true},
}

func testRules(t *testing.T, u upstream) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := New(t, u.addrs, u.opts...)
			group := realkafka.Name("rule-" + tc.name)
			coord := u.coordinator(t, group)
			r := tc.rule
			r.Broker, r.Key = coord, kmsg.OffsetCommit
			h := p.Add(r)
			cl, _ := client(t, p.Addrs(), u.opts...)
			warmUp(t, cl, coord)
			deadline := answerTimeout
			if tc.wantTimeout {
				deadline = clientTimeout
			}
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			err := commitErr(cl.Broker(int(coord)).Request(ctx, u.commitReq(group, 1)))
			cancel()
			took := time.Since(start)
			switch {
			case tc.wantAnswer && err != nil:
				t.Errorf("commit: %v; want an answer", err)
			case tc.wantTimeout && !errors.Is(err, context.DeadlineExceeded):
				t.Errorf("commit: %v after %v; want the client's %v deadline to pass", err, took, deadline)
			case !tc.wantAnswer && !tc.wantTimeout && (err == nil || errors.Is(err, context.DeadlineExceeded)):
				t.Errorf("commit: %v after %v; want the connection closed before the %v deadline", err, took, deadline)
			}
			if tc.wantLanded {
				// Forwarded before the fault: the broker takes it, maybe after the client gave up.
				realkafka.WaitUntil(t, 10*time.Second, "the commit lands", func() (bool, string) {
					got := u.committed(t, group)
					return got == 1, fmt.Sprintf("committed %d; want 1", got)
				})
			} else if got := u.committed(t, group); got != -1 {
				t.Errorf("committed offset read back directly: %d; want none (-1)", got)
			}
			if h.Fired() != 1 || p.Requests(coord, kmsg.OffsetCommit) != 1 || p.Requests(AnyBroker, kmsg.OffsetCommit) != 1 {
				t.Errorf("fired %d, commits counted %d (all brokers %d); want 1, 1, 1",
					h.Fired(), p.Requests(coord, kmsg.OffsetCommit), p.Requests(AnyBroker, kmsg.OffsetCommit))
			}
			// Others proceed: a new connection to the same broker is served, and
			// once the rule is removed a commit lands.
			h.Remove()
			other, _ := client(t, []string{p.Broker(coord)}, u.opts...)
			if err := commitErr(other.Broker(int(coord)).Request(ctxFor(t, 5*time.Second), u.commitReq(group, 2))); err != nil {
				t.Fatalf("commit on a new connection after Remove: %v", err)
			}
			if got := u.committed(t, group); got != 2 {
				t.Errorf("after Remove: committed %d; want 2", got)
			}
		})
	}
	t.Run("delay-request", func(t *testing.T) { t.Parallel(); testDelay(t, u, DelayRequest) })
	t.Run("delay-response", func(t *testing.T) { t.Parallel(); testDelay(t, u, DelayResponse) })
	t.Run("release", func(t *testing.T) { t.Parallel(); testRelease(t, u) })
	t.Run("times", func(t *testing.T) { t.Parallel(); testTimes(t, u) })
	t.Run("stall-broker", func(t *testing.T) { t.Parallel(); testStallBroker(t, u) })
	t.Run("close-releases", func(t *testing.T) { t.Parallel(); testCloseReleases(t, u) })
	t.Run("rewrite", func(t *testing.T) { t.Parallel(); testRewrite(t, u) })
}

// testRewrite: the commit lands, and its answer comes back as the rule rewrote it (an
// error the broker did not give); once the rule is removed the answer is the broker's.
func testRewrite(t *testing.T, u upstream) {
	p := New(t, u.addrs, u.opts...)
	group := realkafka.Name("rewrite")
	coord := u.coordinator(t, group)
	h := p.Add(Rule{Broker: AnyBroker, Key: kmsg.OffsetCommit, Action: Rewrite, Rewrite: func(r kmsg.Response) {
		for i := range r.(*kmsg.OffsetCommitResponse).Topics {
			for j := range r.(*kmsg.OffsetCommitResponse).Topics[i].Partitions {
				r.(*kmsg.OffsetCommitResponse).Topics[i].Partitions[j].ErrorCode = kerr.OffsetNotAvailable.Code
			}
		}
	}})
	cl, _ := client(t, p.Addrs(), u.opts...)
	if err := commitErr(cl.Broker(int(coord)).Request(ctxFor(t, answerTimeout), u.commitReq(group, 1))); !errors.Is(err, kerr.OffsetNotAvailable) {
		t.Errorf("commit under the rewrite: %v; want the rewritten OFFSET_NOT_AVAILABLE", err)
	}
	if got := u.committed(t, group); got != 1 {
		t.Errorf("committed offset read back directly: %d; want 1 (the request went through)", got)
	}
	h.Remove()
	if err := commitErr(cl.Broker(int(coord)).Request(ctxFor(t, answerTimeout), u.commitReq(group, 2))); err != nil {
		t.Errorf("commit after Remove: %v; want the broker's answer", err)
	}
}

// warmUp opens cl's connection to broker id (the one OffsetCommit shares with
// Metadata, SASL login included) with time to spare, so that the client's 500ms
// deadline bounds the commit alone, even on a loaded machine.
func warmUp(t *testing.T, cl *kgo.Client, id int32) {
	t.Helper()
	if _, err := cl.Broker(int(id)).Request(ctxFor(t, 10*time.Second), kmsg.NewPtrMetadataRequest()); err != nil {
		t.Fatalf("metadata from broker %d: %v", id, err)
	}
}

// testDelay: the commit is answered after the delay, not before; with
// DelayRequest it lands only after the delay, with DelayResponse before its
// answer comes back.
func testDelay(t *testing.T, u upstream, action Action) {
	p := New(t, u.addrs, u.opts...)
	group := realkafka.Name("delay")
	coord := u.coordinator(t, group)
	p.Add(Rule{Broker: AnyBroker, Key: kmsg.OffsetCommit, Action: action, Delay: holdFor})
	cl, _ := client(t, p.Addrs(), u.opts...)
	start := time.Now()
	answered := make(chan error, 1)
	go func() {
		answered <- commitErr(cl.Broker(int(coord)).Request(ctxFor(t, 10*time.Second), u.commitReq(group, 1)))
	}()
	var err error
	answeredFirst := false
	for {
		landed := u.committed(t, group) == 1
		readDone := time.Since(start)
		if landed && action == DelayRequest && readDone < holdFor {
			t.Fatalf("the commit landed within %v of being sent; DelayRequest holds it %v", readDone, holdFor)
		}
		if landed {
			select {
			case err = <-answered:
				answeredFirst = true
			default:
				err = <-answered
			}
			break
		}
		if readDone > 5*time.Second {
			t.Fatal("the commit never landed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if took := time.Since(start); took < holdFor {
		t.Errorf("answered after %v; want at least %v", took, holdFor)
	}
	if action == DelayResponse && answeredFirst {
		t.Error("with DelayResponse the commit should land before its answer comes back")
	}
}

// testTimes: a rule for one firing cuts the first commit only.
func testTimes(t *testing.T, u upstream) {
	p := New(t, u.addrs, u.opts...)
	group := realkafka.Name("times")
	coord := u.coordinator(t, group)
	h := p.Add(Rule{Broker: AnyBroker, Key: kmsg.OffsetCommit, Action: CutBefore, Times: 1})
	for i, wantErr := range []bool{true, false, false} {
		cl, _ := client(t, p.Addrs(), u.opts...)
		err := commitErr(cl.Broker(int(coord)).Request(ctxFor(t, 5*time.Second), u.commitReq(group, int64(i+1))))
		if (err != nil) != wantErr {
			t.Errorf("commit %d: %v; want error %v", i+1, err, wantErr)
		}
	}
	if got := u.committed(t, group); got != 3 {
		t.Errorf("committed %d; want 3", got)
	}
	if h.Fired() != 1 || p.Requests(AnyBroker, kmsg.OffsetCommit) != 3 {
		t.Errorf("fired %d, commits counted %d; want 1, 3", h.Fired(), p.Requests(AnyBroker, kmsg.OffsetCommit))
	}
}

// testStallBroker: a whole-broker stall answers nothing, not even ApiVersions on
// a new connection, while the other brokers answer.
func testStallBroker(t *testing.T, u upstream) {
	p := New(t, u.addrs, u.opts...)
	hung := p.Brokers()[0]
	h := p.Add(Rule{Broker: hung, Key: AnyKey, Action: StallBefore})
	cl, _ := client(t, []string{p.Broker(hung)}, u.opts...)
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	if _, err := cl.Broker(int(hung)).Request(ctx, kmsg.NewPtrMetadataRequest()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("metadata from the hung broker: %v; want the client's deadline to pass", err)
	}
	if p.Connections(hung) < 1 || p.Requests(hung, AnyKey) < 1 || h.Fired() < 1 {
		t.Errorf("want a connection accepted and its first request held: %s", p.Summary())
	}
	for _, id := range p.Brokers()[1:] {
		other, _ := client(t, []string{p.Broker(id)}, u.opts...)
		if _, err := other.Broker(int(id)).Request(ctxFor(t, 5*time.Second), kmsg.NewPtrMetadataRequest()); err != nil {
			t.Errorf("metadata from broker %d: %v", id, err)
		}
	}
	if n := p.Requests(hung, AnyKey); n != h.Fired() {
		t.Errorf("the hung broker counted %d requests, the rule held %d: a request got through", n, h.Fired())
	}
}

// testCloseReleases: Close ends a stalled connection, so the client waiting on
// it fails at once instead of at its deadline.
func testCloseReleases(t *testing.T, u upstream) {
	p := New(t, u.addrs, u.opts...)
	group := realkafka.Name("close")
	coord := u.coordinator(t, group)
	p.Add(Rule{Broker: coord, Key: kmsg.OffsetCommit, Action: StallBefore})
	cl, _ := client(t, p.Addrs(), u.opts...)
	done := make(chan error, 1)
	go func() {
		done <- commitErr(cl.Broker(int(coord)).Request(ctxFor(t, 10*time.Second), u.commitReq(group, 1)))
	}()
	for p.Requests(coord, kmsg.OffsetCommit) < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || time.Since(start) > time.Second {
			t.Errorf("after Close: %v after %v; want a prompt error", err, time.Since(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("still waiting 5s after Close: %s", p.Summary())
	}
}

// testRelease: a DelayRequest without a duration holds the commit until the
// test closes Release, then forwards it at once.
func testRelease(t *testing.T, u upstream) {
	p := New(t, u.addrs, u.opts...)
	group := realkafka.Name("release")
	coord := u.coordinator(t, group)
	release := make(chan struct{})
	p.Add(Rule{Broker: AnyBroker, Key: kmsg.OffsetCommit, Action: DelayRequest, Release: release})
	cl, _ := client(t, p.Addrs(), u.opts...)
	answered := make(chan error, 1)
	go func() {
		answered <- commitErr(cl.Broker(int(coord)).Request(ctxFor(t, 20*time.Second), u.commitReq(group, 1)))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for p.Requests(coord, kmsg.OffsetCommit) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the commit never reached the proxy")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(holdFor)
	if got := u.committed(t, group); got != -1 {
		t.Fatalf("committed %d while the commit is held; want none", got)
	}
	released := time.Now()
	close(release)
	if err := <-answered; err != nil {
		t.Fatalf("commit after release: %v", err)
	}
	if took := time.Since(released); took > 5*time.Second {
		t.Errorf("answered %v after the release", took)
	}
	if got := u.committed(t, group); got != 1 {
		t.Errorf("committed %d after the release; want 1", got)
	}
}
