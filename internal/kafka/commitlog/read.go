package commitlog

// Reading __consumer_offsets directly (no group join): the only place that holds a
// commit's time and the time a classic group became Empty. docs/kafka.md says what is
// read and why; state.go keeps what was read between snapshots.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// Options bound one read of __consumer_offsets.
type Options struct {
	// MaxBytes bounds the record bytes (keys and values) one read fetches over all
	// partitions; 0 means model.DefaultCommitLogBudget.
	MaxBytes int64
	// Window is how far back a group's Recent commits reach (default
	// defaultWindow, 5 minutes); PerPartition caps them per partition (default
	// defaultRecent, 8).
	Window       time.Duration
	PerPartition int
	// History says which groups keep their Recent commits; nil: every group. The
	// earlier commits of a group are kept from the first read that asks for them.
	History func(group string) bool
	// FirstWindow and MaxWindow size Search's windows in bytes: the newest
	// records first, each next window searchGrowth times larger, up to MaxWindow (defaults
	// searchFirstWindow, searchMaxWindow).
	FirstWindow, MaxWindow int64
	// EndsAfter, when not nil, holds Search's ListOffsets until it is closed (or
	// ctx ends): a one-shot snapshot closes it once its own watermarks are in, so that a
	// broker that failed them is dropped by then and not asked again (internal/kafka/wire/call.go), while the
	// search's Metadata and the groups' partitions go on beside them.
	EndsAfter <-chan struct{}
	// MinRecentTimes: Search gives a group's Recent commits only when they hold
	// at least this many distinct commit times (0: always). A snapshot asks for
	// model.CommitterMinCommits: fewer cannot show a committer (DetectCommitter), and a
	// fleet seeded a moment ago would keep every commit twice.
	MinRecentTimes int
}

// The defaults of Options.
const (
	defaultWindow = 5 * time.Minute
	defaultRecent = 8
)

// Fetch sizes of the read: a round asks each broker for at most commitLogRoundBytes,
// each partition starting at commitLogPartitionBytes (doubled, up to
// commitLogMaxPartitionBytes, for a partition whose next batch is larger).
const (
	commitLogRoundBytes        = 16 << 20
	commitLogPartitionBytes    = 1 << 20
	commitLogMaxPartitionBytes = 64 << 20
)

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = model.DefaultCommitLogBudget
	}
	if o.Window <= 0 {
		o.Window = defaultWindow
	}
	if o.PerPartition <= 0 {
		o.PerPartition = defaultRecent
	}
	if o.FirstWindow <= 0 {
		o.FirstWindow = searchFirstWindow
	}
	if o.MaxWindow <= 0 {
		o.MaxWindow = searchMaxWindow
	}
	return o
}

// Read reads the records of groups in __consumer_offsets: the partitions that
// hold them (Kafka's hash rule, the partition count from metadata), by direct Fetch, one
// request per leader carrying every partition it leads, round after round until each
// partition reaches the high watermark its first answer gave, within opt.MaxBytes and
// ctx. What was read is kept (state.go): the next read fetches only what was
// appended since, so a TUI's refreshes cost the new records only. Every group asked gets
// a CommitLog; one that could not be read says why in its Status and Reason (a principal
// denied the topic is CommitLogDenied), which is never an error of the snapshot.
func (c *Reader) Read(ctx context.Context, groups []string, opt Options) (map[string]*model.CommitLog, model.CommitLogScan) {
	opt = opt.withDefaults()
	start := time.Now()
	out := make(map[string]*model.CommitLog, len(groups))
	var scan model.CommitLogScan
	if len(groups) == 0 {
		return out, scan
	}
	failAll := func(status, reason string) (map[string]*model.CommitLog, model.CommitLogScan) {
		for _, g := range groups {
			out[g] = &model.CommitLog{Status: status, Reason: reason, Partition: -1}
		}
		scan.Took = time.Since(start)
		return out, scan
	}
	lay, n, status, reason := c.offsetsTopicLayout(ctx)
	if status != "" {
		return failAll(status, reason)
	}
	if !c.clog.lock(ctx) {
		return failAll(model.CommitLogFailed, "not read: another read of "+wire.OffsetsTopic+" was still running when the deadline passed")
	}
	defer c.clog.unlock()

	byPartition := map[int32][]string{}
	for _, g := range groups {
		p := wire.OffsetsPartition(g, int32(n))
		byPartition[p] = append(byPartition[p], g)
	}
	reads := c.partitionReads(lay, n, byPartition, opt)
	scan = c.readLeaders(ctx, reads, opt)
	scan.Partitions = len(byPartition)
	readAt := c.conn.Now()
	for _, rs := range reads {
		for _, r := range rs {
			if r.status == "" {
				scan.Complete++
			}
			for _, g := range byPartition[r.p] {
				out[g] = r.st.commitLog(g, r, readAt, opt)
			}
		}
	}
	scan.Took = time.Since(start)
	c.conn.Logf("commit log: %d partitions of %s (%d read to the end), %d requests, %d records, %d bytes in %v",
		scan.Partitions, wire.OffsetsTopic, scan.Complete, scan.Requests, scan.Records, scan.Bytes, scan.Took.Round(time.Millisecond))
	return out, scan
}

