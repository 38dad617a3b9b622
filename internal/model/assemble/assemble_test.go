package assemble

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

var now = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

func i64(v int64) *int64 { return &v }

func TestAssembleRollupsAndPartitionSet(t *testing.T) {
	tp := func(p int32) model.TP { return model.TP{Topic: "orders", Partition: p} }
	obs := model.Observation{
		TakenAt: now, OffsetsRetentionMinutes: i64(10080), AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{"orders": {Topic: "orders", Partitions: 4, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1)},
			"other": {Topic: "other", Partitions: 2, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{
			tp(0): {Low: i64(0), High: i64(10)}, tp(1): {Low: i64(5), High: i64(10)},
			tp(2): {Low: i64(0), High: i64(10)}, tp(3): {Low: i64(0), High: i64(10)},
			{Topic: "other", Partition: 1}: {Low: i64(0), High: i64(3)},
		},
		Groups: []model.GroupObservation{
			{Group: "a", State: "Empty", Committed: map[model.TP]int64{tp(0): 4, tp(1): 2, tp(2): 30}},
			{Group: "b", State: "Stable", Committed: map[model.TP]int64{},
				Members: []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}, Assignments: []model.Assignment{{Topic: "other", Partitions: []int32{1}}}}}},
			{Group: "c", State: "Empty", Error: &model.Error{Kind: model.KindDenied, Message: "no"}},
		},
	}
	s := Snapshot(obs, Options{})
	// The urgency order: lost records (a, expired) before what cannot be told (c,
	// unknown), before a commit that is missing (b).
	if len(s.Groups) != 3 || s.Groups[0].Group != "a" || s.Groups[1].Group != "c" || s.Groups[2].Group != "b" {
		t.Fatalf("order = %v; want a (expired), c (unknown), b (missing)", []string{s.Groups[0].Group, s.Groups[1].Group, s.Groups[2].Group})
	}
	a := s.Groups[0]
	if len(a.Partitions) != 4 {
		t.Fatalf("a has %d partitions; want 4 (3 commits + the other partition of orders)", len(a.Partitions))
	}
	if a.TotalLag == nil || *a.TotalLag != 14 || a.TotalLagAtLeast != nil {
		t.Errorf("totalLag = %s (at least %s), want 14 (6 + 8; the ahead partition's -20 is not summed)", text.Num(a.TotalLag), text.Num(a.TotalLagAtLeast))
	}
	if a.Counts[model.StatusExpired] != 1 || a.Counts[model.StatusAhead] != 1 || a.Counts[model.StatusMissing] != 1 || a.Counts[model.StatusOK] != 1 {
		t.Errorf("counts = %v", a.Counts)
	}
	if a.OffsetsExpireAfterMs == nil || *a.OffsetsExpireAfterMs != 10080*60000 {
		t.Errorf("offsetsExpireAfterMs = %v", text.Num(a.OffsetsExpireAfterMs))
	}
	b := s.Groups[2]
	if len(b.Partitions) != 1 || b.Partitions[0].Status != model.StatusMissing || b.Partitions[0].Member == nil || b.OffsetsExpireAfterMs != nil {
		t.Errorf("b = %+v", b)
	}
	if c := s.Groups[1]; c.WorstStatus != model.StatusUnknown || len(c.Partitions) != 0 {
		t.Errorf("c = %+v", c)
	}
	// --topic keeps the groups with rows on the topic, and the groups that could
	// not be read (they might have rows there): c's error must not vanish.
	if f := Snapshot(obs, Options{Topics: []string{"other"}}); len(f.Groups) != 2 || f.Groups[0].Group != "c" || f.Groups[1].Group != "b" {
		t.Errorf("--topic other keeps %d groups, want c (unreadable) and b", len(f.Groups))
	}
}

// TestSnapshotJSONShape checks the conventions of docs/json.md: nulls are written,
// lists are [] and times are UTC with milliseconds.
func TestSnapshotJSONShape(t *testing.T) {
	s := Snapshot(model.Observation{TakenAt: time.Date(2026, 11, 29, 8, 53, 36, 123456789, time.FixedZone("x", 3600)), AllTopicsVisible: model.Ptr(true),
		Groups:  []model.GroupObservation{{Group: "g", State: "Empty", Committed: map[model.TP]int64{{Topic: "t", Partition: 0}: 1}}},
		Topics:  map[string]model.Topic{"t": {Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)}},
		Offsets: map[model.TP]model.PartitionOffsets{{Topic: "t", Partition: 0}: {Low: i64(0), High: i64(1)}},
	}, Options{})
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		`"takenAt":"2026-11-29T07:53:36.123Z"`, `"members":[]`, `"errors":[]`, `"offsetsRetentionMinutes":null`,
		`"counts":{"ok":1}`, `"lost":null`, `"committedTimestamp":null`, `"member":null`, `"error":null`,
		`"worstStatus":"ok"`, `"timeLagMs":0`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON lacks %s:\n%s", want, got)
		}
	}
}

