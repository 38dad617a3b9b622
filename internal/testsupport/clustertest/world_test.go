package clustertest

// The world of the tests that bounce the brokers of the real three-node cluster
// (internal/testsupport/realcluster): a static topic whose groups never move (their numbers are
// known exactly), a live topic written by a producer and read by two live groups (one
// per consumer protocol) that commit as they go, and an independent reader that reads
// the truth with franz-go every 100 ms, never through internal/kafka.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	worldPartitions = 3
	staticRecords   = 30 // per partition of the static topic
)

// clusterWorld is what a cluster test reads and judges.
type clusterWorld struct {
	c              *realcluster.Cluster
	seed           *realkafka.Seed
	prefix         string
	static, live   string
	staticGroups   []string
	staticCommits  map[string]map[model.TP]int64
	liveGroups     []string
	produced       func() int64 // records the producer has had acknowledged
	stopLiveGroups func()
}

// newClusterWorld builds the world on the cluster: one static group per
// __consumer_offsets partition (so every coordinator has one), the producer and the
// live groups, and waits until each live group has committed on every partition.
func newClusterWorld(t *testing.T, c *realcluster.Cluster, prefix string) *clusterWorld {
	t.Helper()
	w := &clusterWorld{c: c, prefix: realkafka.Name(prefix), seed: realkafka.NewSeed(t, c.Bootstrap),
		staticCommits: map[string]map[model.TP]int64{}}
	w.static, w.live = w.prefix+"-static", w.prefix+"-live"
	c.CreateTopic(w.static, worldPartitions, nil)
	c.CreateTopic(w.live, worldPartitions, nil)
	for p := range int32(worldPartitions) {
		w.seed.ProduceN(w.static, p, staticRecords, func(int) time.Time { return time.Now() })
	}
	for k := range int32(realcluster.OffsetsPartitions) {
		g := groupOnPartition(w.prefix+"-static", k)
		offs := map[model.TP]int64{}
		for p := range int32(worldPartitions) {
			offs[tpOf(w.static, p)] = int64(10 + p + k)
		}
		w.seed.Commit(g, offs)
		w.staticGroups = append(w.staticGroups, g)
		w.staticCommits[g] = offs
	}
	w.produced = produceForever(t, c.Bootstrap, w.live)
	classic, consumer := w.prefix+"-live-classic", w.prefix+"-live-consumer"
	w.liveGroups = []string{classic, consumer}
	stopA := liveMember(t, c.Bootstrap, classic, w.live)
	stopB := liveMember(t, c.Bootstrap, consumer, w.live, kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()))
	w.stopLiveGroups = func() { stopA(); stopB() }
	realkafka.WaitUntil(t, 60*time.Second, "the live groups committed on every partition", func() (bool, string) {
		for _, g := range w.liveGroups {
			if n := len(w.seed.Committed(g)); n < worldPartitions {
				return false, fmt.Sprintf("%s: %d partitions committed", g, n)
			}
		}
		return true, ""
	})
	return w
}

// groupOnPartition returns a group name of prefix whose coordinator is
// __consumer_offsets partition k.
func groupOnPartition(prefix string, k int32) string {
	for i := 0; ; i++ {
		g := fmt.Sprintf("%s-%02d-%d", prefix, k, i)
		if realcluster.OffsetsPartition(g) == k {
			return g
		}
	}
}

// produceForever writes a record to topic every 10 ms (acks=all, idempotent) until the
// test ends, and returns how many were acknowledged so far.
func produceForever(t *testing.T, boot, topic string) func() int64 {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...), kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(0), kgo.RecordRetries(1<<20), kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		acked int64
	)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-tick.C:
				cl.Produce(ctx, &kgo.Record{Value: []byte("v")}, func(_ *kgo.Record, err error) {
					if err == nil {
						mu.Lock()
						acked++
						mu.Unlock()
					}
				})
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		cl.Close()
	})
	return func() int64 {
		mu.Lock()
		defer mu.Unlock()
		return acked
	}
}

// liveMember is a group member (franz-go) that reads topic and commits every 200 ms;
// opts choose its protocol. stop makes it leave the group.
func liveMember(t *testing.T, boot, group, topic string, opts ...kgo.Opt) (stop func()) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(strings.Split(boot, ",")...), kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic), kgo.AutoCommitInterval(200 * time.Millisecond), kgo.SessionTimeout(10 * time.Second),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	stop = sync.OnceFunc(func() {
		cancel()
		<-done
		cl.Close()
	})
	t.Cleanup(stop)
	return stop
}

