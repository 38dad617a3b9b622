package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The keys a franz-go producer, group consumer and admin use; each must reach
// the proxy, most of them on connections the client opened to addresses it
// learned from rewritten answers.
var usedKeys = []kmsg.Key{kmsg.ApiVersions, kmsg.Metadata, kmsg.Produce, kmsg.FindCoordinator,
	kmsg.JoinGroup, kmsg.SyncGroup, kmsg.Fetch, kmsg.OffsetCommit, kmsg.OffsetFetch,
	kmsg.ListOffsets, kmsg.DescribeGroups, kmsg.ListGroups}

// TestFranzGoClientStaysOnProxy: every connection of a franz-go client
// bootstrapped on the proxy goes to a proxy listener, every broker is reached
// through it, and the cluster handles exactly the requests the proxy counted.
func TestFranzGoClientStaysOnProxy(t *testing.T) {
	k := kafkatest.Cluster(t)
	const partitions = 6 // leaders on all three brokers
	if err := k.CreateTopic("t6", partitions, nil); err != nil {
		t.Fatal(err)
	}
	p := New(t, k.ListenAddrs())
	handled := countHandled(k)
	cl, log := client(t, p.Addrs())
	consumerLog := useCluster(t, p, cl, "t6", partitions, "g")
	cl.Close()
	checkStayed(t, p, usedKeys, log, consumerLog)
	for _, id := range p.Brokers() {
		if p.Requests(id, AnyKey) == 0 {
			t.Errorf("broker %d got nothing through the proxy: %s", id, p.Summary())
		}
	}
	checkSameCounts(t, p, handled)
}

func TestRealKafkaFranzGoClientStaysOnProxy(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("stay")
	s.CreateTopic(topic, 3, nil)
	p := New(t, []string{addr})
	cl, log := client(t, p.Addrs())
	consumerLog := useCluster(t, p, cl, topic, 3, realkafka.Name("stay"))
	cl.Close()
	checkStayed(t, p, usedKeys, log, consumerLog)
}

// TestSaramaClientStaysOnProxy: offsettui's own client (sarama) takes a whole
// snapshot through the proxy, and the cluster gets exactly the requests the
// proxy counted.
func TestSaramaClientStaysOnProxy(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t6", 6, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t6", 4, 5, func(int) time.Time { return time.Now() })
	s.Commit("g", map[model.TP]int64{{Topic: "t6", Partition: 4}: 2})
	s.Client.Close() // its background requests (telemetry) would count upstream
	p := New(t, k.ListenAddrs())
	handled := countHandled(k)
	snapshotThrough(t, p.Addrs(), nil, "g", model.TP{Topic: "t6", Partition: 4}, 2)
	checkSameCounts(t, p, handled)
	if p.Requests(AnyBroker, kmsg.OffsetFetch) == 0 || p.Requests(AnyBroker, kmsg.ListOffsets) == 0 {
		t.Errorf("the snapshot's reads did not pass the proxy: %s", p.Summary())
	}
}

// useCluster produces a record to each partition, consumes them in a group
// that commits, and reads them back with admin requests, all through the proxy.
// It returns the consumer's connections.
func useCluster(t *testing.T, p *Proxy, cl *kgo.Client, topic string, partitions int32, group string) *dialLog {
	t.Helper()
	for i := range partitions {
		if err := cl.ProduceSync(ctxFor(t, 10*time.Second), &kgo.Record{Topic: topic, Partition: i, Value: []byte("v")}).FirstErr(); err != nil {
			t.Fatalf("produce to %s-%d: %v", topic, i, err)
		}
	}
	consumer, consumerLog := client(t, p.Addrs(), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit())
	for got := 0; got < int(partitions); {
		fs := consumer.PollFetches(ctxFor(t, 20*time.Second))
		if err := fs.Err0(); err != nil {
			t.Fatalf("consume %s through the proxy: %v (%s)", topic, err, p.Summary())
		}
		got += fs.NumRecords()
	}
	if err := consumer.CommitUncommittedOffsets(ctxFor(t, 10*time.Second)); err != nil {
		t.Fatalf("commit: %v", err)
	}
	consumer.Close()
	adm := kadm.NewClient(cl)
	ctx := ctxFor(t, 10*time.Second)
	offsets, err := adm.FetchOffsets(ctx, group)
	if err == nil {
		err = offsets.Error()
	}
	if err != nil || len(offsets) == 0 {
		t.Fatalf("fetch the offsets of %s: %v %v", group, offsets, err)
	}
	if _, err := adm.ListEndOffsets(ctx, topic); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.DescribeGroups(ctx, group); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.ListGroups(ctx); err != nil {
		t.Fatal(err)
	}
	return consumerLog
}

