package check

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// A commit the broker may delete within the risk window fails the check, naming the
// partition's time; one beyond it, or whose time is unknown and may be later, passes; an
// unknown time that cannot be later than the window (retention shorter than it) fails.
func TestCheckCommitExpiry(t *testing.T) {
	at := func(d time.Duration) *model.Stamp { return &model.Stamp{Time: ckNow.Add(d)} }
	for _, c := range []struct {
		name      string
		expireAt  *model.Stamp
		by        model.ExpiryRule
		latest    *model.Stamp
		verdict   Verdict
		inMessage string
		require   bool // --commit-log=on
	}{
		{"in 3h, by commit time", at(3 * time.Hour), model.ExpiryCommitTime, nil, VerdictFail, "at 2026-11-29T11:00:00.000Z (in 3h), offsets.retention.minutes (1m) after the commit", false},
		{"due, by Empty time", at(-time.Minute), model.ExpiryEmptyTime, nil, VerdictFail, "(due: at the broker's next sweep), offsets.retention.minutes (1m) after the group became Empty", false},
		{"in 2 days", at(48 * time.Hour), model.ExpiryCommitTime, nil, VerdictPass, "", false},
		{"never (subscribed)", nil, model.ExpiryNever, nil, VerdictPass, "", false},
		{"unknown, at most 7d away", nil, model.ExpiryCommitTime, at(7 * day), VerdictPass, "", false},
		{"unknown, at most 1m away", nil, model.ExpiryCommitTime, at(time.Minute), VerdictFail, "by 2026-11-29T08:01:00.000Z at the latest", false},
		{"unknown, at most 7d away, --commit-log=on", nil, model.ExpiryCommitTime, at(7 * day), VerdictFail,
			"its commit time could not be read: denied), and --commit-log=on requires it", true},
		{"in 2 days, --commit-log=on", at(48 * time.Hour), model.ExpiryCommitTime, nil, VerdictPass, "", true},
		{"never, --commit-log=on", nil, model.ExpiryNever, nil, VerdictPass, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			gp := ckPart(0, 0, 10, model.Ptr(int64(10)), model.StatusOK)
			gp.CommitsExpireAt, gp.CommitsExpireBy = c.expireAt, c.by
			s := one(gp)
			s.Groups[0].CommitsExpiry = &model.CommitExpiry{Rule: c.by, RetentionMs: 60_000, Latest: c.latest,
				CommitLog: model.CommitLogDenied, CommitLogReason: model.Ptr("denied")}
			if c.latest != nil {
				s.Groups[0].CommitsExpiry.UnknownTime = c.by
			}
			r := Check(s, "g", Options{RiskWindow: day, RequireCommitTimes: c.require})
			p := r.Partitions[0]
			if p.Result != c.verdict {
				t.Fatalf("verdict %s, want %s: %+v", p.Result, c.verdict, p.Reasons)
			}
			if c.verdict == VerdictFail {
				if len(p.Reasons) != 1 || p.Reasons[0].Code != CodeCommitsExpire || !strings.Contains(p.Reasons[0].Message, c.inMessage) {
					t.Errorf("reasons %+v, want %s containing %q", p.Reasons, CodeCommitsExpire, c.inMessage)
				}
			}
		})
	}
}

// check -o json carries describe's clock: the group's commitsExpireAt and commitsExpiry, and
// each partition's commitsExpireAt and commitsExpireBy, whatever the verdict.
func TestCheckCarriesTheClock(t *testing.T) {
	at := &model.Stamp{Time: ckNow.Add(48 * time.Hour)}
	gp := ckPart(0, 0, 10, model.Ptr(int64(10)), model.StatusOK)
	gp.CommitsExpireAt, gp.CommitsExpireBy = at, model.ExpiryCommitTime
	s := one(gp)
	s.Groups[0].CommitsExpireAt = at
	s.Groups[0].CommitsExpiry = &model.CommitExpiry{Rule: model.ExpiryCommitTime, RetentionMs: 60_000, CommitLog: model.CommitLogRead}
	r := Check(s, "g", Options{RiskWindow: day})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"commitsExpireAt":"2026-12-01T08:00:00.000Z","commitsExpiry":{"rule":"commit-time"`, `"commitLog":"read"`,
		`"commitsExpireAt":"2026-12-01T08:00:00.000Z","commitsExpireBy":"commit-time","deadlineMs":null,"result":"pass"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("check's JSON lacks %s:\n%s", want, b)
		}
	}
}
