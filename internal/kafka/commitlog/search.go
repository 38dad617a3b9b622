package commitlog

// Reading only what a one-shot snapshot's answer uses of __consumer_offsets
// (model.CommitLogNeed): each partition newest first, in windows that reach further back,
// each larger than the one before, until every group asked for has what it needs or the
// log's start is reached. A group that committed recently is found in the newest window; one
// that committed long ago costs a few large Fetches, not one per MiB. docs/kafka.md
// ("The commit log") says what is read, when, and its bound; window.go holds one
// partition's windows and what they found.

import (
	"context"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
)

// The windows of a search: the first holds about searchFirstWindow bytes of the newest
// records (a group that committed a moment ago is there: little to decode), each next one
// searchGrowth times the one before, up to searchMaxWindow (the newest 1.25 MiB take two
// Fetches). A round of Fetch asks one broker for at most searchRoundBytes, room for the
// largest window and its margin (askBytes) in one answer; when several brokers are asked at
// once (many groups), their rounds share searchSharedBytes. An answer is decoded whole, at
// some three times its size: what is in flight bounds the search's memory, whatever the
// number of brokers.
const (
	searchFirstWindow = 256 << 10
	searchMaxWindow   = 12 << 20
	searchGrowth      = 4
	searchRoundBytes  = searchMaxWindow*5/4 + 1<<20
	searchSharedBytes = 8 << 20
)

// Search reads, for each group of needs, what its need asks of its records in
// __consumer_offsets: per partition of the topic that holds groups asked for (Kafka's hash
// rule), from the high watermark back, window by window (ListOffsets for the partition's
// ends, then one Fetch per leader and round carrying every partition still searched), until
// each group has the last record of every partition in need.Commits, its last GroupMetadata
// record when need.Classic, and its commits of the last opt.Window when need.History (or
// its Empty GroupMetadata record, before which nothing was committed without members). A
// group whose need is none gets CommitLogNotNeeded and costs no request. The read stops at
// opt.MaxBytes or ctx: a group not found by then says partial. Nothing is kept between
// searches.
func (c *Reader) Search(ctx context.Context, needs map[string]model.CommitLogNeed, opt Options) (map[string]*model.CommitLog, model.CommitLogScan) {
	opt = opt.withDefaults()
	start := time.Now()
	out, groups := notNeeded(needs)
	if len(groups) == 0 {
		return out, model.CommitLogScan{}
	}
	lay, n, status, reason := c.offsetsTopicLayout(ctx)
	if status != "" {
		for _, g := range groups {
			out[g] = &model.CommitLog{Status: status, Reason: reason, Partition: -1}
		}
		return out, model.CommitLogScan{Took: time.Since(start)}
	}
	since := c.conn.Now().Add(-opt.Window).UnixMilli()
	parts := map[int32]*searchPartition{}
	for _, g := range groups {
		p := wire.OffsetsPartition(g, int32(n))
		if parts[p] == nil {
			parts[p] = newSearchPartition(p, since, opt)
		}
		parts[p].add(g, needs[g])
	}
	located := time.Since(start)
	if opt.EndsAfter != nil {
		select {
		case <-opt.EndsAfter:
		case <-ctx.Done():
		}
	}
	waited := time.Since(start)
	var byLeader map[int32][]*searchPartition
	if ctx.Err() != nil {
		for _, sp := range parts {
			sp.stop(model.CommitLogPartial, stoppedReason(ctx))
		}
	} else {
		byLeader = c.beginSearch(ctx, lay, parts)
	}
	ended := time.Since(start)
	scan := c.searchLeaders(ctx, byLeader, opt.MaxBytes)
	scan.Partitions = len(parts)
	readAt := c.conn.Now()
	for _, sp := range parts {
		if sp.status == "" {
			scan.Complete++
		}
		for g, gs := range sp.groups {
			out[g] = sp.commitLog(gs, readAt, opt.Window, opt.MinRecentTimes)
			delete(sp.groups, g) // what the search held of it goes as its answer comes
		}
	}
	scan.Took = time.Since(start)
	c.conn.Logf("commit log: searched %d partitions of %s newest first (%d to what their groups need), %d Fetch requests, %d records, %d bytes in %v (metadata %v, waiting for the snapshot's watermarks %v, log ends %v)",
		scan.Partitions, wire.OffsetsTopic, scan.Complete, scan.Requests, scan.Records, scan.Bytes, scan.Took.Round(time.Millisecond),
		located.Round(time.Millisecond), (waited - located).Round(time.Millisecond), (ended - waited).Round(time.Millisecond))
	return out, scan
}

