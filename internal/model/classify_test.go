package model

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/text"
)

var now = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

func i64(v int64) *int64 { return &v }

// classified is one group partition classified alone (the product classifies its rows in
// place: classifyInto).
func classified(in PartitionInput) GroupPartition {
	var p GroupPartition
	classifyInto(&p, in)
	return p
}

func topic(policy string, retentionMs int64) *Topic {
	return &Topic{Topic: "t", Partitions: 1, CleanupPolicy: Ptr(policy), RetentionMs: i64(retentionMs), RetentionBytes: i64(-1)}
}

// TestClassifyBoundaries walks every boundary of docs/statuses.md's status table.
func TestClassifyBoundaries(t *testing.T) {
	day := int64(24 * time.Hour / time.Millisecond)
	week := 7 * day
	// Risk offset 50: records below 50 are older than now − retention + window.
	offs := PartitionOffsets{Low: i64(10), High: i64(100), LastStable: i64(100), RiskOffset: i64(50)}
	cases := []struct {
		name      string
		committed *int64
		offs      PartitionOffsets
		topic     *Topic
		want      Status
		lag       *int64
		lost      *int64
		beyond    *int64
	}{
		{"committed = low-1 is expired", i64(9), offs, topic("delete", week), StatusExpired, i64(91), i64(1), nil},
		{"committed far below low", i64(0), offs, topic("delete", week), StatusExpired, i64(100), i64(10), nil},
		{"committed = low, old record, is at-risk", i64(10), offs, topic("delete", week), StatusAtRisk, i64(90), nil, nil},
		{"committed = risk-1 is at-risk", i64(49), offs, topic("delete", week), StatusAtRisk, i64(51), nil, nil},
		{"committed = risk offset is ok", i64(50), offs, topic("delete", week), StatusOK, i64(50), nil, nil},
		{"committed = high is ok with lag 0", i64(100), offs, topic("delete", week), StatusOK, i64(0), nil, nil},
		{"committed = high+1 is ahead", i64(101), offs, topic("delete", week), StatusAhead, i64(-1), nil, i64(1)},
		{"no commit, low > 0 is missing", nil, offs, topic("delete", week), StatusMissing, nil, nil, nil},
		{"no commit, low = 0 is missing", nil, PartitionOffsets{Low: i64(0), High: i64(5), RiskOffset: i64(0)}, topic("delete", week), StatusMissing, nil, nil, nil},
		{"compact-only is never at-risk", i64(10), PartitionOffsets{Low: i64(10), High: i64(100)}, topic("compact", week), StatusOK, i64(90), nil, nil},
		{"compact,delete can be at-risk", i64(10), offs, topic("compact,delete", week), StatusAtRisk, i64(90), nil, nil},
		{"retention -1 is never at-risk", i64(10), PartitionOffsets{Low: i64(10), High: i64(100)}, topic("delete", -1), StatusOK, i64(90), nil, nil},
		{"no record after the threshold: all at risk", i64(99), PartitionOffsets{Low: i64(10), High: i64(100), RiskOffset: i64(-1)}, topic("delete", week), StatusAtRisk, i64(1), nil, nil},
		{"risk lookup missing is unknown", i64(20), PartitionOffsets{Low: i64(10), High: i64(100)}, topic("delete", week), StatusUnknown, i64(80), nil, nil},
		{"empty policy (KIP-1161) is never at-risk", i64(10), offs, topic("", 60000), StatusOK, i64(90), nil, nil},
		{"empty policy, no risk lookup, is ok", i64(10), PartitionOffsets{Low: i64(10), High: i64(100)}, topic("", 60000), StatusOK, i64(90), nil, nil},
		{"policy not returned is unknown", i64(20), offs, &Topic{Topic: "t", Partitions: 1, RetentionMs: i64(week)}, StatusUnknown, i64(80), nil, nil},
		{"topic configs missing is unknown", i64(20), offs, nil, StatusUnknown, i64(80), nil, nil},
		{"topic config error is unknown", i64(20), offs, &Topic{Topic: "t", Error: &Error{Kind: KindDenied, Message: "no"}}, StatusUnknown, i64(80), nil, nil},
		{"expired is known without configs", i64(5), offs, nil, StatusExpired, i64(95), i64(5), nil},
		{"watermark error is unknown", i64(20), PartitionOffsets{Error: &Error{Kind: KindTimeout, Message: "slow"}}, topic("delete", week), StatusUnknown, nil, nil, nil},
		{"high missing is unknown", i64(20), PartitionOffsets{Low: i64(0)}, topic("delete", week), StatusUnknown, nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := classified(PartitionInput{Committed: c.committed, Offsets: c.offs, Topic: c.topic, Now: now})
			if p.Status != c.want {
				t.Errorf("status = %v, want %v", p.Status, c.want)
			}
			for _, f := range []struct {
				name      string
				got, want *int64
			}{{"lag", p.Lag, c.lag}, {"lost", p.Lost(), c.lost}, {"beyond", p.Beyond(), c.beyond}} {
				if (f.got == nil) != (f.want == nil) || (f.got != nil && *f.got != *f.want) {
					t.Errorf("%s = %v, want %v", f.name, text.Num(f.got), text.Num(f.want))
				}
			}
			if p.Status == StatusUnknown && c.offs.Error != nil && p.Error == nil {
				t.Errorf("unknown without its error")
			}
		})
	}
}

