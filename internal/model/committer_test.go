package model

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func record(s float64, moved int64) CommitSeen {
	return CommitSeen{At: at(s), Moved: moved, Source: SeenCommitLog}
}

func own(s float64, moved int64) CommitSeen {
	c := record(s, moved)
	c.Own = true
	return c
}

func move(from, to float64, moved int64, src string) CommitSeen {
	return CommitSeen{At: at(to), After: at(from), Moved: moved, Source: src}
}

func TestDetectCommitter(t *testing.T) {
	cases := []struct {
		name string
		seen []CommitSeen
		now  float64
		// want: nil, or the commits, interval (ms, -1 for null), rate and sources.
		want     bool
		commits  int
		interval int64
		rate     float64
		sources  string
	}{
		{name: "nothing seen", now: 10},
		{name: "a commit made once (a reset)", seen: []CommitSeen{record(1, 50)}, now: 2},
		{name: "a reset and its undo", seen: []CommitSeen{record(1, 0), record(20, 50)}, now: 21},
		{name: "a reset in three requests within a second", seen: []CommitSeen{record(1, 0), record(1.3, 0), record(1.6, 0)}, now: 2},
		{name: "one request: its partitions' records share a commit time", seen: []CommitSeen{record(1, 10), record(1, 10), record(1, 10)}, now: 2},
		{name: "every 300 ms", seen: []CommitSeen{record(0, 0), record(0.3, 3), record(0.6, 3), record(0.9, 3), record(1.2, 3)}, now: 1.3,
			want: true, commits: 5, interval: 300, rate: 10, sources: "commit-log"},
		{name: "every 2 s from the log, moving 20/s", seen: []CommitSeen{record(0, 0), record(2, 40), record(4, 40), record(6, 40)}, now: 7,
			want: true, commits: 4, interval: 2000, rate: 20, sources: "commit-log"},
		{name: "every 2 s on an idle partition: the same offset again", seen: []CommitSeen{record(0, 0), record(2, 0), record(4, 0)}, now: 5,
			want: true, commits: 3, interval: 2000, rate: 0, sources: "commit-log"},
		{name: "every 30 s from the log", seen: []CommitSeen{record(0, 0), record(30, 150), record(60, 150)}, now: 80,
			want: true, commits: 3, interval: 30000, rate: 5, sources: "commit-log"},
		{name: "stopped: its last commit is past three intervals and 5 s", seen: []CommitSeen{record(0, 0), record(2, 40), record(4, 40)}, now: 15.1},
		{name: "still fresh just within three intervals and 5 s", seen: []CommitSeen{record(0, 0), record(2, 40), record(4, 40)}, now: 15,
			want: true, commits: 3, interval: 2000, rate: 20, sources: "commit-log"},
		{name: "moves across snapshots: no interval", seen: []CommitSeen{move(0, 5, 100, SeenTimeAxis), move(5, 10, 100, SeenTimeAxis), move(10, 15, 100, SeenTimeAxis)}, now: 15,
			want: true, commits: 3, interval: -1, rate: 20, sources: "time-axis"},
		{name: "a move that holds a commit record is not counted twice",
			seen: []CommitSeen{record(1, 0), record(3, 40), move(2, 5, 40, SeenTimeAxis)}, now: 6},
		{name: "a move that is a record seen again: counted once, listed both ways",
			seen: []CommitSeen{record(1, 0), record(3, 40), record(5, 40), move(2, 4, 40, SeenTimeAxis)}, now: 6,
			want: true, commits: 3, interval: 2000, rate: 20, sources: "commit-log,time-axis"},
		{name: "a seed, then offsettui's reset, undo and reset again: its own writes are no committer",
			seen: []CommitSeen{record(0, 0), own(1, 0), own(2, 30), own(3, 0)}, now: 3.5},
		{name: "a move that holds offsettui's own record is explained by it",
			seen: []CommitSeen{record(0, 0), own(2, 30), move(1, 3, 30, SeenTimeAxis), record(4, 0)}, now: 4.5},
		{name: "a committer beside offsettui's writes: only its commits count",
			seen: []CommitSeen{record(0, 0), own(1, 0), record(2, 40), record(4, 40)}, now: 5,
			want: true, commits: 3, interval: 2000, rate: 20, sources: "commit-log"},
		{name: "moves and records together",
			seen: []CommitSeen{record(1, 0), record(3, 40), move(4, 8, 40, SeenObservation)}, now: 8,
			want: true, commits: 3, interval: 2000, rate: 80.0 / 7, sources: "commit-log,observation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DetectCommitter(c.seen, at(c.now))
			if !c.want {
				if got != nil {
					t.Fatalf("flagged %+v, want nothing", *got)
				}
				return
			}
			if got == nil {
				t.Fatal("not flagged")
			}
			interval := int64(-1)
			if got.IntervalMs.OK {
				interval = got.IntervalMs.V
			}
			sources := ""
			for i, s := range got.Seen {
				if i > 0 {
					sources += ","
				}
				sources += s
			}
			if got.Commits != c.commits || interval != c.interval || sources != c.sources || got.Rate < c.rate-0.01 || got.Rate > c.rate+0.01 {
				t.Errorf("got %d commits, interval %d, rate %.2f, seen %s; want %d, %d, %.2f, %s",
					got.Commits, interval, got.Rate, sources, c.commits, c.interval, c.rate, c.sources)
			}
		})
	}
}

