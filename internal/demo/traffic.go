package demo

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Traffic topics and groups (docs/demo.md): producers and consumers running
// at fixed rates, so that rates, ETAs, evaluations and a time to loss are on
// screen from the second snapshot on.
const (
	// TopicClicks (2 partitions) gets 10 records/s per partition.
	TopicClicks = "clicks"
	// GroupClickETL starts 4,500 records behind on each clicks partition;
	// its two members read 25/s each: it catches up in about 5 minutes.
	GroupClickETL = "click-etl"
	// TopicEvents keeps records for 1h and gets 3 records/s; it starts with
	// 6,000 records written over the last 50 minutes.
	TopicEvents = "events"
	// GroupEventSink reads events at 1/s from the start: it falls behind, and
	// retention overtakes it about 20 minutes after Start.
	GroupEventSink = "event-sink"
	// TopicInvoices gets 1 record/s.
	TopicInvoices = "invoices"
	// GroupInvoiceMailer committed invoices at 25; its member never commits
	// again: stalled.
	GroupInvoiceMailer = "invoice-mailer"
)

// EventsRetention is the retention.ms of TopicEvents.
const EventsRetention = time.Hour

// cleanerEvery is how often the demo brokers apply retention. kfake runs retention and
// compaction on one timer set by log.cleaner.backoff.ms (its default, 1h, would delete
// events in one lump); in Kafka retention runs every log.retention.check.interval.ms.
const cleanerEvery = 10 * time.Second

// TrafficGroups lists the groups whose positions move while the demo runs.
func TrafficGroups() []string { return []string{GroupClickETL, GroupEventSink, GroupInvoiceMailer} }

// flow is one producer or consumer of the traffic.
type flow struct {
	topic      string
	partitions int32
	rate       float64 // records per second: over all partitions, or per member
	group      string  // consumer group; "" for a producer
	members    int     // group members, each a client of its own
}

var flows = []flow{
	{topic: TopicClicks, partitions: 2, rate: 20},
	{topic: TopicEvents, partitions: 1, rate: 3},
	{topic: TopicInvoices, partitions: 1, rate: 1},
	{topic: TopicClicks, partitions: 2, rate: 25, group: GroupClickETL, members: 2}, // a partition each
	{topic: TopicEvents, partitions: 1, rate: 1, group: GroupEventSink, members: 1},
	{topic: TopicInvoices, partitions: 1, group: GroupInvoiceMailer, members: 1}, // joins, never reads or commits
}

// traffic runs the flows until stop.
type traffic struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	clients []*kgo.Client
}

// startTraffic creates the traffic topics, writes their backlog and initial
// commits, and starts the flows. Record timestamps follow now.
func startTraffic(ctx context.Context, bootstrap []string, now func() time.Time, logf func(string, ...any)) (_ *traffic, err error) {
	seed, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	if err != nil {
		return nil, fmt.Errorf("demo traffic: %w", err)
	}
	tr := &traffic{clients: []*kgo.Client{seed}}
	if err := tr.seed(ctx, seed, now); err != nil {
		tr.stop()
		return nil, fmt.Errorf("demo traffic: %w", err)
	}
	run, cancel := context.WithCancel(context.Background())
	tr.cancel = cancel
	defer func() {
		if err != nil {
			tr.stop()
		}
	}()
	for _, f := range flows {
		if f.group == "" {
			tr.wg.Go(func() { produce(run, seed, f, now, logf) })
			continue
		}
		for range f.members {
			cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.ClientID("offsettui-demo-"+f.group),
				kgo.ConsumerGroup(f.group), kgo.ConsumeTopics(f.topic), kgo.DisableAutoCommit(),
				kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.HeartbeatInterval(100*time.Millisecond))
			if err != nil {
				return nil, fmt.Errorf("demo traffic: consumer of %s: %w", f.group, err) // stopped by the defer
			}
			tr.clients = append(tr.clients, cl)
			if f.rate > 0 {
				tr.wg.Go(func() { consume(run, cl, f, logf) })
			}
		}
	}
	if err = settleTraffic(ctx, kadm.NewClient(seed)); err != nil {
		return nil, fmt.Errorf("demo traffic: %w", err)
	}
	return tr, nil
}

// settleTraffic waits until every traffic group is Stable with its members
// and the moving ones have committed, so the first snapshot shows them all.
func settleTraffic(ctx context.Context, adm *kadm.Client) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if ready(ctx, adm) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the traffic groups to settle: %w", context.Cause(ctx))
		case <-tick.C:
		}
	}
}