// groupPartitions: every partition of a committed topic, commits beyond what
// metadata knows, assigned partitions and whole topics, sorted, each once.
func TestGroupPartitionsSet(t *testing.T) {
	topics := map[string]model.Topic{"a": {Partitions: 2}, "b": {Partitions: 1}, "w": {Partitions: 2}}
	tp := func(t string, p int32) model.TP { return model.TP{Topic: t, Partition: p} }
	for _, tc := range []struct {
		name   string
		commit []model.TP
		owner  []model.TP
		whole  []string
		want   []model.TP
		extra  []model.TP
	}{
		{"one topic, every partition", []model.TP{tp("a", 1), tp("a", 0)}, nil, nil, []model.TP{tp("a", 0), tp("a", 1)}, nil},
		{"one commit expands its topic", []model.TP{tp("b", 0), tp("a", 1)}, nil, nil, []model.TP{tp("a", 0), tp("a", 1), tp("b", 0)}, nil},
		{"beyond metadata and unknown topic", []model.TP{tp("a", 5), tp("z", 0), tp("a", 0)}, nil, nil,
			[]model.TP{tp("a", 0), tp("a", 1), tp("a", 5), tp("z", 0)}, nil},
		{"assigned, no commit", nil, []model.TP{tp("b", 0), tp("a", 1)}, nil, []model.TP{tp("a", 1), tp("b", 0)}, nil},
		{"assigned and committed", []model.TP{tp("a", 0)}, []model.TP{tp("a", 1), tp("b", 0)}, nil, []model.TP{tp("a", 0), tp("a", 1), tp("b", 0)}, nil},
		{"whole topics", []model.TP{tp("a", 0)}, nil, []string{"w", "a"}, []model.TP{tp("a", 0), tp("a", 1), tp("w", 0), tp("w", 1)}, nil},
		{"nothing", nil, nil, nil, []model.TP{}, nil},
		{"extra partitions, their topics not expanded", []model.TP{tp("b", 0)}, nil, nil, []model.TP{tp("a", 1), tp("b", 0), tp("z", 3)},
			[]model.TP{tp("z", 3), tp("a", 1), tp("b", 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			positions := map[model.TP]int64{}
			for _, c := range tc.commit {
				positions[c] = 1
			}
			var owner map[model.TP]*model.MemberRef
			for _, o := range tc.owner {
				if owner == nil {
					owner = map[model.TP]*model.MemberRef{}
				}
				owner[o] = &model.MemberRef{}
			}
			got := groupPartitions(positions, tc.extra, owner, topics, tc.whole)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAssembleFlagsACommitterFromTheLog: one snapshot whose group without members has a
// commit log showing a committer is flagged; the same group with a member is not.
func TestAssembleFlagsACommitterFromTheLog(t *testing.T) {
	tp := model.TP{Topic: "t", Partition: 0}
	at := func(s int) time.Time { return now.Add(time.Duration(s) * time.Second) }
	logOf := func(secs ...int) *model.CommitLog {
		l := &model.CommitLog{Status: model.CommitLogRead}
		for i, s := range secs {
			l.Recent = append(l.Recent, model.CommitRecord{TP: tp, Offset: int64(10 * i), CommittedAt: at(s)})
		}
		return l
	}
	obs := model.Observation{TakenAt: at(6), Topics: map[string]model.Topic{"t": {Topic: "t", Partitions: 1}},
		Offsets: map[model.TP]model.PartitionOffsets{tp: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(100))}},
		Groups: []model.GroupObservation{
			{Group: "job", Type: model.TypeClassic, State: "Empty", Members: []model.Member{}, Committed: map[model.TP]int64{tp: 20}, CommitLog: logOf(1, 3, 5)},
			{Group: "svc", Type: model.TypeClassic, State: "Stable", Members: []model.Member{{}}, Committed: map[model.TP]int64{tp: 20}, CommitLog: logOf(1, 3, 5)},
		}}
	s := Snapshot(obs, Options{})
	for _, g := range s.Groups {
		switch {
		case g.Group == "job" && (g.Committer == nil || g.Committer.IntervalMs.V != 2000 || g.CommitLog == nil):
			t.Errorf("job: committer %+v", g.Committer)
		case g.Group == "svc" && g.Committer != nil:
			t.Errorf("svc has a member, yet a committer: %+v", g.Committer)
		}
	}
}