// notNeeded answers the groups whose need is none (CommitLogNotNeeded: no request) and
// returns the others, sorted.
func notNeeded(needs map[string]model.CommitLogNeed) (map[string]*model.CommitLog, []string) {
	out := make(map[string]*model.CommitLog, len(needs))
	var groups []string
	for _, g := range slices.Sorted(maps.Keys(needs)) {
		if needs[g].None() {
			out[g] = &model.CommitLog{Status: model.CommitLogNotNeeded, Partition: -1}
			continue
		}
		groups = append(groups, g)
	}
	return out, groups
}

// offsetsTopicLayout reads the layout of __consumer_offsets and its partition count, for
// both reads of it; when it cannot, a CommitLog status and the reason (a cluster without
// the topic says so: noOffsetsTopicReason).
func (c *Reader) offsetsTopicLayout(ctx context.Context) (lay wire.TopicLayout, partitions int, status, reason string) {
	lay, err := c.conn.Metadata(ctx, []string{wire.OffsetsTopic})
	if err != nil {
		e := wire.ToError(err)
		return lay, 0, model.CommitLogFailed, "the metadata of " + wire.OffsetsTopic + " could not be read: " + e.Error()
	}
	if e := lay.TopicErrs[wire.OffsetsTopic]; e != nil {
		switch {
		case denied(e):
			return lay, 0, model.CommitLogDenied, deniedReason
		case e.Code != nil && *e.Code == wire.CodeName(kerr.UnknownTopicOrPartition.Code):
			return lay, 0, model.CommitLogFailed, noOffsetsTopicReason
		}
		return lay, 0, model.CommitLogFailed, wire.OffsetsTopic + " could not be read: " + e.Error()
	}
	n := lay.Partitions[wire.OffsetsTopic]
	if n <= 0 {
		return lay, 0, model.CommitLogFailed, wire.OffsetsTopic + " is not in the cluster metadata"
	}
	return lay, n, "", ""
}

// beginSearch reads the ends of the partitions searched (ListOffsets), starts each at its
// newest records, and returns those left to read by leader, in partition order.
func (c *Reader) beginSearch(ctx context.Context, lay wire.TopicLayout, parts map[int32]*searchPartition) map[int32][]*searchPartition {
	tps := make([]model.TP, 0, len(parts))
	for _, p := range slices.Sorted(maps.Keys(parts)) {
		tps = append(tps, model.TP{Topic: wire.OffsetsTopic, Partition: p})
	}
	ends := c.logs.WatermarksReasked(ctx, lay, tps, nil, false)
	byLeader := map[int32][]*searchPartition{}
	for _, tp := range tps {
		sp, po := parts[tp.Partition], ends[tp]
		switch {
		case po.Error != nil && denied(po.Error):
			sp.stop(model.CommitLogDenied, deniedReason)
		case po.Error != nil:
			sp.stop(model.CommitLogFailed, "list offsets of "+wire.OffsetsTopic+": "+po.Error.Message)
		default:
			sp.begin(*po.Low, *po.High)
		}
		if !sp.finished() {
			byLeader[lay.Leader[tp]] = append(byLeader[lay.Leader[tp]], sp)
		}
	}
	return byLeader
}

// searchLeaders searches each leader's partitions, the leaders at once, within maxBytes
// over all of them, and sums what they fetched.
func (c *Reader) searchLeaders(ctx context.Context, byLeader map[int32][]*searchPartition, maxBytes int64) model.CommitLogScan {
	leaders := slices.Sorted(maps.Keys(byLeader))
	budget := &atomic.Int64{}
	budget.Store(maxBytes)
	round := int64(searchRoundBytes)
	if len(leaders) > 1 {
		round = max(searchSharedBytes/int64(len(leaders)), 1<<20)
	}
	return eachLeader(c, leaders, func(l int32) model.CommitLogScan {
		return c.searchLeader(ctx, l, byLeader[l], budget, round)
	})
}

// denied reports whether e is the principal being refused __consumer_offsets.
func denied(e *model.Error) bool {
	return e.Code != nil && *e.Code == wire.CodeName(kerr.TopicAuthorizationFailed.Code)
}

// searchLeader searches the partitions one broker leads, round after round, each round one
// Fetch of at most round bytes carrying every partition still searched at the offset its
// window reads next.
func (c *Reader) searchLeader(ctx context.Context, leader int32, parts []*searchPartition, budget *atomic.Int64, round int64) model.CommitLogScan {
	b, err := c.conn.Broker(leader)
	if err != nil {
		for _, sp := range parts {
			sp.stop(model.CommitLogFailed, err.Error())
		}
		return model.CommitLogScan{}
	}
	return fetchRounds(ctx, c, b, leader, parts, budget, round,
		"the byte budget of the read (--commit-log-budget) ran out before the records the answer needs")
}