func TestMovesBetween(t *testing.T) {
	a, b := TP{"t", 0}, TP{"t", 1}
	cases := []struct {
		name        string
		before, now map[TP]int64
		changed     bool
		moved       int64
	}{
		{"the same", map[TP]int64{a: 5, b: 7}, map[TP]int64{a: 5, b: 7}, false, 0},
		{"forward", map[TP]int64{a: 5, b: 7}, map[TP]int64{a: 9, b: 8}, true, 5},
		{"back (a reset): moved nothing forward, still a change", map[TP]int64{a: 5}, map[TP]int64{a: 0}, true, 0},
		{"a first commit", map[TP]int64{a: 5}, map[TP]int64{a: 5, b: 3}, true, 0},
		{"a deleted commit is no move", map[TP]int64{a: 5, b: 3}, map[TP]int64{a: 5}, false, 0},
	}
	for _, c := range cases {
		got, changed := MovesBetween(c.before, c.now, at(0), at(1), SeenObservation)
		if changed != c.changed || got.Moved != c.moved || !got.At.Equal(at(1)) || !got.After.Equal(at(0)) {
			t.Errorf("%s: changed %v moved %d (%v..%v), want %v %d", c.name, changed, got.Moved, got.After, got.At, c.changed, c.moved)
		}
	}
}

// logOf is a complete commit log of one partition with a commit at each second given
// (offsets 10 apart), and classic as its last GroupMetadata record.
func logOf(classic *ClassicRecord, secs ...float64) *CommitLog {
	l := &CommitLog{Status: CommitLogRead, Classic: classic}
	for i, s := range secs {
		l.Recent = append(l.Recent, CommitRecord{TP: TP{"t", 0}, Offset: int64(10 * i), CommittedAt: at(s)})
	}
	return l
}

func TestSeenWithoutMembers(t *testing.T) {
	emptyAt := func(s float64) *ClassicRecord { return &ClassicRecord{ProtocolType: "consumer", StateAt: at(s)} }
	cases := []struct {
		name  string
		log   *CommitLog
		typ   string
		since float64 // -1: not known
		want  int
	}{
		{"a classic group that never had a member: every commit", logOf(nil, 1, 3, 5), TypeClassic, -1, 3},
		{"after the classic group became Empty", logOf(emptyAt(2), 1, 3, 5), TypeClassic, -1, 2},
		{"a classic group whose last record has members: since the caller knows", logOf(&ClassicRecord{Members: 1}, 1, 3, 5), TypeClassic, 4, 1},
		{"a consumer-protocol group: since the caller knows", logOf(nil, 1, 3, 5), TypeConsumer, 2, 2},
		{"a consumer-protocol group, since unknown: none", logOf(nil, 1, 3, 5), TypeConsumer, -1, 0},
		{"a share group: never", logOf(nil, 1, 3, 5), TypeShare, 0, 0},
		{"a log not read to its end: none", &CommitLog{Status: CommitLogPartial, Recent: logOf(nil, 1, 3, 5).Recent}, TypeClassic, -1, 0},
		{"no log", nil, TypeClassic, -1, 0},
	}
	for _, c := range cases {
		since := time.Time{}
		if c.since >= 0 {
			since = at(c.since)
		}
		got := c.log.SeenWithoutMembers(c.typ, since)
		if len(got) != c.want {
			t.Errorf("%s: %d commits, want %d", c.name, len(got), c.want)
		}
		for _, s := range got {
			if s.Source != SeenCommitLog || !s.After.IsZero() {
				t.Errorf("%s: %+v is not a commit record", c.name, s)
			}
		}
	}
	got := logOf(nil, 1, 3, 5).SeenWithoutMembers(TypeClassic, time.Time{})
	if got[0].Moved != 0 || got[1].Moved != 10 || got[2].Moved != 10 {
		t.Errorf("moved %d %d %d, want 0 10 10", got[0].Moved, got[1].Moved, got[2].Moved)
	}
}
