package kafka

// What the reads of __consumer_offsets keep between snapshots: per partition of the
// topic, how far it was read and, for the groups asked for, each partition's last
// commit, its recent commits and the last GroupMetadata record. Memory is bounded by
// the groups in view, not by the log: about 100 bytes per (group, partition) commit.

import (
	"context"
	"encoding/binary"
	"slices"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// commitLogCache is the client's state of __consumer_offsets; one read at a time.
type commitLogCache struct {
	sem   chan struct{}
	parts map[int32]*offsetsPartitionState
}

func newCommitLogCache() commitLogCache {
	return commitLogCache{sem: make(chan struct{}, 1), parts: map[int32]*offsetsPartitionState{}}
}

// lock waits for the cache until ctx is done; false when it is.
func (c *commitLogCache) lock(ctx context.Context) bool {
	select {
	case c.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (c *commitLogCache) unlock() { <-c.sem }

// partition returns the kept state of partition p, started afresh when the topic's
// partition count changed or a group is asked for that the state did not follow (its
// earlier records were skipped).
func (c *commitLogCache) partition(p int32, n int, groups []string) *offsetsPartitionState {
	st := c.parts[p]
	if st != nil && st.n == n && !slices.ContainsFunc(groups, func(g string) bool { return st.groups[g] == nil }) {
		return st
	}
	fresh := &offsetsPartitionState{n: n, groups: map[string]*groupLogState{}, topics: map[string]string{}}
	if st != nil && st.n == n {
		for g := range st.groups {
			fresh.groups[g] = &groupLogState{}
		}
	}
	for _, g := range groups {
		fresh.groups[g] = &groupLogState{}
	}
	c.parts[p] = fresh
	return fresh
}

// offsetsPartitionState is one partition of __consumer_offsets as read so far.
type offsetsPartitionState struct {
	n int // the topic's partition count when the state began
	// next is the offset the next read starts at.
	next int64
	// groups holds the followed groups' records; a group's key is the interned id.
	groups map[string]*groupLogState
	// topics interns topic names, so the commits of many groups share one string.
	topics map[string]string
	// pending holds transactional offset commits per producer until their marker.
	pending map[int64][]pendingCommit
	// moved marks a round that advanced next.
	moved bool
}

// groupLogState is one followed group's records.
type groupLogState struct {
	commits map[model.TP]*commitState
	classic *model.ClassicRecord
}

// commitState is one partition's last commit and the ones before it still in the window.
type commitState struct {
	offset, atMs, expireMs int64
	// recent holds the commits within the window before the last, oldest first; nil
	// while there is none (most groups).
	recent []recentCommit
}

type recentCommit struct{ offset, atMs int64 }

// pendingCommit is a transactional offset commit (TxnOffsetCommit) not yet decided.
type pendingCommit struct {
	group *groupLogState
	tp    model.TP
	value *commitState // nil: a tombstone
}

// reset forgets what was read and starts again at from.
func (st *offsetsPartitionState) reset(from int64) {
	st.next, st.pending = from, nil
	for g := range st.groups {
		st.groups[g] = &groupLogState{}
	}
}

// apply reads one partition's Fetch answer into the state and returns the records read
// and their bytes (keys and values).
func (st *offsetsPartitionState) apply(blk *sarama.FetchResponseBlock, opt CommitLogOptions) (int64, int64) {
	var records, bytes int64
	window := opt.Window.Milliseconds()
	for _, rs := range blk.RecordsSet {
		switch {
		case rs == nil:
		case rs.RecordBatch != nil:
			rb := rs.RecordBatch
			if rb.PartialTrailingRecord {
				continue // cut at the size limit: asked for again, whole
			}
			last := rb.FirstOffset + int64(rb.LastOffsetDelta)
			if last < st.next {
				continue
			}
			for _, r := range rb.Records {
				off := rb.FirstOffset + r.OffsetDelta
				if off < st.next {
					continue
				}
				records++
				bytes += int64(len(r.Key) + len(r.Value))
				if rb.Control {
					st.decide(rb.ProducerID, r.Key, opt.PerPartition, window)
					continue
				}
				at := rb.FirstTimestamp.Add(r.TimestampDelta)
				if rb.LogAppendTime {
					at = rb.MaxTimestamp
				}
				producer := int64(-1)
				if rb.IsTransactional {
					producer = rb.ProducerID
				}
				st.record(r.Key, r.Value, at, producer, opt.PerPartition, window)
			}
			st.advance(last + 1)
		case rs.MsgSet != nil:
			for _, mb := range rs.MsgSet.Messages {
				for _, m := range mb.Messages() {
					if m.Offset < st.next || m.Msg == nil {
						continue
					}
					records++
					bytes += int64(len(m.Msg.Key) + len(m.Msg.Value))
					st.record(m.Msg.Key, m.Msg.Value, m.Msg.Timestamp, -1, opt.PerPartition, window)
					st.advance(m.Offset + 1)
				}
			}
		}
	}
	return records, bytes
}

func (st *offsetsPartitionState) advance(to int64) {
	if to > st.next {
		st.next, st.moved = to, true
	}
}

// record applies one record of a followed group; producer is the transactional
// producer of its batch, or -1.
func (st *offsetsPartitionState) record(key, value []byte, at time.Time, producer int64, keep int, window int64) {
	typ, group, ok := keyGroup(key)
	if !ok {
		return
	}
	g := st.groups[string(group)] // no allocation: a map index by converted bytes
	if g == nil {
		return
	}
	switch typ {
	case recordOffsetCommitLegacy, recordOffsetCommit:
		tp, c, ok := decodeCommit(key, value, st.topics)
		if !ok {
			return
		}
		if producer >= 0 {
			if st.pending == nil {
				st.pending = map[int64][]pendingCommit{}
			}
			st.pending[producer] = append(st.pending[producer], pendingCommit{group: g, tp: tp, value: c})
			return
		}
		g.commit(tp, c, keep, window)
	case recordGroupMetadata:
		g.classic = decodeClassic(value, at)
	}
}

// decide applies (commit marker) or drops (abort marker) a producer's pending commits.
func (st *offsetsPartitionState) decide(producer int64, key []byte, keep int, window int64) {
	pend := st.pending[producer]
	delete(st.pending, producer)
	// A control record's key: version (int16), then type (int16): 0 abort, 1 commit.
	if len(key) < 4 || binary.BigEndian.Uint16(key[2:]) != 1 {
		return
	}
	for _, p := range pend {
		p.group.commit(p.tp, p.value, keep, window)
	}
}

// commit records c as tp's last commit (nil: the commit was deleted), keeping the
// earlier commits within the window (at most keep, the newest).
func (g *groupLogState) commit(tp model.TP, c *commitState, keep int, window int64) {
	if c == nil {
		delete(g.commits, tp)
		return
	}
	if g.commits == nil {
		g.commits = map[model.TP]*commitState{}
	}
	if prev := g.commits[tp]; prev != nil && prev.atMs >= c.atMs-window && keep > 1 {
		recent := append(prev.recent, recentCommit{prev.offset, prev.atMs})
		from := 0
		for from < len(recent) && recent[from].atMs < c.atMs-window {
			from++
		}
		if n := len(recent) - from; n > keep-1 {
			from += n - (keep - 1)
		}
		c.recent = slices.Clip(recent[from:])
	}
	g.commits[tp] = c
}

// commitLog is group's CommitLog after a read.
func (st *offsetsPartitionState) commitLog(group string, r *partitionRead, readAt time.Time, opt CommitLogOptions) *model.CommitLog {
	l := &model.CommitLog{Status: model.CommitLogRead, Partition: r.p, ReadAt: readAt}
	if r.status != "" {
		l.Status, l.Reason = r.status, r.reason
		return l
	}
	g := st.groups[group]
	if g == nil {
		return l
	}
	if g.classic != nil {
		c := *g.classic
		l.Classic = &c
	}
	since := readAt.Add(-opt.Window).UnixMilli()
	l.Commits = make([]model.CommitRecord, 0, len(g.commits))
	for tp, c := range g.commits {
		rec := model.CommitRecord{TP: tp, Offset: c.offset, CommittedAt: time.UnixMilli(c.atMs)}
		if c.expireMs >= 0 {
			rec.ExpiresAt = time.UnixMilli(c.expireMs)
		}
		l.Commits = append(l.Commits, rec)
		for _, rc := range c.recent {
			if rc.atMs >= since {
				l.Recent = append(l.Recent, model.CommitRecord{TP: tp, Offset: rc.offset, CommittedAt: time.UnixMilli(rc.atMs)})
			}
		}
		if c.atMs >= since {
			l.Recent = append(l.Recent, model.CommitRecord{TP: tp, Offset: c.offset, CommittedAt: rec.CommittedAt})
		}
	}
	byTP := func(a, b model.CommitRecord) int { return model.CompareTP(a.TP, b.TP) }
	slices.SortFunc(l.Commits, byTP)
	slices.SortStableFunc(l.Recent, byTP) // oldest first within a partition, as appended
	return l
}