// truthRead is one independent read of the world.
type truthRead struct {
	start, end time.Time
	// high and low per partition of both topics; committed per group and partition.
	// A value that could not be read is absent.
	high, low map[model.TP]int64
	committed map[string]map[model.TP]int64
}

// truth reads the world independently (franz-go) every 100 ms until the test ends.
type truth struct {
	mu    sync.Mutex
	reads []truthRead
}

func (w *clusterWorld) startTruth(t *testing.T) *truth {
	tr := &truth{}
	adm := w.c.Adm
	groups := append(append([]string{}, w.staticGroups...), w.liveGroups...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			r := truthRead{start: time.Now(), high: map[model.TP]int64{}, low: map[model.TP]int64{},
				committed: map[string]map[model.TP]int64{}}
			rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
			for g, fr := range adm.FetchManyOffsets(rctx, groups...) {
				if fr.Err != nil {
					continue
				}
				m := map[model.TP]int64{}
				fr.Fetched.Each(func(o kadm.OffsetResponse) {
					if o.Err == nil && o.At >= 0 {
						m[tpOf(o.Topic, o.Partition)] = o.At
					}
				})
				r.committed[g] = m
			}
			for dst, list := range map[*map[model.TP]int64]func(context.Context, ...string) (kadm.ListedOffsets, error){
				&r.high: adm.ListEndOffsets, &r.low: adm.ListStartOffsets} {
				l, _ := list(rctx, w.static, w.live)
				l.Each(func(o kadm.ListedOffset) {
					if o.Err == nil {
						(*dst)[tpOf(o.Topic, o.Partition)] = o.Offset
					}
				})
			}
			rcancel()
			r.end = time.Now()
			tr.mu.Lock()
			tr.reads = append(tr.reads, r)
			tr.mu.Unlock()
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return tr
}

// Bounds of a number read between from and to: lo is the highest value read before from
// (the live topic and commits only move forward), hi the highest read in the 3 s after to
// (a coordinator that has just moved answers from its high watermark, which can trail
// for a moment: the highest read is the fresh one), and trail the lowest read in the 2 s
// before the last read before from — not before from itself: while a killed
// coordinator's groups move, the independent reads of them fail too, and the trailing
// answer is from before the gap. ok is false when there is no read on either side.
type bounds struct {
	lo, hi, trail int64
	ok            bool
}

func (tr *truth) bounds(from, to time.Time, val func(truthRead) (int64, bool)) bounds {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var (
		b              bounds
		haveLo, haveHi bool
		before         []truthRead // the reads with a value that ended before from
		values         []int64
	)
	b.trail = -1
	// Reads are in time order; the ones that matter started from 10 s before from (the
	// highest value read before from is among them: values only move forward) to 3 s
	// after to.
	first := sort.Search(len(tr.reads), func(i int) bool { return !tr.reads[i].start.Before(from.Add(-10 * time.Second)) })
	for _, r := range tr.reads[first:] {
		if !r.start.Before(to.Add(3 * time.Second)) {
			break
		}
		v, has := val(r)
		switch {
		case !has:
		case !r.end.After(from):
			b.lo, haveLo = max(b.lo, v), true
			before, values = append(before, r), append(values, v)
		case !r.start.Before(to):
			b.hi, haveHi = max(b.hi, v), true
		}
	}
	if n := len(before); n > 0 {
		last := before[n-1].end
		for i, r := range before {
			if r.end.After(last.Add(-2*time.Second)) && (b.trail < 0 || values[i] < b.trail) {
				b.trail = values[i]
			}
		}
	}
	b.ok = haveLo && haveHi
	return b
}

// history lists the values read between from and to, each with the time its read ended,
// a value repeated by the next read shown once, and a read without the value as "-": the
// story a failure's message tells.
func (tr *truth) history(from, to time.Time, val func(truthRead) (int64, bool)) string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var b strings.Builder
	last := ""
	for _, r := range tr.reads {
		if r.end.Before(from) || r.start.After(to) {
			continue
		}
		s := "-"
		if v, ok := val(r); ok {
			s = fmt.Sprint(v)
		}
		if s != last {
			fmt.Fprintf(&b, " %s@%s", s, r.end.Format("15:04:05.000"))
			last = s
		}
	}
	return strings.TrimSpace(b.String())
}
