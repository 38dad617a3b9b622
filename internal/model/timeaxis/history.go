package timeaxis

import (
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// History keeps every group partition's committed offset and high watermark
// over the last snapshots, so that rates are measured, never guessed. It is
// bounded and compact: per group, at most Keep sample times; per partition,
// two int64 per sample and the partition's name shared with the snapshot it
// came from. Not safe for concurrent use.
type History struct {
	keep   int
	minGap int64 // ms
	groups map[string]*groupHistory
}

type groupHistory struct {
	at []int64 // sample times, Unix milliseconds, oldest first
	// taken counts the snapshots each sample stands for: 1, or more when later
	// ones replaced it (minGap), so a window can say how many it spans.
	taken []int
	parts []partHistory // sorted by topic, partition
	// writes holds when this process last wrote each partition's position
	// (RecordWrite), Unix milliseconds.
	writes map[model.TP]int64
	// quiet is the time of the first sample of the run the group has had no members in
	// (committer.go); noQuiet while it has members or could not be read.
	quiet int64
}

type partHistory struct {
	tp model.TP
	// vals holds committed, high for each sample time: len(vals) == 2*len(at).
	vals []int64
	// lost holds the partition's lost count (low − committed) for each sample time, Unread
	// where it could not be read (losing.go); nil while it was 0 in every sample kept, as for
	// nearly every partition.
	lost []int64
}

// NewHistory keeps up to keep samples (at least 2) per group. A sample less
// than minGap after the one before the newest replaces the newest instead of
// being appended, so fast refreshes still leave a window at least about
// (keep−1)/2 × minGap long; 0 keeps every sample.
func NewHistory(keep int, minGap time.Duration) *History {
	return &History{keep: max(2, keep), minGap: minGap.Milliseconds(), groups: map[string]*groupHistory{}}
}

// NewWatchHistory is the history of a session that refreshes until it is stopped (the TUI,
// describe --watch): 16 samples, a sample closer than stallAfter/4 to the one before the
// newest replacing the newest, so fast refreshes still leave a window of about
// 2 × stallAfter (docs/timeaxis.md).
func NewWatchHistory(stallAfter time.Duration) *History {
	return NewHistory(16, stallAfter/4)
}

// Add records every group of s at s.Cluster.TakenAt. A snapshot older than
// what is kept for a group is ignored for it. complete says that s lists every
// group still worth remembering (a full snapshot): the others are forgotten,
// which bounds the memory of a long session.
func (h *History) Add(s *model.Snapshot, complete bool) {
	at := s.Cluster.TakenAt.UnixMilli()
	for i := range s.Groups {
		h.addGroup(&s.Groups[i], at)
	}
	if complete {
		keep := make(map[string]bool, len(s.Groups))
		for i := range s.Groups {
			keep[s.Groups[i].Group] = true
		}
		for name := range h.groups {
			if !keep[name] {
				delete(h.groups, name)
			}
		}
	}
}

func (h *History) addGroup(g *model.Group, at int64) {
	gh := h.groups[g.Group]
	if gh == nil {
		gh = &groupHistory{quiet: noQuiet}
		h.groups[g.Group] = gh
	}
	n := len(gh.at)
	slot, drop := n, false
	switch {
	case n > 0 && at < gh.at[n-1]:
		return // older than what is kept: out of order
	case n > 0 && at == gh.at[n-1]:
		slot = n - 1 // the same snapshot again
	case n >= 2 && at-gh.at[n-2] < h.minGap:
		slot = n - 1 // too close: the newest is replaced
	case n == h.keep:
		slot, drop = n-1, true
	}
	if drop {
		copy(gh.at, gh.at[1:])
		copy(gh.taken, gh.taken[1:])
	}
	switch {
	case slot == len(gh.at):
		gh.at, gh.taken = append(gh.at, at), append(gh.taken, 1)
	case at == gh.at[slot] && !drop: // the same snapshot again
	case drop:
		gh.at[slot], gh.taken[slot] = at, 1
	default: // replaces the newest: one more snapshot in the window
		gh.at[slot] = at
		gh.taken[slot]++
	}
	gh.parts = mergeParts(gh.parts, g, len(gh.at), slot, drop)
	gh.forgetBeforeWrites()
	gh.noteMembers(g, at)
}

// mergeParts writes g's partitions into slot, keeping the series of those
// still present, starting new ones and dropping those g no longer has.
func mergeParts(old []partHistory, g *model.Group, samples, slot int, drop bool) []partHistory {
	if samePartitions(old, g) { // the usual case: written in place, nothing allocated
		for i := range old {
			p := &g.Partitions[i]
			old[i].tp = p.TP() // share the newest snapshot's strings, not the oldest's
			old[i].vals = writeSample(old[i].vals, committedSample(p, g), highSample(p), samples, slot, drop)
			old[i].lost = writeLost(old[i].lost, lostSample(p, g), 0, samples, slot, drop)
		}
		return old
	}
	order := sortedPartitions(g)
	out := make([]partHistory, 0, len(order))
	i := 0
	for _, pi := range order {
		p := &g.Partitions[pi]
		tp := p.TP()
		for i < len(old) && model.CompareTP(old[i].tp, tp) < 0 {
			i++
		}
		ph, dropOld, before := partHistory{tp: tp}, drop, int64(0)
		if i < len(old) && model.CompareTP(old[i].tp, tp) == 0 {
			ph.vals, ph.lost = old[i].vals, old[i].lost
		} else { // a new series: unread until now, nothing old to drop
			ph.vals, dropOld, before = make([]int64, 2*(samples-1), 2*samples), false, Unread
			for k := range ph.vals {
				ph.vals[k] = Unread
			}
		}
		ph.vals = writeSample(ph.vals, committedSample(p, g), highSample(p), samples, slot, dropOld)
		ph.lost = writeLost(ph.lost, lostSample(p, g), before, samples, slot, dropOld)
		out = append(out, ph)
	}
	return out
}

// samePartitions reports whether g has exactly the partitions kept, in the
// same order.
func samePartitions(old []partHistory, g *model.Group) bool {
	if len(old) != len(g.Partitions) {
		return false
	}
	for i := range old {
		p := &g.Partitions[i]
		if old[i].tp.Partition != p.Partition || old[i].tp.Topic != p.Topic {
			return false
		}
	}
	return true
}

// writeSample writes committed and high into slot of a series of samples
// pairs (dropping the oldest pair first when drop is set).
func writeSample(vals []int64, committed, high int64, samples, slot int, drop bool) []int64 {
	if drop {
		copy(vals, vals[2:])
	}
	vals = vals[:2*min(slot, samples-1)]
	return append(vals, committed, high)
}

// sortedPartitions returns the indexes of g's partitions in topic, partition
// order (assemble.Snapshot already sorts them; this does not rely on it).
func sortedPartitions(g *model.Group) []int {
	idx := make([]int, len(g.Partitions))
	for i := range idx {
		idx[i] = i
	}
	if !slices.IsSortedFunc(g.Partitions, func(a, b model.GroupPartition) int { return model.CompareTP(a.TP(), b.TP()) }) {
		slices.SortFunc(idx, func(a, b int) int { return model.CompareTP(g.Partitions[a].TP(), g.Partitions[b].TP()) })
	}
	return idx
}

// committedSample is where the group stands: its committed offset, or the high watermark
// when only transaction markers lie between (the consumer's position is past them, so the
// partition is caught up, never standing still with lag).
func committedSample(p *model.GroupPartition, g *model.Group) int64 {
	switch {
	case g.Error != nil:
		return Unread
	case p.TransactionMarkers() != nil && p.High != nil:
		return *p.High
	case p.Committed != nil:
		return *p.Committed
	case p.Status == model.StatusUnknown:
		return Unread
	}
	return NoCommit
}

func highSample(p *model.GroupPartition) int64 {
	if p.High == nil {
		return Unread
	}
	return *p.High
}

// samples returns ph's series into buf.
func (gh *groupHistory) samples(ph *partHistory, buf []Sample) []Sample {
	buf = buf[:0]
	for k, at := range gh.at {
		buf = append(buf, Sample{AtMs: at, Committed: ph.vals[2*k], High: ph.vals[2*k+1]})
	}
	return buf
}

// Series returns the samples kept for one group partition, oldest first.
func (h *History) Series(group string, tp model.TP) []Sample {
	gh := h.groups[group]
	if gh == nil {
		return nil
	}
	i, ok := slices.BinarySearchFunc(gh.parts, tp, func(p partHistory, t model.TP) int { return model.CompareTP(p.tp, t) })
	if !ok {
		return nil
	}
	return gh.samples(&gh.parts[i], nil)
}

// snapshots is how many snapshots the group's kept samples span.
func (gh *groupHistory) snapshots() int {
	n := 0
	for _, k := range gh.taken {
		n += k
	}
	return n
}