// checkStayed: every connection the clients opened went to a proxy listener,
// and each key they used reached the proxy.
func checkStayed(t *testing.T, p *Proxy, keys []kmsg.Key, logs ...*dialLog) {
	t.Helper()
	for _, log := range logs {
		if outside, total := log.outside(p); len(outside) > 0 || total < 2 {
			t.Errorf("connections outside the proxy: %v of %d (proxy listeners %v)", outside, total, p.Addrs())
		}
	}
	for _, key := range keys {
		if p.Requests(AnyBroker, key) == 0 {
			t.Errorf("no %s request passed the proxy: %s", key.Name(), p.Summary())
		}
	}
}

// handledCounts counts, per API key, the requests a kfake cluster handles (its
// request controls see every request, unlike observing faults, which miss the
// ones that name no topic or group).
type handledCounts [kmsg.MaxKey + 1]atomic.Int32

func countHandled(k *kfake.Cluster) *handledCounts {
	var c handledCounts
	for key := range int16(kmsg.MaxKey + 1) {
		k.ControlKey(key, func(kmsg.Request) (kmsg.Response, error, bool) {
			k.KeepControl()
			c[key].Add(1)
			return nil, nil, false
		})
	}
	return &c
}

func (c *handledCounts) total() int {
	n := 0
	for i := range c {
		n += int(c[i].Load())
	}
	return n
}

// checkSameCounts: the cluster handled, per key, exactly the requests the proxy
// counted since handled started (waiting a little for it to handle the last
// ones): no client went around the proxy.
func checkSameCounts(t *testing.T, p *Proxy, handled *handledCounts) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); handled.total() != p.Requests(AnyBroker, AnyKey) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n, proxied := handled.total(), p.Requests(AnyBroker, AnyKey); n != proxied {
		t.Errorf("the cluster handled %d requests, the proxy counted %d: %s", n, proxied, p.Summary())
	}
	for key := range handled {
		if n, proxied := int(handled[key].Load()), p.Requests(AnyBroker, kmsg.Key(key)); n != proxied {
			t.Errorf("%s: the cluster handled %d, the proxy counted %d", kmsg.Key(key).Name(), n, proxied)
		}
	}
}