// TestAtRiskAroundTheWindowEdge derives the risk offset from record timestamps the
// way a broker's timestamp lookup would, and checks records just inside and just
// outside now − retention + window.
func TestAtRiskAroundTheWindowEdge(t *testing.T) {
	ret := 72 * time.Hour
	window := 24 * time.Hour
	top := Topic{Topic: "t", Partitions: 1, CleanupPolicy: Ptr("delete"), RetentionMs: i64(ret.Milliseconds())}
	edge, ok := RiskThreshold(top, now, window)
	if !ok || !edge.Equal(now.Add(-48*time.Hour)) {
		t.Fatalf("threshold = %v, %v; want now-48h", edge, ok)
	}
	for _, c := range []struct {
		name string
		ts   time.Time
		want Status
	}{
		{"a millisecond older than the edge", edge.Add(-time.Millisecond), StatusAtRisk},
		{"exactly at the edge (expires exactly at the window's end)", edge, StatusOK},
		{"a millisecond newer than the edge", edge.Add(time.Millisecond), StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Offsets 0..9; the record at 5 has ts; earlier ones are older, later newer.
			risk := int64(5)
			if c.ts.Before(edge) {
				risk = 6 // the first record at or after the edge is the next one
			}
			ts := c.ts
			p := classified(PartitionInput{Committed: i64(5), Offsets: PartitionOffsets{Low: i64(0), High: i64(10), RiskOffset: &risk},
				Topic: &top, CommittedTimestamp: &ts, Now: now})
			if p.Status != c.want {
				t.Errorf("status = %v, want %v", p.Status, c.want)
			}
			wantExp := ts.Add(ret).Sub(now).Milliseconds()
			if p.ExpiresInMs == nil || *p.ExpiresInMs != wantExp {
				t.Errorf("expiresIn = %v, want %d", text.Num(p.ExpiresInMs), wantExp)
			}
			if p.TimeLagMs == nil || *p.TimeLagMs != now.Sub(ts).Milliseconds() {
				t.Errorf("timeLag = %v", text.Num(p.TimeLagMs))
			}
		})
	}
}

