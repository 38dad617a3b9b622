package check

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// A Stable group whose member subscribes to t holds an expired commit on stale: the check
// passes, naming stale; with --topic stale it judges stale whole and fails.
func TestCheckNotConsumed(t *testing.T) {
	active := ckPart(0, 0, 10, model.Ptr(int64(10)), model.StatusOK)
	active.Subscribed = model.Ptr(true)
	stale := ckPart(0, 80, 100, model.Ptr(int64(20)), model.StatusExpired)
	stale.Topic, stale.Subscribed = "stale", model.Ptr(false)
	s := ckSnap([]model.GroupPartition{active, stale}, week, ckTopic("stale", (7*day).Milliseconds(), -1))
	g := &s.Groups[0]
	g.State, g.ProtocolType, g.OffsetsExpireAfterMs = "Stable", "consumer", nil
	g.Members = []model.Member{{MemberRef: model.MemberRef{MemberID: "m"}, Subscription: &model.Subscription{Topics: []string{"t"}}}}
	g.UnsubscribedTopics = []string{"stale"}

	r := Check(s, "g", Options{})
	if r.Verdict != VerdictPass || r.Counts.Pass != 2 || len(r.Partitions) != 2 {
		t.Fatalf("verdict %s counts %+v (%s), want pass", r.Verdict, r.Counts, r.Summary)
	}
	if !strings.Contains(r.Summary, "1 partition proven") || !strings.Contains(r.Summary, "not consumed, not judged: stale") {
		t.Errorf("summary %q: want 1 partition proven and stale named", r.Summary)
	}
	p := r.Partitions[1]
	if p.Topic != "stale" || p.Status != model.StatusExpired || !p.Pass || len(p.Reasons) != 0 || len(p.Notes) != 1 ||
		p.Notes[0].Code != CodeNotConsumed || !strings.Contains(p.Notes[0].Message, "its members subscribe to t") {
		t.Errorf("stale partition %+v", p)
	}
	var note *Reason
	for i := range r.Notes {
		if r.Notes[i].Code == CodeNotConsumed {
			note = &r.Notes[i]
		}
	}
	if note == nil || !strings.Contains(note.Message, "topic stale") || !strings.Contains(note.Message, "offsets.retention.minutes (7d) after it was made (KIP-496)") {
		t.Errorf("group notes %+v: want the not-consumed note naming stale and the 7d expiry", r.Notes)
	}

	// --topic stale: judged whole, expired fails.
	r = Check(s, "g", Options{Topics: []string{"stale"}})
	if r.Verdict != VerdictFail || len(r.Partitions) != 1 || r.Partitions[0].Reasons[0].Code != CodeExpired {
		t.Errorf("--topic stale: %s %+v, want fail (expired)", r.Verdict, r.Partitions)
	}
}