// partitionReads prepares the read of each partition of __consumer_offsets that holds
// groups asked for, by leader; a partition without a leader is under -1, failed.
func (c *Reader) partitionReads(lay wire.TopicLayout, n int, byPartition map[int32][]string, opt Options) map[int32][]*partitionRead {
	reads := map[int32][]*partitionRead{}
	for _, p := range slices.Sorted(maps.Keys(byPartition)) {
		r := &partitionRead{p: p, st: c.clog.partition(p, n, byPartition[p]), opt: opt, maxBytes: commitLogPartitionBytes}
		for _, g := range byPartition[p] {
			r.st.setHistory(g, opt.History == nil || opt.History(g))
		}
		tp := model.TP{Topic: wire.OffsetsTopic, Partition: p}
		l, ok := lay.Leader[tp]
		if !ok {
			r.status, r.reason = model.CommitLogFailed, fmt.Sprintf("%s has no leader", tp)
			if e := lay.Errs[tp]; e != nil {
				r.reason = e.Message
			}
			l = -1
		}
		reads[l] = append(reads[l], r)
	}
	return reads
}

// readLeaders reads each leader's partitions, the leaders at once, within opt.MaxBytes
// over all of them, and sums what they fetched.
func (c *Reader) readLeaders(ctx context.Context, reads map[int32][]*partitionRead, opt Options) model.CommitLogScan {
	var leaders []int32
	for _, l := range slices.Sorted(maps.Keys(reads)) {
		if l >= 0 {
			leaders = append(leaders, l)
		}
	}
	budget := &atomic.Int64{}
	budget.Store(opt.MaxBytes)
	return eachLeader(c, leaders, func(l int32) model.CommitLogScan {
		return c.readLeader(ctx, l, reads[l], budget)
	})
}

// eachLeader runs read for each leader at once and sums what they fetched.
func eachLeader(c *Reader, leaders []int32, read func(int32) model.CommitLogScan) model.CommitLogScan {
	var scan model.CommitLogScan
	var mu sync.Mutex
	wire.Run(c.conn, leaders, func(l int32) {
		s := read(l)
		mu.Lock()
		scan.Requests += s.Requests
		scan.Records += s.Records
		scan.Bytes += s.Bytes
		mu.Unlock()
	})
	return scan
}

// Start starts reading the records of the snapshot's groups in
// __consumer_offsets when q asks for it, alongside the rest of the snapshot. A client of
// many snapshots (q.CommitLogCatchUp) starts as soon as the groups are described (it reads
// only what DescribeGroups sets) and follows every group with commits forward from where
// its last read stopped (Read), keeping the recent commits of the groups without
// members, or whose members are unknown (a Stable fleet's history would cost memory for
// nothing). A one-shot snapshot starts once its groups' offsets are fetched too, and
// searches only what each group's answer uses (model.GroupObservation.CommitLogNeed,
// Search), its ListOffsets once watermarked is closed (the snapshot's watermarks
// are in). The function it returns waits for the read and, given the
// observation, gives each group with commits its CommitLog (share groups have none) and
// logs the phase; it does nothing after its first call.
func (c *Reader) Start(ctx context.Context, groups []*model.GroupObservation, q model.Query, watermarked <-chan struct{}) func(*model.Observation, func(string, ...any)) {
	if !q.CommitLog {
		return func(*model.Observation, func(string, ...any)) {}
	}
	var read func(context.Context) map[string]*model.CommitLog
	if q.CommitLogCatchUp {
		var names []string
		alone := map[string]bool{} // groups without members: commits there come from outside
		for _, g := range groups {
			if g.Type != model.TypeShare && g.Type != model.TypeUnknown {
				names = append(names, g.Group)
				alone[g.Group] = g.DescribeError != nil || len(g.Members) == 0
			}
		}
		if len(names) == 0 {
			return func(*model.Observation, func(string, ...any)) {}
		}
		read = func(ctx context.Context) map[string]*model.CommitLog {
			got, _ := c.Read(ctx, names, Options{MaxBytes: q.CommitLogBudget, History: func(g string) bool { return alone[g] }})
			return got
		}
	} else {
		needs := map[string]model.CommitLogNeed{}
		for _, g := range groups {
			if len(g.Committed) > 0 && g.Type != model.TypeShare && g.Type != model.TypeUnknown {
				needs[g.Group] = g.CommitLogNeed(q.Topics)
			}
		}
		read = func(ctx context.Context) map[string]*model.CommitLog {
			got, _ := c.Search(ctx, needs, Options{MaxBytes: q.CommitLogBudget, MinRecentTimes: model.CommitterMinCommits, EndsAfter: watermarked})
			return got
		}
	}
	rctx, stop := context.WithCancelCause(ctx)
	done := make(chan map[string]*model.CommitLog, 1)
	go func() { done <- read(rctx) }()
	var once sync.Once
	return func(obs *model.Observation, phase func(string, ...any)) {
		once.Do(func() {
			defer stop(nil)
			if obs == nil { // the snapshot failed: the read is not needed
				stop(context.Canceled)
				<-done
				return
			}
			var got map[string]*model.CommitLog
			if q.CommitLogCatchUp {
				select {
				case got = <-done:
				case <-time.After(catchUpGrace):
					stop(errCatchUp)
					got = <-done
				}
			} else {
				got = <-done
			}
			for i := range obs.Groups {
				if l, ok := got[obs.Groups[i].Group]; ok && len(obs.Groups[i].Committed) > 0 {
					obs.Groups[i].CommitLog = l
				}
			}
			phase("__consumer_offsets read")
		})
	}
}

