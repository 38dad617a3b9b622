package commitlog

// One partition of __consumer_offsets searched newest first (search.go): windows
// [start, end), each read forward, each next one ending where the one before began. A
// group's last commit of a partition is its newest record there that counts, by record
// offset, as Kafka's coordinator keeps "the most recent committed offset" when transactional
// and plain commits mix (OffsetMetadataManager.replayEndTransactionMarker, compared by
// recordOffset): a plain commit, or a transactional one whose producer's next marker is a
// commit. That marker follows the record, in its window or in a newer one already read.

import (
	"cmp"
	"encoding/binary"
	"slices"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// searchGuessBytesPerOffset sizes the first window before any record was read: a commit
// record of group and topic names of some 30 characters takes about this much in its
// batch (a longer one makes the first window take two Fetches, a shorter one smaller).
const searchGuessBytesPerOffset = 160

// searchPartition is one partition of __consumer_offsets during one search.
type searchPartition struct {
	p      int32
	since  int64 // ms: history reaches back to commits made then
	keep   int   // history: at most this many commits per partition of a group
	groups map[string]*groupSearch
	topics map[string]string // interned topic names
	// low is the partition's log start (when the search began, or later as a Fetch says).
	low int64
	// The window being read: [start, end); next is the offset the next Fetch asks for.
	start, end, next int64
	// window is the window's size in bytes (the first firstWindow, then growing up to
	// maxWindow); bytes and offsets measure the records read so far, which size the windows
	// after the first.
	window, firstWindow, maxWindow int64
	bytes, offsets                 int64
	// minAsk is raised when a batch did not fit what was asked.
	minAsk int32
	// firstTs is the timestamp (ms) of the window's first record, -1 until one is read.
	firstTs int64
	// pending holds the window's transactional commits per producer until a marker of that
	// producer decides them; marked holds each producer's first marker in the window, and
	// later its first marker after the window (read already).
	pending map[int64][]pendingFound
	marked  map[int64]bool
	later   map[int64]bool // producer → its first marker after the window is a commit
	// status and reason are set when the search of the partition stopped before the end.
	status, reason string
	done           bool
}

// groupSearch is what one group needs and what the windows read so far found of it.
type groupSearch struct {
	need model.CommitLogNeed
	// commits holds, by index of need.Commits, the last commit found (found) or the
	// window's newest so far (a candidate, found at the window's end).
	commits []foundCommit
	left    int // need.Commits not found yet
	// classic is the newest GroupMetadata record (nil: a tombstone) once hasClassic, at
	// offset classicAt; the window's newest is classicCand.
	classic, classicCand       *model.ClassicRecord
	hasClassic, hasClassicCand bool
	classicAt, classicCandAt   int64
	// History: hist holds the commits the windows read hold, at most keep per partition
	// (the newest) once a window ends, sorted by partition and offset then; cutAt the offset
	// of a partition's newest deletion (nothing before it counts), nil without one.
	historyDone bool
	hist        []histCommit
	parts       []model.TP // hist's partitions: need.Commits, then any other one met
	cutAt       map[model.TP]int64
}

// foundCommit is one commit record found: its offset in __consumer_offsets and what it says
// (never a deletion), in 40 bytes: a group keeps one for each partition it asks for.
type foundCommit struct {
	at, offset, atMs int64 // at: the record's offset, -1: none
	expireMs         int64 // -1: none
	own              bool
	found            bool // found in a window read before; else the current window's candidate
}

// histCommit is a commit of the history at offset at, of the partition parts[part] of its
// group: only what Recent shows of it, in 32 bytes (a group without members keeps one for
// each of its partitions while the search runs).
type histCommit struct {
	at, offset, atMs int64
	part             int32
	own              bool
}

// pendingFound is a transactional commit waiting for its producer's marker.
type pendingFound struct {
	g   *groupSearch
	tp  model.TP
	at  int64
	val decodedCommit
}

func newSearchPartition(p int32, since int64, opt Options) *searchPartition {
	return &searchPartition{p: p, since: since, keep: opt.PerPartition, firstWindow: opt.FirstWindow, maxWindow: opt.MaxWindow,
		groups: map[string]*groupSearch{}, topics: map[string]string{}, later: map[int64]bool{}, firstTs: -1}
}

// add asks the search for group's need.
func (sp *searchPartition) add(group string, need model.CommitLogNeed) {
	gs := &groupSearch{need: need, left: len(need.Commits), commits: make([]foundCommit, len(need.Commits))}
	for i := range gs.commits {
		gs.commits[i].at = -1
	}
	if need.History {
		gs.hist = make([]histCommit, 0, len(need.Commits)) // a commit of each partition, at least
		gs.parts = slices.Clip(need.Commits)               // appending copies: need.Commits stays
	}
	sp.groups[group] = gs
}

func (gs *groupSearch) complete() bool {
	return gs.left == 0 && (!gs.need.Classic || gs.hasClassic) && (!gs.need.History || gs.historyDone)
}

// begin starts the search at the partition's ends: the first window is the newest records.
func (sp *searchPartition) begin(low, high int64) {
	sp.low, sp.end = low, high
	sp.window = sp.firstWindow
	if high <= low {
		sp.finish()
		return
	}
	sp.startWindow()
}

// startWindow places the next window before end: as many offsets as its bytes at the
// bytes per offset read so far.
func (sp *searchPartition) startWindow() {
	sp.start = max(sp.low, sp.end-max(1, sp.window/sp.bytesPerOffset()))
	sp.next, sp.firstTs = sp.start, -1
	sp.pending, sp.marked = nil, nil
}

func (sp *searchPartition) bytesPerOffset() int64 {
	if sp.offsets == 0 || sp.bytes == 0 {
		return searchGuessBytesPerOffset
	}
	return max(1, sp.bytes/sp.offsets)
}

// askBytes is the partition limit of the next Fetch: what is left of the window at the
// bytes per offset measured, a little more for batch boundaries.
func (sp *searchPartition) askBytes() int32 {
	want := (sp.end-sp.next)*sp.bytesPerOffset()*21/20 + 32<<10
	return int32(max(min(want, sp.maxWindow*5/4), 64<<10, int64(sp.minAsk)))
}

// grow raises the partition limit after a Fetch brought nothing; false past the largest.
func (sp *searchPartition) grow() bool {
	if sp.minAsk >= commitLogMaxPartitionBytes {
		return false
	}
	sp.minAsk = max(2*sp.askBytes(), sp.minAsk)
	return true
}

func (sp *searchPartition) finished() bool { return sp.done || sp.status != "" }

// fetchAt: the next round reads the window on from next (fetchRounds).
func (sp *searchPartition) fetchAt() (int32, int64, int32) { return sp.p, sp.next, sp.askBytes() }

// stop ends an unfinished search with a status.
func (sp *searchPartition) stop(status, reason string) {
	if !sp.finished() {
		sp.status, sp.reason = status, reason
	}
}

func (sp *searchPartition) finish() { sp.done = true }

// apply reads one Fetch answer: records of the window, then, once the window is read, its
// end (what it found counts) and the next window. It returns the records read, their bytes
// (keys and values) and whether the search moved.
func (sp *searchPartition) apply(blk *sarama.FetchResponseBlock) (int64, int64, bool) {
	switch blk.Err {
	case sarama.ErrNoError:
	case sarama.ErrOffsetOutOfRange:
		// The log starts later than when the search began: go on from its start.
		sp.low = max(sp.low, blk.LogStartOffset)
		if sp.low >= sp.end {
			sp.endWindow()
			return 0, 0, true
		}
		sp.start, sp.next = max(sp.start, sp.low), max(sp.next, sp.low)
		return 0, 0, true
	case sarama.ErrTopicAuthorizationFailed:
		sp.stop(model.CommitLogDenied, deniedReason)
		return 0, 0, true
	default:
		sp.stop(model.CommitLogFailed, "fetch "+wire.OffsetsTopic+": "+wire.KerrText(blk.Err))
		return 0, 0, true
	}
	from := sp.next
	var records, bytes, wireBytes int64
	next, batches := walkRecords(blk, sp.next, func(r logRecord) {
		if r.off >= sp.end {
			return
		}
		records++
		n := int64(len(r.key) + len(r.value))
		bytes += n
		wireBytes += n + 8 // a record's own fields, about
		if r.legacy {
			wireBytes += 26 // a message's header, less the 8 above
		}
		if sp.firstTs < 0 {
			sp.firstTs = r.at.UnixMilli()
		}
		if r.control {
			sp.marker(r.producer, r.key)
			return
		}
		sp.record(r.off, r.key, r.value, r.at, r.producer)
	})
	sp.next = max(sp.next, next)
	wireBytes += 61 * batches // a batch's header
	if sp.next > from {
		sp.bytes += wireBytes
		sp.offsets += min(sp.next, sp.end) - from
	}
	if sp.next >= sp.end || sp.next >= blk.HighWaterMarkOffset {
		sp.endWindow()
		return records, bytes, true
	}
	return records, bytes, sp.next > from
}

// record applies one record of the window at offset off; producer is the transactional
// producer of its batch, or -1.
func (sp *searchPartition) record(off int64, key, value []byte, at time.Time, producer int64) {
	typ, group, ok := keyGroup(key)
	if !ok {
		return
	}
	gs := sp.groups[string(group)] // no allocation: a map index by converted bytes
	if gs == nil || gs.complete() {
		return
	}
	switch typ {
	case recordOffsetCommitLegacy, recordOffsetCommit:
		tp, d, ok := decodeCommit(key, value, sp.topics)
		if !ok {
			return
		}
		if producer >= 0 {
			if sp.pending == nil {
				sp.pending = map[int64][]pendingFound{}
			}
			sp.pending[producer] = append(sp.pending[producer], pendingFound{g: gs, tp: tp, at: off, val: d})
			return
		}
		gs.offer(tp, off, d)
	case recordGroupMetadata:
		if gs.need.Classic || gs.need.History {
			gs.classicCand, gs.hasClassicCand, gs.classicCandAt = decodeClassic(value, at), true, off
		}
	}
}

// marker decides the producer's pending commits of the window by its control record.
func (sp *searchPartition) marker(producer int64, key []byte) {
	// A control record's key: version (int16), then type (int16): 0 abort, 1 commit.
	commit := len(key) >= 4 && binary.BigEndian.Uint16(key[2:]) == 1
	if sp.marked == nil {
		sp.marked = map[int64]bool{}
	}
	if _, seen := sp.marked[producer]; !seen {
		sp.marked[producer] = commit
	}
	pend := sp.pending[producer]
	delete(sp.pending, producer)
	if commit {
		for _, p := range pend {
			p.g.offer(p.tp, p.at, p.val)
		}
	}
}

// offer is a commit record that counts (a plain one, or a committed transaction's) at
// offset at of the window.
func (gs *groupSearch) offer(tp model.TP, at int64, d decodedCommit) {
	if gs.need.History && !gs.historyDone {
		cut, deleted := gs.cutAt[tp]
		switch {
		case d.tombstone && (!deleted || at > cut):
			if gs.cutAt == nil {
				gs.cutAt = map[model.TP]int64{}
			}
			gs.cutAt[tp] = at
		case !d.tombstone && (!deleted || at > cut):
			gs.hist = append(gs.hist, histCommit{at: at, offset: d.offset, atMs: d.atMs, part: gs.part(tp), own: d.own})
		}
	}
	if d.tombstone {
		// A deleted commit that OffsetFetch still lists was committed again by a
		// transaction decided after the deletion: its record is older.
		return
	}
	i, ok := slices.BinarySearchFunc(gs.need.Commits, tp, model.CompareTP)
	if ok && !gs.commits[i].found && at > gs.commits[i].at {
		gs.commits[i] = foundCommit{at: at, offset: d.offset, atMs: d.atMs, expireMs: d.expireMs, own: d.own}
	}
}

// part is tp's index in parts: one of need.Commits (sorted), or another partition the
// history met, added the first time.
func (gs *groupSearch) part(tp model.TP) int32 {
	if i, ok := slices.BinarySearchFunc(gs.need.Commits, tp, model.CompareTP); ok {
		return int32(i)
	}
	for i := len(gs.need.Commits); i < len(gs.parts); i++ {
		if gs.parts[i] == tp {
			return int32(i)
		}
	}
	gs.parts = append(gs.parts, tp)
	return int32(len(gs.parts) - 1)
}

// endWindow counts what the window found, and starts the next window or ends the search.
func (sp *searchPartition) endWindow() {
	for producer, pend := range sp.pending {
		if commit, ok := sp.later[producer]; ok && commit {
			for _, p := range pend {
				p.g.offer(p.tp, p.at, p.val)
			}
		}
	}
	for producer, commit := range sp.marked {
		sp.later[producer] = commit
	}
	atStart := sp.start <= sp.low
	all := true
	for _, gs := range sp.groups {
		gs.endWindow(sp, atStart)
		all = all && gs.complete()
	}
	if all || atStart {
		sp.finish()
		return
	}
	sp.end = sp.start
	sp.window = min(sp.window*searchGrowth, sp.maxWindow)
	sp.startWindow()
}

// endWindow promotes what the window found of the group.
func (gs *groupSearch) endWindow(sp *searchPartition, atStart bool) {
	for i := range gs.commits {
		if c := &gs.commits[i]; !c.found && c.at >= 0 {
			c.found = true
			gs.left--
		}
	}
	if !gs.hasClassic && gs.hasClassicCand {
		gs.classic, gs.hasClassic, gs.classicAt = gs.classicCand, true, gs.classicCandAt
	}
	if gs.need.History && !gs.historyDone {
		gs.trimHistory(sp.keep)
		gs.historyDone = atStart || (sp.firstTs >= 0 && sp.firstTs < sp.since) || gs.beforeEmpty(sp.keep)
	}
	if atStart {
		gs.hasClassic = true // none in the whole log
		gs.left = 0
	}
}

// trimHistory sorts the history by partition and offset and keeps, per partition, the keep
// newest commits made after its newest deletion (the commits before a deletion went with
// it).
func (gs *groupSearch) trimHistory(keep int) {
	slices.SortFunc(gs.hist, func(a, b histCommit) int {
		if c := model.CompareTP(gs.parts[a.part], gs.parts[b.part]); c != 0 {
			return c
		}
		return cmp.Compare(a.at, b.at)
	})
	out := gs.hist[:0]
	for i, h := range gs.hist {
		if cut, ok := gs.cutAt[gs.parts[h.part]]; ok && h.at < cut {
			continue
		}
		// Of a partition's commits, the keep newest: those with fewer than keep after them.
		after := 0
		for j := i + 1; j < len(gs.hist) && gs.hist[j].part == h.part && after < keep; j++ {
			after++
		}
		if after < keep {
			out = append(out, h)
		}
	}
	clear(gs.hist[len(out):])
	gs.hist = out
}

// beforeEmpty reports whether the history reached before the group's Empty record, so
// that older records do not matter: nothing before it was committed while the group had
// no members, and each partition committed since has the commit before (how far the first
// one moved its offset), or its keep newest commits. The history is trimmed.
func (gs *groupSearch) beforeEmpty(keep int) bool {
	if !gs.hasClassic || gs.classic == nil || gs.classic.Members != 0 {
		return false
	}
	for i := 0; i < len(gs.hist); {
		j := i
		for j < len(gs.hist) && gs.hist[j].part == gs.hist[i].part {
			j++
		}
		if _, deleted := gs.cutAt[gs.parts[gs.hist[i].part]]; j-i < keep && gs.hist[i].at > gs.classicAt && !deleted {
			return false
		}
		i = j
	}
	return true
}

// commitLog is what the search gives group gs at readAt: its recent commits only when they
// hold minTimes distinct commit times.
func (sp *searchPartition) commitLog(gs *groupSearch, readAt time.Time, window time.Duration, minTimes int) *model.CommitLog {
	l := &model.CommitLog{Status: model.CommitLogRead, Partition: sp.p, ReadAt: readAt}
	if !gs.complete() {
		l.Status, l.Reason = sp.status, sp.reason
		if l.Status == "" { // the partition ended without this group's records: not expected
			l.Status, l.Reason = model.CommitLogPartial, "the search ended before the group's records"
		}
		return l
	}
	for i, f := range gs.commits {
		if f.found {
			if l.Commits == nil {
				l.Commits = make([]model.CommitRecord, 0, gs.len())
			}
			l.Commits = append(l.Commits, f.record(gs.need.Commits[i]))
		}
	}
	if gs.classic != nil {
		c := *gs.classic
		l.Classic = &c
	}
	if gs.need.History {
		l.Recent = gs.recent(readAt.Add(-window).UnixMilli(), minTimes)
	}
	return l
}

// len is how many of need.Commits were found.
func (gs *groupSearch) len() int {
	n := 0
	for i := range gs.commits {
		if gs.commits[i].found {
			n++
		}
	}
	return n
}

// recent is the history's commits made at or after since, by partition, oldest first;
// none when they hold fewer than minTimes distinct commit times (not offsettui's own).
func (gs *groupSearch) recent(since int64, minTimes int) []model.CommitRecord {
	times := map[int64]bool{}
	n := 0
	for _, h := range gs.hist {
		if h.atMs >= since {
			n++
			if !h.own {
				times[h.atMs] = true
			}
		}
	}
	if n == 0 || len(times) < minTimes {
		return nil
	}
	out := make([]model.CommitRecord, 0, n)
	for _, h := range gs.hist {
		if h.atMs >= since {
			out = append(out, model.CommitRecord{TP: gs.parts[h.part], Offset: h.offset, CommittedAt: time.UnixMilli(h.atMs), Own: h.own})
		}
	}
	return out
}

// record is the commit as a model.CommitRecord of tp.
func (f foundCommit) record(tp model.TP) model.CommitRecord {
	rec := model.CommitRecord{TP: tp, Offset: f.offset, CommittedAt: time.UnixMilli(f.atMs), Own: f.own}
	if f.expireMs >= 0 {
		rec.ExpiresAt = time.UnixMilli(f.expireMs)
	}
	return rec
}
