package main

// A consumer that joins the group while `offsettui reset --execute` is between
// its last re-read and its commit, on the real broker: the fault proxy holds the
// commit until the consumer is a member, then lets it through. Kafka refuses an
// admin commit on a group with members, partition by partition
// (UNKNOWN_MEMBER_ID): the reset is refused with nothing written (exit 3), no
// undo, no backup left (docs/resets.md "Guards, and what is and is not atomic").

import (
	"context"
	"io"
	"maps"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaResetRefusedWhenMemberJoinsBeforeCommit: a franz-go consumer
// (classic protocol) that joins and commits its own position, and Kafka's
// ConsoleConsumer (consumer protocol, KIP-848), each joining while the commit is
// on its way: resetMain prints a refused plan, exit 3, every partition rejected
// with UNKNOWN_MEMBER_ID, no backup and no undo; the audit log holds the intent
// and the refusal; the group's commits are the consumer's, not the reset's.
func TestRealKafkaResetRefusedWhenMemberJoinsBeforeCommit(t *testing.T) {
	w := newTrustWorld(t, "race")
	t.Run("classic", func(t *testing.T) {
		t.Parallel()
		group, seed := w.newGroup(t, "race-classic")
		raceReset(t, w, group, func() { joinAndCommit(t, w.addr, seed.Adm, group, w.topic, 7) })
		want := map[model.TP]int64{tpOf(w.topic, 0): 7, tpOf(w.topic, 1): 7}
		if got := seed.Committed(group); !maps.Equal(got, want) {
			t.Errorf("commits %v, want the consumer's %v", got, want)
		}
	})
	t.Run("consumer-protocol", func(t *testing.T) {
		t.Parallel()
		group, seed := w.newGroup(t, "race-848")
		// The JVM starts now, held at the door, so that it joins at once
		// when the commit is on its way.
		g := newGate(t, w.addr)
		realkafka.ConsoleConsumer(t, g.addr(), group, realkafka.Name("race-console"), w.topic)
		select {
		case <-g.arrived:
		case <-time.After(60 * time.Second):
			t.Fatal("the ConsoleConsumer never connected")
		}
		raceReset(t, w, group, func() {
			g.openDoor()
			realkafka.WaitUntil(t, 60*time.Second, "the ConsoleConsumer is a member", func() (bool, string) {
				d, err := seed.Adm.DescribeConsumerGroups(realkafka.Ctx(t, 10*time.Second), group)
				if err != nil {
					return false, err.Error()
				}
				return len(d[group].Members) == 1, d[group].State
			})
		})
		if got := seed.Committed(group); !maps.Equal(got, w.want) {
			t.Errorf("commits %v, want the ones before the reset %v", got, w.want)
		}
	})
}

// raceReset runs reset --execute on group through a proxy that holds the
// commit until join has made a member of the group, and checks the refusal.
func raceReset(t *testing.T, w trustWorld, group string, join func()) {
	t.Helper()
	p, id := proxied(t, w.addr)
	release := make(chan struct{})
	p.Add(faultproxy.Rule{Broker: id, Key: kmsg.OffsetCommit, Action: faultproxy.DelayRequest, Release: release})
	dir := t.TempDir()
	var (
		code int
		r    resetResult
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		// --timeout outlasts the hold: the commit must get the broker's answer.
		code, r, _ = runReset(t, "--bootstrap-server", p.Addrs()[0], "--timeout", "90s", "--backup-dir", dir,
			"--group", group, "--to-offset", "1", "--all-topics", "--execute")
	}()
	letGo := sync.OnceFunc(func() { close(release) })
	defer func() { <-done }()
	defer letGo() // on a failure below, so that the reset ends
	realkafka.WaitUntil(t, 60*time.Second, "the commit reached the proxy", func() (bool, string) {
		return p.Requests(id, kmsg.OffsetCommit) > 0, p.Summary()
	})
	join()
	letGo()
	<-done
	wantRefused(t, code, r, dir, "UNKNOWN_MEMBER_ID")
}

// joinAndCommit starts a classic-protocol member of group on topic (franz-go),
// waits until the group is Stable with it, and commits at on both partitions as
// that member. It leaves the group when the test ends.
func joinAndCommit(t *testing.T, addr string, adm *kadm.Client, group, topic string, at int64) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(), kgo.ClientID("late-joiner"), kgo.SessionTimeout(10*time.Second))
	if err != nil {
		t.Error(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(func() { stop(); <-done; cl.Close() })
	realkafka.WaitUntil(t, 30*time.Second, "the late joiner is a Stable member", func() (bool, string) {
		d, err := adm.DescribeGroups(realkafka.Ctx(t, 10*time.Second), group)
		if err != nil {
			return false, err.Error()
		}
		return d[group].State == "Stable" && len(d[group].Members) == 1, d[group].State
	})
	offs := map[string]map[int32]kgo.EpochOffset{topic: {0: {Epoch: -1, Offset: at}, 1: {Epoch: -1, Offset: at}}}
	cl.CommitOffsetsSync(realkafka.Ctx(t, 10*time.Second), offs, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, _ *kmsg.OffsetCommitResponse, cerr error) {
		err = cerr
	})
	if err != nil {
		t.Errorf("member commit: %v", err)
	}
}

// gate is a TCP door in front of a broker: it accepts connections at once and
// joins them to the broker only once opened. A client bootstrapped on it is
// started (a JVM up, its first connection made) but cannot reach the cluster
// until the test lets it; the broker's metadata then sends it to the broker
// itself.
type gate struct {
	ln       net.Listener
	upstream string
	open     chan struct{}
	arrived  chan struct{} // closed at the first connection
	once     sync.Once
	openOnce sync.Once
}

func newGate(t *testing.T, upstream string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln, upstream: upstream, open: make(chan struct{}), arrived: make(chan struct{})}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		conns  []net.Conn
		closed bool
	)
	// track keeps c to close when the test ends (at once if it has ended).
	track := func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			_ = c.Close()
			return
		}
		conns = append(conns, c)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			track(c)
			g.once.Do(func() { close(g.arrived) })
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-g.open
				up, err := net.Dial("tcp", g.upstream)
				if err != nil {
					_ = c.Close()
					return
				}
				track(up)
				go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
				_, _ = io.Copy(c, up)
				_ = c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		closed = true
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		g.openDoor()
		wg.Wait()
	})
	return g
}

func (g *gate) addr() string { return g.ln.Addr().String() }

func (g *gate) openDoor() { g.openOnce.Do(func() { close(g.open) }) }