// snapshotThrough takes an offsettui snapshot of group through addrs and checks
// that tp's committed offset is want.
func snapshotThrough(t *testing.T, addrs []string, props map[string]string, group string, tp model.TP, want int64) {
	t.Helper()
	settings, err := clientconfig.FromProperties(props, clientconfig.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: addrs, Client: settings, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.Close() }()
	snap, err := cl.Snapshot(ctxFor(t, 20*time.Second), model.Query{Groups: []string{group}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range snap.Groups {
		for _, gp := range g.Partitions {
			if g.Group == group && gp.TP() == tp {
				if gp.Committed == nil || *gp.Committed != want || gp.Error != nil {
					t.Errorf("%s %v through the proxy: committed %v, error %v; want %d", group, tp, gp.Committed, gp.Error, want)
				}
				return
			}
		}
	}
	t.Errorf("%s %v not in the snapshot taken through the proxy (errors %v)", group, tp, snap.Errors)
}

// TestRewritesBrokerAddresses: every version of Metadata, FindCoordinator and
// DescribeCluster the broker takes comes back naming the proxy's listeners, and
// otherwise equal to the broker's own answer.
func TestRewritesBrokerAddresses(t *testing.T) { testRewrites(t, fakeUpstream(t)) }

func TestRealKafkaRewritesBrokerAddresses(t *testing.T) { testRewrites(t, realUpstream(t)) }

func testRewrites(t *testing.T, u upstream) {
	u.coordinator(t, "g1") // a fresh broker creates its offsets topic now
	p := New(t, u.addrs, u.opts...)
	viaProxy, direct := dialRaw(t, p.Addrs()[0]), dialRaw(t, u.addrs[0])
	requests := map[kmsg.Key]func(v int16) kmsg.Request{
		kmsg.Metadata: func(v int16) kmsg.Request {
			r := kmsg.NewPtrMetadataRequest()
			r.Version, r.Topics = v, []kmsg.MetadataRequestTopic{} // no topics (all topics at v0)
			return r
		},
		kmsg.FindCoordinator: func(v int16) kmsg.Request {
			r := kmsg.NewPtrFindCoordinatorRequest()
			r.Version, r.CoordinatorKey, r.CoordinatorKeys = v, "g1", []string{"g1", "g2", "g3"}
			return r
		},
		kmsg.DescribeCluster: func(v int16) kmsg.Request {
			r := kmsg.NewPtrDescribeClusterRequest()
			r.Version = v
			return r
		},
	}
	tested := 0
	for _, key := range []kmsg.Key{kmsg.Metadata, kmsg.FindCoordinator, kmsg.DescribeCluster} {
		for v := range viaProxy.newest(key) + 1 {
			if !viaProxy.supports(key, v) {
				continue
			}
			tested++
			t.Run(fmt.Sprintf("%s v%d", key.Name(), v), func(t *testing.T) {
				got := viaProxy.roundTrip(requests[key](v))
				want := direct.roundTrip(requests[key](v))
				named := 0
				_ = eachEndpoint(want, func(id int32, host *string, port *int32) error {
					if id >= 0 {
						named++
						*host, *port = "127.0.0.1", listenerPort(t, p, id)
					}
					return nil
				})
				if named == 0 {
					t.Fatalf("the broker's answer names no broker: %+v", want)
				}
				if key == kmsg.Metadata && v == 0 {
					got.(*kmsg.MetadataResponse).Topics, want.(*kmsg.MetadataResponse).Topics = nil, nil
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("through the proxy:\n%+v\nwant the broker's answer with the proxy's addresses:\n%+v", got, want)
				}
			})
		}
	}
	if tested < 3 {
		t.Errorf("only %d request versions tested", tested)
	}
}

// listenerPort is the port of the proxy's listener for broker id.
func listenerPort(t *testing.T, p *Proxy, id int32) int32 {
	_, port, err := net.SplitHostPort(p.Broker(id))
	n, err2 := strconv.Atoi(port)
	if err != nil || err2 != nil {
		t.Fatalf("no listener for broker %d: %q", id, p.Broker(id))
	}
	return int32(n)
}

// TestCounts: the proxy counts each request per broker and key, and each
// connection, exactly; ResetCounts starts again from zero.
func TestCounts(t *testing.T) {
	u := fakeUpstream(t)
	p := New(t, u.addrs)
	a, b := p.Brokers()[0], p.Brokers()[1]
	ra, rb := dialRaw(t, p.Broker(a)), dialRaw(t, p.Broker(b)) // one ApiVersions each
	for range 3 {
		ra.roundTrip(&kmsg.MetadataRequest{Version: ra.newest(kmsg.Metadata), Topics: []kmsg.MetadataRequestTopic{}})
	}
	for range 2 {
		ra.roundTrip(&kmsg.DescribeClusterRequest{Version: ra.newest(kmsg.DescribeCluster), EndpointType: 1})
	}
	rb.roundTrip(&kmsg.MetadataRequest{Version: rb.newest(kmsg.Metadata), Topics: []kmsg.MetadataRequestTopic{}})
	for _, c := range []struct {
		broker int32
		key    kmsg.Key
		want   int
	}{
		{a, kmsg.ApiVersions, 1}, {a, kmsg.Metadata, 3}, {a, kmsg.DescribeCluster, 2}, {a, AnyKey, 6},
		{b, kmsg.ApiVersions, 1}, {b, kmsg.Metadata, 1}, {b, kmsg.DescribeCluster, 0}, {b, AnyKey, 2},
		{AnyBroker, kmsg.Metadata, 4}, {AnyBroker, AnyKey, 8}, {p.Brokers()[2], AnyKey, 0},
	} {
		if got := p.Requests(c.broker, c.key); got != c.want {
			t.Errorf("Requests(%d, %s) = %d; want %d", c.broker, c.key.Name(), got, c.want)
		}
	}
	if p.Connections(a) != 1 || p.Connections(b) != 1 || p.Connections(AnyBroker) != 2 {
		t.Errorf("connections %d, %d, all %d; want 1, 1, 2", p.Connections(a), p.Connections(b), p.Connections(AnyBroker))
	}
	want := fmt.Sprintf("broker %d: 1 connections, ApiVersions=1 DescribeCluster=2 Metadata=3; broker %d: 1 connections, ApiVersions=1 Metadata=1", a, b)
	if got := p.Summary(); got != want {
		t.Errorf("Summary() = %q; want %q", got, want)
	}
	p.ResetCounts()
	if p.Requests(AnyBroker, AnyKey) != 0 || p.Connections(AnyBroker) != 0 || p.Summary() != "" {
		t.Errorf("after ResetCounts: %s", p.Summary())
	}
}

// TestHeldConnectionForwardsNothingMore: once a rule has held or is cutting a
// connection, the requests that follow on it are counted but never forwarded,
// as behind a hung broker thread.
func TestHeldConnectionForwardsNothingMore(t *testing.T) {
	for _, tc := range []struct {
		action      Action
		wantClosed  bool // else silent
		wantLanding int  // Metadata requests the cluster gets
	}{
		{StallBefore, false, 0},
		{StallAfter, false, 1},
		{CutAfter, true, 1},
	} {
		t.Run(tc.action.String(), func(t *testing.T) {
			k := kafkatest.Cluster(t)
			p := New(t, k.ListenAddrs())
			id := p.Brokers()[0]
			r := dialRaw(t, p.Broker(id))
			handled := countHandled(k)
			p.Add(Rule{Broker: id, Key: kmsg.Metadata, Action: tc.action})
			r.send(&kmsg.MetadataRequest{Version: r.newest(kmsg.Metadata), Topics: []kmsg.MetadataRequestTopic{}})
			r.send(&kmsg.DescribeClusterRequest{Version: r.newest(kmsg.DescribeCluster), EndpointType: 1})
			frame, err := r.next(300 * time.Millisecond)
			var netErr net.Error
			switch {
			case frame != nil:
				t.Errorf("got an answer: %x", frame)
			case tc.wantClosed && (errors.As(err, &netErr) && netErr.Timeout()):
				t.Errorf("connection still open: %v", err)
			case !tc.wantClosed && !(errors.As(err, &netErr) && netErr.Timeout()):
				t.Errorf("read: %v; want the connection open and silent", err)
			}
			// A cut connection may close before the proxy reads what follows.
			if n := p.Requests(id, kmsg.DescribeCluster); n != 1 && !(tc.wantClosed && n == 0) {
				t.Errorf("the proxy counted %d DescribeCluster; want 1", n)
			}
			if n := int(handled[kmsg.Metadata].Load()); n != tc.wantLanding {
				t.Errorf("the cluster got %d Metadata; want %d", n, tc.wantLanding)
			}
			if n := handled[kmsg.DescribeCluster].Load(); n != 0 {
				t.Errorf("the cluster got %d DescribeCluster sent behind the held request; want 0", n)
			}
		})
	}
}

// TestNewBrokerGetsAListener: a broker that joins after Start gets a proxy
// listener when an answer first names it, and clients reach it through that.
func TestNewBrokerGetsAListener(t *testing.T) {
	k := kafkatest.Cluster(t)
	p := New(t, k.ListenAddrs())
	id, _, err := k.AddNode(-1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Broker(id) != "" {
		t.Fatalf("broker %d has a listener before any answer named it", id)
	}
	cl, log := client(t, p.Addrs())
	if _, err := cl.Broker(int(id)).Request(ctxFor(t, 10*time.Second), kmsg.NewPtrMetadataRequest()); err != nil {
		t.Fatalf("metadata from the new broker %d: %v", id, err)
	}
	if p.Broker(id) == "" || p.Requests(id, kmsg.Metadata) != 1 {
		t.Errorf("new broker %d: listener %q; want one that served the request: %s", id, p.Broker(id), p.Summary())
	}
	if outside, _ := log.outside(p); len(outside) > 0 {
		t.Errorf("connections outside the proxy: %v", outside)
	}
}

// TestLegacySASLRefused: SaslHandshake v0 (raw tokens follow, which the proxy
// cannot frame) closes the connection and is reported by Err.
func TestLegacySASLRefused(t *testing.T) {
	k := kafkatest.Cluster(t)
	p, err := Start(ctxFor(t, 10*time.Second), k.ListenAddrs())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	r := dialRaw(t, p.Addrs()[0])
	r.send(&kmsg.SASLHandshakeRequest{Version: 0, Mechanism: "PLAIN"})
	if frame, err := r.next(5 * time.Second); err == nil {
		t.Errorf("answered: %x; want the connection closed", frame)
	}
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), "SaslHandshake v0") {
		t.Errorf("Err() = %v; want the legacy handshake named", err)
	}
}

// readBytes counts, per API key, the answer bytes a franz-go client read (its own count,
// size prefixes included).
type readBytes struct {
	mu sync.Mutex
	n  map[int16]int64
}

func (r *readBytes) OnBrokerRead(_ kgo.BrokerMetadata, key int16, n int, _, _ time.Duration, err error) {
	if err == nil {
		r.mu.Lock()
		r.n[key] += int64(n)
		r.mu.Unlock()
	}
}

func (r *readBytes) of(key kmsg.Key) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[int16(key)]
}

