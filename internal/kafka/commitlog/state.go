package commitlog

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

// groupLogState is one followed group's records. Most groups need only commits: the
// other maps stay nil.
type groupLogState struct {
	// commits holds each partition's last commit.
	commits map[model.TP]commitState
	// earlier holds the commits within the window before the last, oldest first.
	earlier map[model.TP][]commitState
	// expires holds explicit expire timestamps (OffsetCommit v1, rare), in ms.
	expires map[model.TP]int64
	classic *model.ClassicRecord
	// history: earlier commits are kept (Options.History).
	history bool
	// commitsOut and classicOut are what the last CommitLog handed out (shared, read
	// only); dirty marks them stale.
	commitsOut []model.CommitRecord
	classicOut *model.ClassicRecord
	dirty      bool
}

// commitState is one commit: its offset, commit time (ms) and whether offsettui wrote it
// (model.OwnCommitMetadata).
type commitState struct {
	offset, atMs int64
	own          bool
}

// decodedCommit is an OffsetCommit record's value.
type decodedCommit struct {
	commitState
	expireMs  int64 // -1: none
	tombstone bool  // the commit was deleted
}

// pendingCommit is a transactional offset commit (TxnOffsetCommit) not yet decided.
type pendingCommit struct {
	group *groupLogState
	tp    model.TP
	value decodedCommit
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
func (st *offsetsPartitionState) apply(blk *sarama.FetchResponseBlock, opt Options) (int64, int64) {
	var records, bytes int64
	window := opt.Window.Milliseconds()
	next, _ := walkRecords(blk, st.next, func(r logRecord) {
		records++
		bytes += int64(len(r.key) + len(r.value))
		if r.control {
			st.decide(r.producer, r.key, opt.PerPartition, window)
			return
		}
		st.record(r.key, r.value, r.at, r.producer, opt.PerPartition, window)
	})
	st.advance(next)
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
		g.classic, g.dirty = decodeClassic(value, at), true
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

// commit records d as tp's last commit (or deletes it), keeping the earlier commits within
// the window (at most keep in all, the newest).
func (g *groupLogState) commit(tp model.TP, d decodedCommit, keep int, window int64) {
	g.dirty = true
	if d.tombstone {
		delete(g.commits, tp)
		delete(g.earlier, tp)
		delete(g.expires, tp)
		return
	}
	if g.commits == nil {
		g.commits = map[model.TP]commitState{}
	}
	prev, had := g.commits[tp]
	switch {
	case had && g.history && keep > 1 && prev.atMs >= d.atMs-window:
		earlier := append(g.earlier[tp], prev)
		from := 0
		for from < len(earlier) && earlier[from].atMs < d.atMs-window {
			from++
		}
		if n := len(earlier) - from; n > keep-1 {
			from += n - (keep - 1)
		}
		if g.earlier == nil {
			g.earlier = map[model.TP][]commitState{}
		}
		g.earlier[tp] = slices.Clip(earlier[from:])
	case had:
		delete(g.earlier, tp)
	}
	g.commits[tp] = d.commitState
	switch {
	case d.expireMs >= 0:
		if g.expires == nil {
			g.expires = map[model.TP]int64{}
		}
		g.expires[tp] = d.expireMs
	case g.expires != nil:
		delete(g.expires, tp)
	}
}

// setHistory says whether group's earlier commits are kept from now on.
func (st *offsetsPartitionState) setHistory(group string, on bool) {
	if g := st.groups[group]; g != nil {
		g.history = on
		if !on {
			g.earlier = nil
		}
	}
}

// commitLog is group's CommitLog after a read. Its Commits and Classic are shared with
// the CommitLogs of earlier reads while the group's records did not change, so a read
// that found little new costs little at thousands of groups.
func (st *offsetsPartitionState) commitLog(group string, r *partitionRead, readAt time.Time, opt Options) *model.CommitLog {
	l := &model.CommitLog{Status: model.CommitLogRead, Partition: r.p, ReadAt: readAt}
	if r.status != "" {
		l.Status, l.Reason = r.status, r.reason
		return l
	}
	g := st.groups[group]
	if g == nil {
		return l
	}
	if g.dirty || g.commitsOut == nil {
		g.commitsOut = make([]model.CommitRecord, 0, len(g.commits))
		for tp, c := range g.commits {
			rec := model.CommitRecord{TP: tp, Offset: c.offset, CommittedAt: time.UnixMilli(c.atMs), Own: c.own}
			if ms, ok := g.expires[tp]; ok {
				rec.ExpiresAt = time.UnixMilli(ms)
			}
			g.commitsOut = append(g.commitsOut, rec)
		}
		slices.SortFunc(g.commitsOut, func(a, b model.CommitRecord) int { return model.CompareTP(a.TP, b.TP) })
		g.classicOut = nil
		if g.classic != nil {
			c := *g.classic
			g.classicOut = &c
		}
		g.dirty = false
	}
	l.Commits, l.Classic = g.commitsOut, g.classicOut
	if g.history {
		l.Recent = g.recent(readAt.Add(-opt.Window).UnixMilli())
	}
	return l
}

// recent lists the commits made at or after since, by partition, oldest first: the
// earlier ones of each partition, then its last (commitsOut, in partition order).
func (g *groupLogState) recent(since int64) []model.CommitRecord {
	var out []model.CommitRecord
	for _, last := range g.commitsOut {
		for _, e := range g.earlier[last.TP] {
			if e.atMs >= since {
				out = append(out, model.CommitRecord{TP: last.TP, Offset: e.offset, CommittedAt: time.UnixMilli(e.atMs), Own: e.own})
			}
		}
		if last.CommittedAt.UnixMilli() >= since {
			rec := last
			rec.ExpiresAt = time.Time{}
			out = append(out, rec)
		}
	}
	return out
}
