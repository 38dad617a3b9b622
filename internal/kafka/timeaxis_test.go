package kafka_test

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// produceAt writes records to topic-0 at rate per second until ctx ends,
// keeping the average exact even when a tick is late.
func produceAt(ctx context.Context, t *testing.T, cl *kgo.Client, topic string, rate float64) {
	start, sent := time.Now(), 0
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		due := int(rate * time.Since(start).Seconds())
		var recs []*kgo.Record
		for ; sent < due; sent++ {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v")})
		}
		if len(recs) > 0 {
			if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil && ctx.Err() == nil {
				t.Errorf("produce: %v", err)
				return
			}
		}
	}
}

// consumer is a real group member (franz-go, manual commits) that processes
// at most rate records per second and commits after every few records.
type consumer struct {
	cl         *kgo.Client
	mu         sync.Mutex
	paused     bool      // stop committing (but stay in the group)
	lastCommit time.Time // when the last commit was answered
}

func newConsumer(t *testing.T, addrs []string, group, topic string) *consumer {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &consumer{cl: cl}
}

func (c *consumer) run(ctx context.Context, t *testing.T, rate float64) {
	start, done := time.Now(), 0
	for ctx.Err() == nil {
		fs := c.cl.PollRecords(ctx, 8)
		recs := fs.Records()
		for range recs {
			done++
			if wait := time.Duration(float64(done)/rate*float64(time.Second)) - time.Since(start); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
		}
		c.mu.Lock()
		paused := c.paused
		c.mu.Unlock()
		if len(recs) == 0 || paused {
			continue
		}
		if err := c.cl.CommitRecords(ctx, recs...); err != nil {
			if ctx.Err() == nil {
				t.Errorf("commit: %v", err)
			}
			return
		}
		c.mu.Lock()
		c.lastCommit = time.Now()
		c.mu.Unlock()
	}
}