// AnswerBytes counts the bytes of the answers as the client reads them: a client that
// consumes records through the proxy read, by its own count, as many Fetch answer bytes as
// the proxy says it returned.
func TestAnswerBytesAreWhatTheClientRead(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 500, func(int) time.Time { return time.Now() })
	p := New(t, k.ListenAddrs())
	read := &readBytes{n: map[int16]int64{}}
	cl, _ := client(t, p.Addrs(), kgo.WithHooks(read), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"t": {0: kgo.NewOffset().AtStart()}}))
	for got := 0; got < 500; {
		fs := cl.PollFetches(ctxFor(t, 10*time.Second))
		if err := fs.Err(); err != nil {
			t.Fatal(err)
		}
		got += fs.NumRecords()
	}
	cl.Close()
	if f := read.of(kmsg.Fetch); f < 500 || p.AnswerBytes(AnyBroker, kmsg.Fetch) != f {
		t.Errorf("the client read %d bytes of Fetch answers, the proxy counts %d (%s)", f, p.AnswerBytes(AnyBroker, kmsg.Fetch), p.Summary())
	}
	if p.AnswerBytes(AnyBroker, AnyKey) <= p.AnswerBytes(AnyBroker, kmsg.Fetch) {
		t.Errorf("all answers %d bytes, Fetch's %d: Metadata and ApiVersions are answers too", p.AnswerBytes(AnyBroker, AnyKey), p.AnswerBytes(AnyBroker, kmsg.Fetch))
	}
	p.ResetCounts()
	if n := p.AnswerBytes(AnyBroker, AnyKey); n != 0 {
		t.Errorf("after ResetCounts: %d answer bytes", n)
	}
}