// catchUpGrace is how much longer than the rest of a snapshot a catching-up read of
// __consumer_offsets may take (model.Query.CommitLogCatchUp).
const catchUpGrace = time.Second

// errCatchUp stops a catching-up read: the next snapshot goes on from there.
var errCatchUp = errors.New("not read to the end yet: the next snapshot goes on from where this one stopped")

// deniedReason is what a group's commit log says when the principal may not read
// __consumer_offsets.
const deniedReason = "the principal may not read " + wire.OffsetsTopic + " (TOPIC_AUTHORIZATION_FAILED): " +
	"commit times and the time a group became Empty are unknown"

// noOffsetsTopicReason is what a group's commit log says on a cluster without
// __consumer_offsets: Kafka creates it for the first group it coordinates, so a cluster
// whose groups have commits and no such topic keeps them elsewhere (the demo's in-process
// brokers keep them in memory).
const noOffsetsTopicReason = "the cluster has no " + wire.OffsetsTopic + " topic to read them from: its metadata answers " +
	"UNKNOWN_TOPIC_OR_PARTITION, as for the demo's in-process brokers, which keep commits in memory"

// partitionRead is one partition of __consumer_offsets during one read.
type partitionRead struct {
	p   int32
	st  *offsetsPartitionState
	opt Options
	// target is the high watermark of the partition's first answer (-1 until then).
	target   int64
	maxBytes int32
	// status and reason are set when the partition was not read to target.
	status, reason string
}

func (r *partitionRead) done() bool {
	return r.status != "" || (r.target >= 0 && r.st.next >= r.target)
}

// The read as a roundPart (fetchRounds).
func (r *partitionRead) finished() bool { return r.done() }

func (r *partitionRead) fetchAt() (int32, int64, int32) {
	return r.p, r.st.next, r.maxBytes
}

func (r *partitionRead) grow() bool {
	if r.maxBytes >= commitLogMaxPartitionBytes {
		return false
	}
	r.maxBytes *= 2
	return true
}

func (r *partitionRead) stop(status, reason string) {
	if !r.done() {
		r.status, r.reason = status, reason
	}
}

// readLeader reads the partitions one broker leads, round after round, each round one
// Fetch carrying every partition not yet at its target.
func (c *Reader) readLeader(ctx context.Context, leader int32, rs []*partitionRead, budget *atomic.Int64) model.CommitLogScan {
	for _, r := range rs {
		r.target = -1
	}
	b, err := c.conn.Broker(leader)
	if err != nil {
		for _, r := range rs {
			r.stop(model.CommitLogFailed, fmt.Sprintf("broker %d, the leader of its partition of %s, could not be reached: %v", leader, wire.OffsetsTopic, err))
		}
		return model.CommitLogScan{}
	}
	return fetchRounds(ctx, c, b, leader, rs, budget, commitLogRoundBytes,
		"the byte budget of the read (--commit-log-budget) ran out before the end of the partition")
}

// stoppedReason says why a read stopped with ctx done.
func stoppedReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), errCatchUp) {
		return errCatchUp.Error()
	}
	return "the command's deadline passed before the end of the partition"
}

// apply applies one partition's answer (read) and says whether the read moved.
func (r *partitionRead) apply(blk *sarama.FetchResponseBlock) (records, bytes int64, moved bool) {
	records, bytes = r.read(blk)
	moved, r.st.moved = r.st.moved, false
	return records, bytes, moved
}

// read applies one partition's answer: an error ends its read; records advance it. It
// returns the records read and their bytes (keys and values).
func (r *partitionRead) read(blk *sarama.FetchResponseBlock) (int64, int64) {
	switch blk.Err {
	case sarama.ErrNoError:
	case sarama.ErrOffsetOutOfRange:
		// The log no longer starts where the kept state ends (records deleted, a new
		// topic): read it again from its start.
		r.st.reset(blk.LogStartOffset)
		r.st.moved = true
		return 0, 0
	case sarama.ErrTopicAuthorizationFailed:
		r.status, r.reason = model.CommitLogDenied, deniedReason
		return 0, 0
	default:
		r.status, r.reason = model.CommitLogFailed, "fetch "+wire.OffsetsTopic+": "+wire.KerrText(blk.Err)
		return 0, 0
	}
	if r.target < 0 {
		r.target = blk.HighWaterMarkOffset
		if r.st.next < blk.LogStartOffset {
			r.st.reset(blk.LogStartOffset)
		}
	}
	return r.st.apply(blk, r.opt)
}