// TestTimeAxisETAKnownRates: 600 records behind, 50/s produced, 80/s
// consumed by a real group member. Rates measured over 3 s of snapshots
// taken by internal/kafka give an ETA within ±35 % of the time the group
// really takes to catch up, measured with an independent client (loose enough for
// a loaded machine, tight enough to catch an ETA of lag/consume, 2.7× too short).
func TestTimeAxisETAKnownRates(t *testing.T) {
	t.Parallel()
	k := kafkatest.Cluster(t, kfake.SeedTopics(1, "flow"))
	addrs := k.ListenAddrs()
	seed := kafkatest.NewSeed(t, addrs)
	seed.ProduceN("flow", 0, 600, func(int) time.Time { return time.Now() })
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Go(func() { produceAt(ctx, t, seed.Client, "flow", 50) })
	cons := newConsumer(t, addrs, "catcher", "flow")
	wg.Go(func() { cons.run(ctx, t, 80) })

	client := newClient(t, addrs, time.Now)
	h := timeaxis.NewHistory(32, 0)
	q := model.Query{Groups: []string{"catcher"}}
	waitFor(t, 10*time.Second, "the consumer's first commit", func() bool { _, ok := committedAt(seed, "catcher", "flow"); return ok })
	var snap model.Snapshot
	for i := 0; i <= 6; i++ { // 3 s, one snapshot every 500 ms
		if i > 0 {
			time.Sleep(500 * time.Millisecond)
		}
		var err error
		if snap, err = client.Snapshot(ctx, q); err != nil {
			t.Fatal(err)
		}
		h.Add(&snap, true)
	}
	h.Annotate(&snap, timeaxis.Options{})
	p := findPartition(t, findGroup(t, snap, "catcher"), "flow", 0)
	pt := p.Time
	if pt == nil || pt.ETA != model.ETACatchingUp || !pt.ETAMs.OK {
		t.Fatalf("time axis %+v, want catching up with an ETA", pt)
	}
	t.Logf("lag %d, consume %.1f/s, produce %.1f/s, ETA %v", *p.Lag, pt.ConsumeRate.V, pt.ProduceRate.V, time.Duration(pt.ETAMs.V)*time.Millisecond)
	within(t, "consume rate", pt.ConsumeRate.V, 80, 0.3)
	within(t, "produce rate", pt.ProduceRate.V, 50, 0.3)

	// The truth: when the lag really falls to within one commit batch.
	deadline := snap.Cluster.TakenAt.Add(3 * time.Duration(pt.ETAMs.V) * time.Millisecond)
	for time.Now().Before(deadline) {
		ends, err := seed.Adm.ListEndOffsets(ctx, "flow")
		if err != nil {
			t.Fatal(err)
		}
		end, _ := ends.Lookup("flow", 0)
		if c, ok := committedAt(seed, "catcher", "flow"); ok && end.Offset-c <= 8 {
			truth := time.Since(snap.Cluster.TakenAt.Time).Seconds()
			t.Logf("caught up %.2fs after the ETA's snapshot (ETA said %.2fs)", truth, float64(pt.ETAMs.V)/1000)
			within(t, "ETA", float64(pt.ETAMs.V)/1000, truth, 0.35)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("not caught up within 3× the ETA of %dms", pt.ETAMs.V)
}

// TestTimeAxisStalledThenStopped: a member that stops committing is
// evaluated stalled once its commit has stood still for --stall-after (plus at
// most one sampling interval and a snapshot's duration), and stopped at the
// first snapshot after it leaves the group (docs/timeaxis.md).
func TestTimeAxisStalledThenStopped(t *testing.T) {
	t.Parallel()
	k := kafkatest.Cluster(t, kfake.SeedTopics(1, "jobs"))
	addrs := k.ListenAddrs()
	seed := kafkatest.NewSeed(t, addrs)
	seed.ProduceN("jobs", 0, 200, func(int) time.Time { return time.Now() })
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Go(func() { produceAt(ctx, t, seed.Client, "jobs", 20) })
	cons := newConsumer(t, addrs, "worker", "jobs")
	cctx, stopConsumer := context.WithCancel(ctx)
	wg.Go(func() { cons.run(cctx, t, 10) }) // slower than production: lag stays

	const stallAfter, every = 3 * time.Second, 250 * time.Millisecond
	opt := timeaxis.Options{StallAfter: stallAfter}
	client := newClient(t, addrs, time.Now)
	h := timeaxis.NewHistory(64, 0)
	evaluate := func() (model.Evaluation, time.Time) {
		snap, err := client.Snapshot(ctx, model.Query{Groups: []string{"worker"}})
		if err != nil {
			t.Fatal(err)
		}
		h.Add(&snap, true)
		h.Annotate(&snap, opt)
		p := findPartition(t, findGroup(t, snap, "worker"), "jobs", 0)
		if p.Time == nil {
			return model.EvalNone, snap.Cluster.TakenAt.Time
		}
		return p.Time.Evaluation, snap.Cluster.TakenAt.Time
	}
	waitFor(t, 10*time.Second, "the consumer's first commit", func() bool { _, ok := committedAt(seed, "worker", "jobs"); return ok })
	for range 8 { // 2 s of a working consumer
		if ev, _ := evaluate(); ev == model.EvalStalled || ev == model.EvalStopped {
			t.Fatalf("a committing consumer evaluated %v", ev)
		}
		time.Sleep(every)
	}

	cons.mu.Lock()
	cons.paused = true // still a member, no more commits
	cons.mu.Unlock()
	time.Sleep(200 * time.Millisecond) // a commit in flight lands
	cons.mu.Lock()
	stoodStill := cons.lastCommit
	cons.mu.Unlock()
	stalledAt := firstEvaluation(t, evaluate, model.EvalStalled, every, 10*time.Second)
	t.Logf("stalled %v after the last commit (--stall-after %v)", stalledAt.Sub(stoodStill), stallAfter)
	// Slack of half --stall-after: an evaluation that needs twice the window fails.
	if d := stalledAt.Sub(stoodStill); d < stallAfter || d > stallAfter+every+stallAfter/2 {
		t.Errorf("stalled %v after the last commit, want within [%v, %v + %v + %v]", d, stallAfter, stallAfter, every, stallAfter/2)
	}

	stopConsumer()
	left := time.Now()
	cons.cl.Close() // leaves the group
	stoppedAt := firstEvaluation(t, evaluate, model.EvalStopped, every, 10*time.Second)
	t.Logf("stopped %v after the member left", stoppedAt.Sub(left))
	if d := stoppedAt.Sub(left); d > every+2*time.Second {
		t.Errorf("stopped %v after the member left, want within %v + 2s", d, every)
	}
}

// firstEvaluation samples every `every` until evaluate says want and
// returns that snapshot's time. Only want's predecessor in the sequence ok →
// warn → stalled → stopped may come before it.
func firstEvaluation(t *testing.T, evaluate func() (model.Evaluation, time.Time), want model.Evaluation, every, limit time.Duration) time.Time {
	t.Helper()
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		ev, at := evaluate()
		switch {
		case ev == want:
			return at
		case want == model.EvalStalled && ev == model.EvalStopped, ev == model.EvalRewound, ev == model.EvalUnknown:
			t.Fatalf("evaluated %v while waiting for %v", ev, want)
		}
		time.Sleep(every)
	}
	t.Fatalf("never evaluated %v within %v", want, limit)
	return time.Time{}
}

// committedAt reads a group's commit on topic-0 with the independent client;
// false while there is none (or the group does not exist yet).
func committedAt(seed *kafkatest.Seed, group, topic string) (int64, bool) {
	resp, err := seed.Adm.FetchOffsets(context.Background(), group)
	if err != nil || resp.Error() != nil {
		return 0, false
	}
	o, ok := resp.Lookup(topic, 0)
	return o.At, ok && o.Err == nil && o.At >= 0
}

func within(t *testing.T, what string, got, want, frac float64) {
	t.Helper()
	if math.Abs(got-want) > frac*want {
		t.Errorf("%s %.2f, want %.2f ± %.0f%%", what, got, want, frac*100)
	}
}

func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTimestampsAtRiskFirst: the TUI's list spends the fetch budget on the
// committed-record timestamps of at-risk commits (those whose time to loss can
// fall within the risk window) first, then on the other commits with lag, so
// time lag is known for every group the budget covers; a budget for one
// partition goes to an at-risk one. (It asked for at-risk commits only, and
// TIME-LAG stayed "?" for most groups all session.)
func TestTimestampsAtRiskFirst(t *testing.T) {
	d := startDemo(t)
	for _, budget := range []int64{model.DefaultFetchBudget, 64 << 10} {
		c := newClient(t, d.Bootstrap(), nil) // a new client: no cached timestamps
		snap, err := c.Snapshot(context.Background(), model.Query{Groups: []string{"audit-export"}, RiskWindow: 24 * time.Hour,
			FetchBudget: budget, TimestampsAtRiskFirst: true})
		if err != nil {
			t.Fatal(err)
		}
		g := findGroup(t, snap, "audit-export")
		for _, p := range []int32{0, 1, 3, 4} { // 0 and 1 are at-risk, 3 and 4 ok with lag
			gp := findPartition(t, g, "orders", p)
			want := budget == model.DefaultFetchBudget || (p == 0 && gp.Status == model.StatusAtRisk)
			if (gp.CommittedTimestamp() != nil) != want {
				t.Errorf("budget %d: orders-%d (%s) timestamp %v, want one: %v", budget, p, gp.Status, gp.CommittedTimestamp(), want)
			}
		}
	}
}