func TestAssembleRollupsAndPartitionSet(t *testing.T) {
	tp := func(p int32) TP { return TP{"orders", p} }
	obs := Observation{
		TakenAt: now, OffsetsRetentionMinutes: i64(10080), AllTopicsVisible: Ptr(true),
		Topics: map[string]Topic{"orders": {Topic: "orders", Partitions: 4, CleanupPolicy: Ptr("delete"), RetentionMs: i64(-1)},
			"other": {Topic: "other", Partitions: 2, CleanupPolicy: Ptr("delete"), RetentionMs: i64(-1)}},
		Offsets: map[TP]PartitionOffsets{
			tp(0): {Low: i64(0), High: i64(10)}, tp(1): {Low: i64(5), High: i64(10)},
			tp(2): {Low: i64(0), High: i64(10)}, tp(3): {Low: i64(0), High: i64(10)},
			{"other", 1}: {Low: i64(0), High: i64(3)},
		},
		Groups: []GroupObservation{
			{Group: "a", State: "Empty", Committed: map[TP]int64{tp(0): 4, tp(1): 2, tp(2): 30}},
			{Group: "b", State: "Stable", Committed: map[TP]int64{},
				Members: []Member{{MemberRef: MemberRef{MemberID: "m"}, Assignments: []Assignment{{Topic: "other", Partitions: []int32{1}}}}}},
			{Group: "c", State: "Empty", Error: &Error{Kind: KindDenied, Message: "no"}},
		},
	}
	s := Assemble(obs, AssembleOptions{})
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
	if a.Counts[StatusExpired] != 1 || a.Counts[StatusAhead] != 1 || a.Counts[StatusMissing] != 1 || a.Counts[StatusOK] != 1 {
		t.Errorf("counts = %v", a.Counts)
	}
	if a.OffsetsExpireAfterMs == nil || *a.OffsetsExpireAfterMs != 10080*60000 {
		t.Errorf("offsetsExpireAfterMs = %v", text.Num(a.OffsetsExpireAfterMs))
	}
	b := s.Groups[2]
	if len(b.Partitions) != 1 || b.Partitions[0].Status != StatusMissing || b.Partitions[0].Member == nil || b.OffsetsExpireAfterMs != nil {
		t.Errorf("b = %+v", b)
	}
	if c := s.Groups[1]; c.WorstStatus != StatusUnknown || len(c.Partitions) != 0 {
		t.Errorf("c = %+v", c)
	}
	// --topic keeps the groups with rows on the topic, and the groups that could
	// not be read (they might have rows there): c's error must not vanish.
	if f := Assemble(obs, AssembleOptions{Topics: []string{"other"}}); len(f.Groups) != 2 || f.Groups[0].Group != "c" || f.Groups[1].Group != "b" {
		t.Errorf("--topic other keeps %d groups, want c (unreadable) and b", len(f.Groups))
	}
}

