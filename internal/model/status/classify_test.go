package status

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

var now = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

func i64(v int64) *int64 { return &v }

// classified is one group partition classified alone (the product classifies its rows in
// place: Classify).
func classified(in Input) model.GroupPartition {
	var p model.GroupPartition
	Classify(&p, in)
	return p
}

func topic(policy string, retentionMs int64) *model.Topic {
	return &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr(policy), RetentionMs: i64(retentionMs), RetentionBytes: i64(-1)}
}

// TestClassifyBoundaries walks every boundary of docs/statuses.md's status table.
func TestClassifyBoundaries(t *testing.T) {
	day := int64(24 * time.Hour / time.Millisecond)
	week := 7 * day
	// Risk offset 50: records below 50 are older than now − retention + window.
	offs := model.PartitionOffsets{Low: i64(10), High: i64(100), LastStable: i64(100), RiskOffset: i64(50)}
	cases := []struct {
		name      string
		committed *int64
		offs      model.PartitionOffsets
		topic     *model.Topic
		want      model.Status
		lag       *int64
		lost      *int64
		beyond    *int64
	}{
		{"committed = low-1 is expired", i64(9), offs, topic("delete", week), model.StatusExpired, i64(91), i64(1), nil},
		{"committed far below low", i64(0), offs, topic("delete", week), model.StatusExpired, i64(100), i64(10), nil},
		{"committed = low, old record, is at-risk", i64(10), offs, topic("delete", week), model.StatusAtRisk, i64(90), nil, nil},
		{"committed = risk-1 is at-risk", i64(49), offs, topic("delete", week), model.StatusAtRisk, i64(51), nil, nil},
		{"committed = risk offset is ok", i64(50), offs, topic("delete", week), model.StatusOK, i64(50), nil, nil},
		{"committed = high is ok with lag 0", i64(100), offs, topic("delete", week), model.StatusOK, i64(0), nil, nil},
		{"committed = high+1 is ahead", i64(101), offs, topic("delete", week), model.StatusAhead, i64(-1), nil, i64(1)},
		{"no commit, low > 0 is missing", nil, offs, topic("delete", week), model.StatusMissing, nil, nil, nil},
		{"no commit, low = 0 is missing", nil, model.PartitionOffsets{Low: i64(0), High: i64(5), RiskOffset: i64(0)}, topic("delete", week), model.StatusMissing, nil, nil, nil},
		{"compact-only is never at-risk", i64(10), model.PartitionOffsets{Low: i64(10), High: i64(100)}, topic("compact", week), model.StatusOK, i64(90), nil, nil},
		{"compact,delete can be at-risk", i64(10), offs, topic("compact,delete", week), model.StatusAtRisk, i64(90), nil, nil},
		{"retention -1 is never at-risk", i64(10), model.PartitionOffsets{Low: i64(10), High: i64(100)}, topic("delete", -1), model.StatusOK, i64(90), nil, nil},
		{"no record after the threshold: all at risk", i64(99), model.PartitionOffsets{Low: i64(10), High: i64(100), RiskOffset: i64(-1)}, topic("delete", week), model.StatusAtRisk, i64(1), nil, nil},
		{"risk lookup missing is unknown", i64(20), model.PartitionOffsets{Low: i64(10), High: i64(100)}, topic("delete", week), model.StatusUnknown, i64(80), nil, nil},
		{"empty policy (KIP-1161) is never at-risk", i64(10), offs, topic("", 60000), model.StatusOK, i64(90), nil, nil},
		{"empty policy, no risk lookup, is ok", i64(10), model.PartitionOffsets{Low: i64(10), High: i64(100)}, topic("", 60000), model.StatusOK, i64(90), nil, nil},
		{"policy not returned is unknown", i64(20), offs, &model.Topic{Topic: "t", Partitions: 1, RetentionMs: i64(week)}, model.StatusUnknown, i64(80), nil, nil},
		{"topic configs missing is unknown", i64(20), offs, nil, model.StatusUnknown, i64(80), nil, nil},
		{"topic config error is unknown", i64(20), offs, &model.Topic{Topic: "t", Error: &model.Error{Kind: model.KindDenied, Message: "no"}}, model.StatusUnknown, i64(80), nil, nil},
		{"expired is known without configs", i64(5), offs, nil, model.StatusExpired, i64(95), i64(5), nil},
		{"watermark error is unknown", i64(20), model.PartitionOffsets{Error: &model.Error{Kind: model.KindTimeout, Message: "slow"}}, topic("delete", week), model.StatusUnknown, nil, nil, nil},
		{"high missing is unknown", i64(20), model.PartitionOffsets{Low: i64(0)}, topic("delete", week), model.StatusUnknown, nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := classified(Input{Committed: c.committed, Offsets: c.offs, Topic: c.topic, Now: now})
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
			if p.Status == model.StatusUnknown && c.offs.Error != nil && p.Error == nil {
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
	top := model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(ret.Milliseconds())}
	edge, ok := RiskThreshold(top, now, window)
	if !ok || !edge.Equal(now.Add(-48*time.Hour)) {
		t.Fatalf("threshold = %v, %v; want now-48h", edge, ok)
	}
	for _, c := range []struct {
		name string
		ts   time.Time
		want model.Status
	}{
		{"a millisecond older than the edge", edge.Add(-time.Millisecond), model.StatusAtRisk},
		{"exactly at the edge (expires exactly at the window's end)", edge, model.StatusOK},
		{"a millisecond newer than the edge", edge.Add(time.Millisecond), model.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Offsets 0..9; the record at 5 has ts; earlier ones are older, later newer.
			risk := int64(5)
			if c.ts.Before(edge) {
				risk = 6 // the first record at or after the edge is the next one
			}
			ts := c.ts
			p := classified(Input{Committed: i64(5), Offsets: model.PartitionOffsets{Low: i64(0), High: i64(10), RiskOffset: &risk},
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

// TestEmptyPolicyHasNoExpiry: a record of a topic whose cleanup.policy is empty (KIP-1161)
// is never deleted by retention, so a partition behind on it has no expires-in, however
// old its committed record and however short retention.ms; the same partition on the
// default policy has one, already passed.
func TestEmptyPolicyHasNoExpiry(t *testing.T) {
	old := now.Add(-10 * time.Minute)
	offs := model.PartitionOffsets{Low: i64(0), High: i64(600), LastStable: i64(600), RiskOffset: i64(-1)}
	for _, c := range []struct {
		policy  string
		status  model.Status
		expires bool
	}{{"", model.StatusOK, false}, {"delete", model.StatusAtRisk, true}} {
		p := classified(Input{Committed: i64(0), Offsets: offs, Topic: topic(c.policy, 60000), CommittedTimestamp: &old, Now: now})
		if p.Status != c.status || (p.ExpiresInMs != nil) != c.expires || p.Error != nil {
			t.Errorf("cleanup.policy=%q: status %s, expiresInMs %v, error %v; want %s, expires %v", c.policy, p.Status, text.Num(p.ExpiresInMs), p.Error, c.status, c.expires)
		}
	}
}