func ready(ctx context.Context, adm *kadm.Client) bool {
	groups, err := adm.DescribeGroups(ctx, TrafficGroups()...)
	if err != nil {
		return false
	}
	for _, f := range flows {
		if f.group == "" {
			continue
		}
		if g := groups[f.group]; g.Err != nil || g.State != "Stable" || len(g.Members) != f.members {
			return false
		}
		if f.rate == 0 {
			continue
		}
		offs, err := adm.FetchOffsets(ctx, f.group)
		if err != nil || len(offs.Offsets()[f.topic]) != int(f.partitions) {
			return false
		}
	}
	return true
}

// seed creates the topics, writes the backlogs and commits where the
// consumers start.
func (tr *traffic) seed(ctx context.Context, cl *kgo.Client, now func() time.Time) error {
	adm := kadm.NewClient(cl)
	retention := strconv.FormatInt(EventsRetention.Milliseconds(), 10)
	for topic, n := range map[string]int32{TopicClicks: 2, TopicEvents: 1, TopicInvoices: 1} {
		configs := map[string]*string{}
		if topic == TopicEvents {
			configs["retention.ms"] = &retention
		}
		resp, err := adm.CreateTopic(ctx, n, 1, configs, topic)
		if err == nil {
			err = resp.Err
		}
		if err != nil {
			return fmt.Errorf("create topic %s: %w", topic, err)
		}
	}
	start := now()
	backlog := []struct {
		topic     string
		partition int32
		n         int
		over      time.Duration
	}{
		{TopicClicks, 0, 4500, 10 * time.Minute}, {TopicClicks, 1, 4500, 10 * time.Minute},
		{TopicEvents, 0, 6000, 50 * time.Minute}, {TopicInvoices, 0, 40, time.Hour},
	}
	for _, b := range backlog {
		if err := produceBacklog(ctx, cl, b.topic, b.partition, b.n, start.Add(-b.over), b.over); err != nil {
			return err
		}
	}
	o := kadm.Offsets{}
	o.Add(kadm.Offset{Topic: TopicInvoices, Partition: 0, At: 25, LeaderEpoch: -1})
	resp, err := adm.CommitOffsets(ctx, GroupInvoiceMailer, o)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("commit offsets of group %s: %w", GroupInvoiceMailer, err)
	}
	return nil
}

// produceBacklog writes n records spread evenly over `over` from first, in
// batches of 60, so that retention deletes them a batch at a time, as Kafka
// deletes a segment at a time.
func produceBacklog(ctx context.Context, cl *kgo.Client, topic string, p int32, n int, first time.Time, over time.Duration) error {
	const batch = 60
	for i := 0; i < n; i += batch {
		var recs []*kgo.Record
		for j := i; j < min(n, i+batch); j++ {
			ts := first.Add(time.Duration(float64(over) * float64(j) / float64(n)))
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Value: []byte("backlog-" + strconv.Itoa(j)), Timestamp: ts})
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			return fmt.Errorf("write the backlog of %s-%d: %w", topic, p, err)
		}
	}
	return nil
}

// produce writes f.rate records per second, round robin over the
// partitions, keeping the average exact when a tick is late.
func produce(ctx context.Context, cl *kgo.Client, f flow, now func() time.Time, logf func(string, ...any)) {
	began, sent := time.Now(), 0
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		due := int(f.rate * time.Since(began).Seconds())
		var recs []*kgo.Record
		for ; sent < due; sent++ {
			recs = append(recs, &kgo.Record{Topic: f.topic, Partition: int32(sent) % f.partitions,
				Value: []byte(f.topic + "-" + strconv.Itoa(sent)), Timestamp: now()})
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil && ctx.Err() == nil {
			logf("demo traffic: produce to %s: %v", f.topic, err)
		}
	}
}

// consume reads at most f.rate records per second (one member's share) and
// commits what it read twice a second.
func consume(ctx context.Context, cl *kgo.Client, f flow, logf func(string, ...any)) {
	began, done := time.Now(), 0
	var read []*kgo.Record
	var lastCommit time.Time // the first record read is committed at once
	for ctx.Err() == nil {
		for _, r := range cl.PollRecords(ctx, 10).Records() {
			if wait := time.Duration(float64(done)/f.rate*float64(time.Second)) - time.Since(began); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
			done++
			read = append(read, r)
			if time.Since(lastCommit) < 500*time.Millisecond {
				continue
			}
			if err := cl.CommitRecords(ctx, read...); err != nil && ctx.Err() == nil {
				logf("demo traffic: commit of %s: %v", f.group, err)
			}
			read, lastCommit = read[:0], time.Now()
		}
	}
}

// stop ends the flows; consumers leave their groups without committing more.
func (tr *traffic) stop() {
	if tr.cancel != nil {
		tr.cancel()
	}
	tr.wg.Wait()
	for _, cl := range tr.clients {
		cl.Close()
	}
}
