package faultproxy

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// upstream is a cluster the proxy stands in front of, with a direct (never
// proxied) seeding client that reads the truth back.
type upstream struct {
	addrs  []string
	opts   []kgo.Opt // client options (SASL) for the proxy's and the tests' clients
	direct *kafkatest.Seed
	topic  string // one partition
	id     [16]byte
}

// fakeUpstream is a 3-broker kfake cluster with a one-partition topic.
func fakeUpstream(t *testing.T) upstream {
	t.Helper()
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	return withTopicID(t, upstream{addrs: k.ListenAddrs(), direct: kafkatest.NewSeed(t, k.ListenAddrs()), topic: "t"})
}

// realUpstream is the real broker (skipped without one) with a fresh topic.
func realUpstream(t *testing.T) upstream {
	t.Helper()
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("proxy")
	s.CreateTopic(topic, 1, nil)
	return withTopicID(t, upstream{addrs: []string{addr}, direct: s.Seed, topic: topic})
}

// withTopicID reads the topic's id (OffsetCommit v10 names topics by id). A
// topic just created can be unknown for a moment to the broker's metadata.
func withTopicID(t *testing.T, u upstream) upstream {
	t.Helper()
	realkafka.WaitUntil(t, 10*time.Second, "the topic id of "+u.topic, func() (bool, string) {
		topics, err := u.direct.Adm.ListTopics(ctxFor(t, 10*time.Second), u.topic)
		if err == nil {
			err = topics.Error()
		}
		if err != nil {
			return false, err.Error()
		}
		u.id = topics[u.topic].ID
		return true, ""
	})
	return u
}

// client is a franz-go client bootstrapped on addrs that records the address of
// every connection it opens; it is closed when the test ends.
func client(t *testing.T, addrs []string, opts ...kgo.Opt) (*kgo.Client, *dialLog) {
	t.Helper()
	log := &dialLog{}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.WithHooks(log),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl, log
}

// dialLog records the remote address of every connection a client opens.
type dialLog struct {
	mu    sync.Mutex
	addrs []string
}

func (d *dialLog) OnBrokerConnect(_ kgo.BrokerMetadata, _ time.Duration, c net.Conn, err error) {
	if err == nil {
		d.mu.Lock()
		d.addrs = append(d.addrs, c.RemoteAddr().String())
		d.mu.Unlock()
	}
}

// outside returns the connections that went elsewhere than to the proxy.
func (d *dialLog) outside(p *Proxy) (out []string, total int) {
	p.mu.Lock()
	var listeners []string
	for _, l := range p.listeners {
		listeners = append(listeners, l.ln.Addr().String())
	}
	p.mu.Unlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range d.addrs {
		if !slices.Contains(listeners, a) {
			out = append(out, a)
		}
	}
	return out, len(d.addrs)
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// coordinator is the id of group's coordinator, asked directly.
func (u upstream) coordinator(t *testing.T, group string) int32 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, ok := u.direct.Adm.FindGroupCoordinators(ctxFor(t, 10*time.Second), group)[group]
		if ok && c.Err == nil {
			return c.NodeID
		}
		// A fresh broker creates its offsets topic on the first lookup.
		if !ok || !kerr.IsRetriable(c.Err) || time.Now().After(deadline) {
			t.Fatalf("coordinator of %s: %+v", group, c)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// committed is group's committed offset on the topic's partition 0, read
// directly (-1: none).
func (u upstream) committed(t *testing.T, group string) int64 {
	t.Helper()
	resp, err := u.direct.Adm.FetchOffsets(ctxFor(t, 10*time.Second), group)
	if errors.Is(err, kerr.GroupIDNotFound) { // kfake, for a group without commits
		return -1
	}
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("read back the offsets of %s: %v", group, err)
	}
	if o, ok := resp.Lookup(u.topic, 0); ok && o.Err == nil {
		return o.At
	}
	return -1
}

// commitReq is an admin offset commit (no member) of offset on the topic's
// partition 0.
func (u upstream) commitReq(group string, offset int64) *kmsg.OffsetCommitRequest {
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group = group
	req.Generation = -1
	t := kmsg.NewOffsetCommitRequestTopic()
	t.Topic = u.topic
	t.TopicID = u.id
	p := kmsg.NewOffsetCommitRequestTopicPartition()
	p.Offset = offset
	p.LeaderEpoch = -1
	t.Partitions = append(t.Partitions, p)
	req.Topics = append(req.Topics, t)
	return req
}

// commitErr is the error of a commit request's answer, or of its one partition.
func commitErr(resp kmsg.Response, err error) error {
	if err != nil {
		return err
	}
	r := resp.(*kmsg.OffsetCommitResponse)
	if len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 {
		return errors.New("commit answer without the partition")
	}
	if code := r.Topics[0].Partitions[0].ErrorCode; code != 0 {
		return kerr.ErrorForCode(code)
	}
	return nil
}
