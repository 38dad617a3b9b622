package model

import (
	"slices"
	"time"
)

// Committers outside the group (docs/statuses.md#committers-outside-the-group): a client
// that commits a group's offsets without being a member of it, as a consumer with assign()
// and commitSync does (Flink, Spark, many hand-written services). The broker takes such a
// commit only while the group has no members, so the group looks Empty, Kafka's own tool
// resets it, and the committer's next commit silently undoes the reset.
//
// The evidence comes in two kinds, each a list of CommitSeen: moves of the committed
// offsets between two readings (snapshots of the time axis, or the readings of the
// observation before a write), which show that at least one commit landed between them;
// and commit records of __consumer_offsets, each with its exact commit time, which show
// commits that did not move anything too (a committer on an idle partition commits the same
// offset again).

// CommitSeen is one commit of a group seen while it had no members.
type CommitSeen struct {
	// At is when it was made: a commit record's commit time, or, for a move, when the
	// reading that showed it was taken.
	At time.Time
	// After is, for a move, when the reading before it was taken: the commit landed in
	// (After, At]. Zero for a commit record, whose time is exact.
	After time.Time
	// Moved is how far it moved the group's committed offsets forward, summed over its
	// partitions (0 when it committed the offsets they had).
	Moved int64
	// Source says where it was seen (Seen*).
	Source string
}

// Where a commit was seen.
const (
	// SeenCommitLog: a commit record of __consumer_offsets.
	SeenCommitLog = "commit-log"
	// SeenTimeAxis: a move between two snapshots (the TUI's refreshes, describe --sample
	// and --watch).
	SeenTimeAxis = "time-axis"
	// SeenObservation: a move during the observation before a write.
	SeenObservation = "observation"
)

// Committer says that a client outside a group keeps committing its offsets, and how
// often and how fast (JSON: docs/json.md). A group is flagged only when it has no
// members, at least CommitterMinCommits separate commits were seen since it was last
// seen with members, and the last of them is recent for their cadence
// (committerStale).
type Committer struct {
	// Seen lists where the commits were seen (Seen* values), in that order: a move that was a
	// commit record seen again counts once, but both ways are listed.
	Seen []string `json:"seen"`
	// Commits counts the separate commits seen: commit records of distinct times, or
	// moves between readings (each at least one commit).
	Commits int `json:"commits"`
	// First and Last are when the first and the last of them were made (for a move:
	// when it was seen).
	First Stamp `json:"first"`
	Last  Stamp `json:"last"`
	// IntervalMs is the median time between its commits, known only from commit records
	// (readings show at most one move each, not each commit); null otherwise.
	IntervalMs Opt[int64] `json:"intervalMs"`
	// Rate is how fast its commits moved the group's committed offsets, offsets per second
	// summed over the partitions, from the second commit seen to the last; 0 when it commits
	// the same offsets again (idle partitions).
	Rate float64 `json:"rate"`
}

// CommitterMinCommits is how many separate commits, after the group was last seen with
// members, make a committer. A reset and its undo are two: a commit made once, or twice,
// is not a committer.
const CommitterMinCommits = 3

// minCommitterSpan: commits that all fall within this span are a burst (a tool that writes
// a reset in several requests), not a committer.
const minCommitterSpan = time.Second