// TestSnapshotJSONShape checks the conventions of docs/json.md: nulls are written,
// lists are [] and times are UTC with milliseconds.
func TestSnapshotJSONShape(t *testing.T) {
	s := Assemble(Observation{TakenAt: time.Date(2026, 11, 29, 8, 53, 36, 123456789, time.FixedZone("x", 3600)), AllTopicsVisible: Ptr(true),
		Groups:  []GroupObservation{{Group: "g", State: "Empty", Committed: map[TP]int64{{"t", 0}: 1}}},
		Topics:  map[string]Topic{"t": {Topic: "t", Partitions: 1, CleanupPolicy: Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1)}},
		Offsets: map[TP]PartitionOffsets{{"t", 0}: {Low: i64(0), High: i64(1)}},
	}, AssembleOptions{})
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
	topics := map[string]Topic{"a": {Partitions: 2}, "b": {Partitions: 1}, "w": {Partitions: 2}}
	tp := func(t string, p int32) TP { return TP{t, p} }
	for _, tc := range []struct {
		name   string
		commit []TP
		owner  []TP
		whole  []string
		want   []TP
		extra  []TP
	}{
		{"one topic, every partition", []TP{tp("a", 1), tp("a", 0)}, nil, nil, []TP{tp("a", 0), tp("a", 1)}, nil},
		{"one commit expands its topic", []TP{tp("b", 0), tp("a", 1)}, nil, nil, []TP{tp("a", 0), tp("a", 1), tp("b", 0)}, nil},
		{"beyond metadata and unknown topic", []TP{tp("a", 5), tp("z", 0), tp("a", 0)}, nil, nil,
			[]TP{tp("a", 0), tp("a", 1), tp("a", 5), tp("z", 0)}, nil},
		{"assigned, no commit", nil, []TP{tp("b", 0), tp("a", 1)}, nil, []TP{tp("a", 1), tp("b", 0)}, nil},
		{"assigned and committed", []TP{tp("a", 0)}, []TP{tp("a", 1), tp("b", 0)}, nil, []TP{tp("a", 0), tp("a", 1), tp("b", 0)}, nil},
		{"whole topics", []TP{tp("a", 0)}, nil, []string{"w", "a"}, []TP{tp("a", 0), tp("a", 1), tp("w", 0), tp("w", 1)}, nil},
		{"nothing", nil, nil, nil, []TP{}, nil},
		{"extra partitions, their topics not expanded", []TP{tp("b", 0)}, nil, nil, []TP{tp("a", 1), tp("b", 0), tp("z", 3)},
			[]TP{tp("z", 3), tp("a", 1), tp("b", 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			positions := map[TP]int64{}
			for _, c := range tc.commit {
				positions[c] = 1
			}
			var owner map[TP]*MemberRef
			for _, o := range tc.owner {
				if owner == nil {
					owner = map[TP]*MemberRef{}
				}
				owner[o] = &MemberRef{}
			}
			got := groupPartitions(positions, tc.extra, owner, topics, tc.whole)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// The index answers as the map does, for dense, sparse, negative and absent
// partitions.
func TestOffsetIndexIsTheMap(t *testing.T) {
	m := map[TP]PartitionOffsets{
		{"a", 0}: {Low: Ptr(int64(1))}, {"a", 1}: {High: Ptr(int64(2))}, {"a", 2}: {Low: Ptr(int64(3))},
		{"sparse", 0}: {Low: Ptr(int64(4))}, {"sparse", 7}: {High: Ptr(int64(5))}, {"sparse", 1 << 30}: {Low: Ptr(int64(6))},
		{"neg", -1}: {Low: Ptr(int64(7))},
	}
	x := IndexOffsets(m)
	for _, topic := range []string{"a", "sparse", "neg", "absent"} {
		for _, p := range []int32{-1, 0, 1, 2, 3, 7, 1 << 30} {
			got, want := x.Topic(topic).Get(p), m[TP{topic, p}]
			if got.Low != want.Low || got.High != want.High {
				t.Errorf("%s-%d: got %+v, want %+v", topic, p, got, want)
			}
		}
	}
}

// A listed snapshot claims nothing about offsets: every group unknown, no
// totals, no partitions, and it says it is loading.
func TestListedSnapshotClaimsNoOffsets(t *testing.T) {
	obs := Observation{Bootstrap: "k:9092", Brokers: 3, Groups: []GroupObservation{
		{Group: "b", Type: "classic", State: "Stable", Members: []Member{{MemberRef: MemberRef{MemberID: "m"}}},
			Committed: map[TP]int64{{"t", 0}: 5}},
		{Group: "a", Type: "consumer", State: "Empty"},
	}}
	s := ListedSnapshot(obs)
	if !s.Loading || len(s.Groups) != 2 || s.Groups[0].Group != "a" || len(s.Groups[1].Members) != 1 {
		t.Fatalf("got %+v", s)
	}
	for _, g := range s.Groups {
		if g.WorstStatus != StatusUnknown || g.TotalLag != nil || g.TotalLagAtLeast != nil || len(g.Partitions) != 0 || g.Members == nil {
			t.Errorf("%s: %+v claims more than the listing knows", g.Group, g)
		}
	}
	if b, _ := json.Marshal(s); strings.Contains(string(b), "oading") {
		t.Errorf("the loading mark is written out: %s", b)
	}
}

// TestEmptyPolicyHasNoExpiry: a record of a topic whose cleanup.policy is empty (KIP-1161)
// is never deleted by retention, so a partition behind on it has no expires-in, however
// old its committed record and however short retention.ms; the same partition on the
// default policy has one, already passed.
func TestEmptyPolicyHasNoExpiry(t *testing.T) {
	old := now.Add(-10 * time.Minute)
	offs := PartitionOffsets{Low: i64(0), High: i64(600), LastStable: i64(600), RiskOffset: i64(-1)}
	for _, c := range []struct {
		policy  string
		status  Status
		expires bool
	}{{"", StatusOK, false}, {"delete", StatusAtRisk, true}} {
		p := classified(PartitionInput{Committed: i64(0), Offsets: offs, Topic: topic(c.policy, 60000), CommittedTimestamp: &old, Now: now})
		if p.Status != c.status || (p.ExpiresInMs != nil) != c.expires || p.Error != nil {
			t.Errorf("cleanup.policy=%q: status %s, expiresInMs %v, error %v; want %s, expires %v", c.policy, p.Status, text.Num(p.ExpiresInMs), p.Error, c.status, c.expires)
		}
	}
}

// TestTopicPolicyWords: what each cleanup.policy means for retention, and the topic's JSON.
func TestTopicPolicyWords(t *testing.T) {
	for _, c := range []struct {
		name                  string
		topic                 Topic
		known, deletes, never bool
		json                  string
	}{
		{"delete", Topic{Topic: "d", CleanupPolicy: Ptr("delete")}, true, true, false, `"cleanupPolicy":"delete","deletedByRetention":true`},
		{"compact", Topic{Topic: "c", CleanupPolicy: Ptr("compact")}, true, false, false, `"cleanupPolicy":"compact","deletedByRetention":false`},
		{"compact,delete", Topic{Topic: "cd", CleanupPolicy: Ptr("compact,delete")}, true, true, false, `"cleanupPolicy":"compact,delete","deletedByRetention":true`},
		{"empty", Topic{Topic: "e", CleanupPolicy: Ptr("")}, true, false, true, `"cleanupPolicy":"","deletedByRetention":false`},
		{"not returned", Topic{Topic: "n"}, false, false, false, `"cleanupPolicy":null,"deletedByRetention":null`},
		{"denied", Topic{Topic: "x", CleanupPolicy: Ptr(""), Error: &Error{Kind: KindDenied, Message: "no"}}, false, false, false, `"cleanupPolicy":"","deletedByRetention":null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tp := c.topic
			if tp.ConfigKnown() != c.known || tp.Deletes() != c.deletes || tp.NeverDeleted() != c.never {
				t.Errorf("known %v deletes %v never %v, want %v %v %v", tp.ConfigKnown(), tp.Deletes(), tp.NeverDeleted(), c.known, c.deletes, c.never)
			}
			b, err := json.Marshal(tp)
			if err != nil || !strings.Contains(string(b), c.json) {
				t.Errorf("JSON %s (%v), want it to hold %s", b, err, c.json)
			}
			var back Topic
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tp) {
				t.Errorf("read back %+v (%v), want %+v", back, err, tp)
			}
		})
	}
}

// TestKnownPolicy: the names Kafka's cleanup.policy takes (and none: KIP-1161) are known;
// any other name is not, so a topic that carries one stays unknown.
func TestKnownPolicy(t *testing.T) {
	for s, want := range map[string]bool{"": true, " ": true, "delete": true, "compact": true, "compact,delete": true,
		"delete, compact": true, "delete,": false, "archive": false, "delete,archive": false, "Delete": false} {
		if got := KnownPolicy(s); got != want {
			t.Errorf("KnownPolicy(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzKnownPolicy: a policy called known either names nothing or names delete or compact,
// and one that names anything else is never known.
func FuzzKnownPolicy(f *testing.F) {
	for _, s := range []string{"", "delete", "compact,delete", " compact , delete ", "delete,", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !KnownPolicy(s) {
			return
		}
		if strings.TrimSpace(s) != "" && !policyHas(s, "delete") && !policyHas(s, "compact") {
			t.Fatalf("KnownPolicy(%q) but it names neither delete nor compact", s)
		}
		for _, part := range strings.Split(s, ",") {
			if p := strings.TrimSpace(part); strings.TrimSpace(s) != "" && p != "delete" && p != "compact" {
				t.Fatalf("KnownPolicy(%q) though it names %q", s, p)
			}
		}
	})
}