// DetectCommitter returns the committer the commits seen show at now, or nil. seen must
// hold only commits made while the group had no members (the callers know since when).
// Commit records of one time are one commit (one request); a move whose interval holds a
// commit record is that record seen again and is not counted twice; commits that all fall
// within minCommitterSpan are one burst of writes, not a committer.
func DetectCommitter(seen []CommitSeen, now time.Time) *Committer {
	evs := dedupeMoves(seen)
	if len(evs) < CommitterMinCommits {
		return nil
	}
	slices.SortStableFunc(evs, func(a, b CommitSeen) int { return a.At.Compare(b.At) })
	merged := make([]CommitSeen, 1, len(evs))
	merged[0] = evs[0]
	for _, e := range evs[1:] {
		// The records of one commit request share its commit time.
		if last := &merged[len(merged)-1]; e.At.Equal(last.At) && e.Source == last.Source {
			last.Moved += e.Moved
			continue
		}
		merged = append(merged, e)
	}
	first, last := merged[0], merged[len(merged)-1]
	if len(merged) < CommitterMinCommits || last.At.Sub(first.At) < minCommitterSpan {
		return nil
	}
	gaps := make([]time.Duration, 0, len(merged)-1)
	var logGaps []time.Duration
	var moved int64
	for i := 1; i < len(merged); i++ {
		gap := merged[i].At.Sub(merged[i-1].At)
		gaps = append(gaps, gap)
		if merged[i].Source == SeenCommitLog && merged[i-1].Source == SeenCommitLog {
			logGaps = append(logGaps, gap)
		}
		moved += merged[i].Moved
	}
	if now.Sub(last.At) > committerStale(median(gaps)) {
		return nil // it stopped: its last commit is long past its cadence
	}
	c := &Committer{Commits: len(merged), First: Stamp{first.At}, Last: Stamp{last.At}}
	for _, src := range []string{SeenCommitLog, SeenTimeAxis, SeenObservation} {
		// A move counted once as its record was still seen that way too.
		if slices.ContainsFunc(seen, func(e CommitSeen) bool { return e.Source == src && !e.At.Before(first.At) }) {
			c.Seen = append(c.Seen, src)
		}
	}
	if len(logGaps) > 0 {
		c.IntervalMs = Some(median(logGaps).Milliseconds())
	}
	if span := last.At.Sub(first.At); span > 0 {
		c.Rate = float64(moved) / span.Seconds()
	}
	return c
}

// committerStale is how long after its last commit a committer of cadence gap counts as
// stopped: three of its intervals, and a few seconds for the readings' own spacing.
func committerStale(gap time.Duration) time.Duration { return 3*gap + 5*time.Second }

// dedupeMoves returns seen without the moves whose interval holds a commit record.
func dedupeMoves(seen []CommitSeen) []CommitSeen {
	var records []time.Time
	for _, s := range seen {
		if s.Source == SeenCommitLog {
			records = append(records, s.At)
		}
	}
	out := make([]CommitSeen, 0, len(seen))
	for _, s := range seen {
		if s.Source != SeenCommitLog && slices.ContainsFunc(records, func(at time.Time) bool {
			return at.After(s.After) && !at.After(s.At)
		}) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// MovesBetween returns the commit that moved committed offsets from before (read at
// after) to now (read at at), as one CommitSeen from source, or false when nothing
// changed. A partition that gained a commit counts as moved; one that lost its commit (a
// delete, expiry) does not: no committer deletes.
func MovesBetween(before, now map[TP]int64, after, at time.Time, source string) (CommitSeen, bool) {
	changed := false
	var moved int64
	for tp, c := range now {
		b, had := before[tp]
		switch {
		case !had:
			changed = true
		case c != b:
			changed = true
			moved += max(0, c-b)
		}
	}
	return CommitSeen{At: at, After: after, Moved: moved, Source: source}, changed
}

// SeenWithoutMembers returns the commits l records of a group of type typ made while it had
// no members, as CommitSeen from the commit log: after the time l itself says the group
// became Empty (a classic group's last GroupMetadata record without members), all of them
// for a classic group with no GroupMetadata record (it never had a member: only commits
// from outside made it), else after since, the earliest time the caller knows it to have
// been without members (zero: not known, none). Moved is how far each commit moved its
// partition from the commit before it. Only a log read to its end says this; a share
// group's positions are the broker's, never a committer's.
func (l *CommitLog) SeenWithoutMembers(typ string, since time.Time) []CommitSeen {
	if !l.Complete() || typ == TypeShare || typ == TypeUnknown {
		return nil
	}
	from, all := since, false
	if typ == TypeClassic {
		switch c := l.Classic; {
		case c == nil:
			all = true
		case c.Members == 0 && !c.StateAt.IsZero():
			from = c.StateAt
		case c.Members == 0:
			from = c.WrittenAt
		}
	}
	if from.IsZero() && !all {
		return nil
	}
	var out []CommitSeen
	for i, r := range l.Recent {
		var moved int64
		if i > 0 && l.Recent[i-1].TP == r.TP {
			moved = max(0, r.Offset-l.Recent[i-1].Offset)
		}
		if all || r.CommittedAt.After(from) {
			out = append(out, CommitSeen{At: r.CommittedAt, Moved: moved, Source: SeenCommitLog})
		}
	}
	return out
}
