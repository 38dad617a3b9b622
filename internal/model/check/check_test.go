package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

var ckNow = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

// ckTopic is a topic with cleanup.policy=delete, retention.ms ms and
// retention.bytes bytes.
func ckTopic(name string, ms, bytes int64) model.Topic {
	return model.Topic{Topic: name, Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(ms), RetentionBytes: model.Ptr(bytes)}
}

var week = ckTopic("t", (7 * day).Milliseconds(), -1)

// ckPart is a classified partition of topic t (nil committed = no commit).
func ckPart(p int32, low, high int64, committed *int64, st model.Status) model.GroupPartition {
	gp := model.GroupPartition{Topic: "t", Partition: p, Low: model.Ptr(low), High: model.Ptr(high), Committed: committed, Status: st}
	if committed != nil {
		gp.Lag = model.Ptr(high - *committed)
		switch st {
		case model.StatusExpired:
			gp.SetLost(model.Ptr(low - *committed))
		case model.StatusAhead:
			gp.SetBeyond(model.Ptr(*committed - high))
		}
	}
	return gp
}

// ckSnap is a snapshot of one Empty group "g" with parts, and topics.
func ckSnap(parts []model.GroupPartition, topics ...model.Topic) model.Snapshot {
	return model.Snapshot{
		Cluster: model.Cluster{Bootstrap: "b:9092", Brokers: 3, TakenAt: model.Stamp{Time: ckNow}, OffsetsRetentionMinutes: model.Ptr(int64(10080))},
		Groups: []model.Group{{Group: "g", Type: "classic", State: "Empty", Members: []model.Member{}, Partitions: parts,
			OffsetsExpireAfterMs: model.Ptr(int64(10080 * 60000))}},
		Topics: topics, Errors: []model.Error{},
	}
}

func one(p model.GroupPartition, t ...model.Topic) model.Snapshot {
	if len(t) == 0 {
		t = []model.Topic{week}
	}
	return ckSnap([]model.GroupPartition{p}, t...)
}

func codes(rs []Reason) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Code)
	}
	return out
}

func TestCheck(t *testing.T) {
	denied := &model.Error{Kind: model.KindDenied, Code: model.Ptr("TOPIC_AUTHORIZATION_FAILED"), Message: "list offsets: denied"}
	atRisk := ckPart(0, 0, 100, model.Ptr(int64(10)), model.StatusAtRisk)
	atRisk.ExpiresInMs = model.Ptr((2 * time.Hour).Milliseconds())
	unknownGroup := ckSnap(nil, week)
	unknownGroup.Groups[0].Partitions = []model.GroupPartition{}
	unknownGroup.Groups[0].State = "Dead"
	unknownGroup.Groups[0].OffsetsExpireAfterMs = nil
	emptyGroup := ckSnap([]model.GroupPartition{}, week)
	groupErr := ckSnap([]model.GroupPartition{{Topic: "t", Partition: 0, Status: model.StatusUnknown, Error: denied}}, week)
	groupErr.Groups[0].Error = &model.Error{Kind: model.KindDenied, Code: model.Ptr("GROUP_AUTHORIZATION_FAILED"), Message: "fetch committed offsets: denied", Group: model.Ptr("g")}
	brokerErr := one(ckPart(0, 0, 10, model.Ptr(int64(5)), model.StatusOK))
	brokerErr.Errors = []model.Error{{Kind: model.KindTimeout, Message: "list groups: i/o timeout", Broker: model.Ptr(int32(2))}}
	twoAndOne := ckSnap([]model.GroupPartition{
		ckPart(0, 30, 40, model.Ptr(int64(12)), model.StatusExpired),
		{Topic: "t", Partition: 1, Status: model.StatusUnknown, Error: denied},
	}, week)
	noTopic := ckSnap([]model.GroupPartition{}, model.Topic{Topic: "nope", Error: &model.Error{Kind: model.KindNotFound, Code: model.Ptr("UNKNOWN_TOPIC_OR_PARTITION"), Message: "metadata: unknown topic"}})
	short := ckSnap([]model.GroupPartition{ckPart(0, 0, 10, model.Ptr(int64(5)), model.StatusOK)}, week)
	short.Topics[0].Partitions = 2 // t-1 exists but is not in the group's partitions
	otherTopic := ckSnap([]model.GroupPartition{ckPart(0, 30, 40, model.Ptr(int64(12)), model.StatusExpired),
		{Topic: "u", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(5)), Committed: model.Ptr(int64(5)), Status: model.StatusOK}},
		week, ckTopic("u", day.Milliseconds(), -1))
	cfgErr := one(ckPart(0, 0, 10, model.Ptr(int64(5)), model.StatusOK), model.Topic{Topic: "t", Partitions: 1,
		Error: &model.Error{Kind: model.KindDenied, Code: model.Ptr("TOPIC_AUTHORIZATION_FAILED"), Message: "describe configs: denied", Topic: model.Ptr("t")}})

	ok := ckPart(0, 0, 10, model.Ptr(int64(5)), model.StatusOK)
	missing0 := ckPart(0, 0, 40, nil, model.StatusMissing)
	missing30 := ckPart(0, 30, 40, nil, model.StatusMissing)
	tests := []struct {
		name     string
		snap     model.Snapshot
		opts     Options
		verdict  Verdict
		reasons  []string // reason codes of the first partition
		notes    []string // note codes of the first partition (nil: not checked)
		problems []string
		summary  []string // substrings of the verdict line
	}{
		{name: "all pass", snap: one(ok), verdict: VerdictPass, reasons: []string{}, notes: []string{CodeRetentionCovers},
			summary: []string{"PASS g: 1 partition proven (retention 7d)"}},
		{name: "all pass at high", snap: one(ckPart(0, 3, 10, model.Ptr(int64(10)), model.StatusOK)), verdict: VerdictPass, reasons: []string{}},
		{name: "expired", snap: one(ckPart(0, 30, 40, model.Ptr(int64(12)), model.StatusExpired)), verdict: VerdictFail,
			reasons: []string{CodeExpired}, notes: []string{CodeOnRestart, CodeRetentionCovers},
			summary: []string{"FAIL g: 1 of 1 partitions fail (t-0 expired: 18 records 12..29 deleted before the group read them)"}},
		{name: "expired one record", snap: one(ckPart(0, 30, 40, model.Ptr(int64(29)), model.StatusExpired)), verdict: VerdictFail,
			reasons: []string{CodeExpired}, summary: []string{"1 record 29 deleted"}},
		{name: "ahead", snap: one(ckPart(0, 0, 100, model.Ptr(int64(150)), model.StatusAhead)), verdict: VerdictFail,
			reasons: []string{CodeAhead}, summary: []string{"committed 150 is 50 beyond the high watermark 100", "jumps to 100"}},
		{name: "ahead earliest", snap: one(ckPart(0, 0, 100, model.Ptr(int64(150)), model.StatusAhead)), opts: Options{AssumeReset: model.ResetEarliest},
			verdict: VerdictFail, reasons: []string{CodeAhead}, summary: []string{"resumes at the log start 0"}},
		{name: "missing low>0 latest", snap: one(missing30), verdict: VerdictFail, reasons: []string{CodeMissing},
			summary: []string{"log starts at 30: records 0..29 were deleted, so loss cannot be ruled out", "also skips the 10 stored records 30..39"}},
		{name: "missing low>0 earliest", snap: one(missing30), opts: Options{AssumeReset: model.ResetEarliest}, verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"loss cannot be ruled out)"}},
		{name: "missing low>0 none", snap: one(missing30), opts: Options{AssumeReset: model.ResetNone}, verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"none refuses to start"}},
		{name: "missing low=0 earliest", snap: one(missing0), opts: Options{AssumeReset: model.ResetEarliest}, verdict: VerdictPass,
			reasons: []string{}, notes: []string{CodeStartsAtLow, CodeRetentionCovers}, summary: []string{"PASS g: 1 partition proven"}},
		{name: "missing low=0 latest", snap: one(missing0), opts: Options{AssumeReset: model.ResetLatest}, verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"latest (the client default)", "the 40 stored records 0..39"}},
		{name: "missing low=0 default is latest", snap: one(missing0), verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"40 stored records"}},
		{name: "missing low=0 none", snap: one(missing0), opts: Options{AssumeReset: model.ResetNone}, verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"refuse to start"}},
		{name: "missing empty partition latest", snap: one(ckPart(0, 0, 0, nil, model.StatusMissing)), verdict: VerdictFail,
			reasons: []string{CodeMissing}, summary: []string{"none stored yet"}},
		{name: "at-risk with expiry", snap: one(atRisk), verdict: VerdictFail, reasons: []string{CodeAtRisk},
			summary: []string{"record 10, the next the group reads, can be deleted as soon as 2026-11-29T10:00:00.000Z (in 2h), within the 1d risk window"}},
		{name: "at-risk overdue", snap: one(func() model.GroupPartition { p := atRisk; p.ExpiresInMs = model.Ptr(int64(-60000)); return p }()),
			verdict: VerdictFail, reasons: []string{CodeAtRisk}, summary: []string{"deleted now (its retention ran out 1m ago)"}},
		{name: "at-risk without timestamp", snap: one(ckPart(0, 0, 100, model.Ptr(int64(10)), model.StatusAtRisk)), opts: Options{RiskWindow: 36 * time.Hour},
			verdict: VerdictFail, reasons: []string{CodeAtRisk}, summary: []string{"can be deleted, within the 1d12h risk window"}},
		{name: "retention shorter than window", snap: one(ok, ckTopic("t", (3*day).Milliseconds(), -1)), opts: Options{RecoveryWindow: 7 * day},
			verdict: VerdictFail, reasons: []string{CodeRetentionShort}, summary: []string{"retention 3d (retention.ms=259200000) is shorter than the 7d recovery window"}},
		{name: "retention equal to window", snap: one(ok, ckTopic("t", (3*day).Milliseconds(), -1)), opts: Options{RecoveryWindow: 3 * day},
			verdict: VerdictPass, reasons: []string{}, summary: []string{"(retention 3d covers the 3d recovery window)"}},
		{name: "infinite retention", snap: one(ok, ckTopic("t", -1, -1)), opts: Options{RecoveryWindow: 365 * day},
			verdict: VerdictPass, reasons: []string{}, notes: []string{CodeInfinite}, summary: []string{"infinite retention"}},
		{name: "infinite retention bytes 0", snap: one(ok, ckTopic("t", -1, 0)), verdict: VerdictPass, notes: []string{CodeInfinite}},
		{name: "retention.bytes with window", snap: one(ok, ckTopic("t", (7*day).Milliseconds(), 1<<20)), opts: Options{RecoveryWindow: time.Hour},
			verdict: VerdictFail, reasons: []string{CodeSizeRetention}, summary: []string{"size-based retention (retention.bytes=1048576)", "1h recovery window cannot be proved"}},
		{name: "retention.bytes and -1 with window", snap: one(ok, ckTopic("t", -1, 1<<20)), opts: Options{RecoveryWindow: time.Hour},
			verdict: VerdictFail, reasons: []string{CodeSizeRetention}},
		{name: "retention.bytes without window", snap: one(ok, ckTopic("t", (7*day).Milliseconds(), 1<<20)), verdict: VerdictPass,
			reasons: []string{}, notes: []string{CodeRetentionCovers, CodeSizeNote}},
		{name: "compacted", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact"), RetentionMs: model.Ptr(int64(1000)), RetentionBytes: model.Ptr(int64(-1))}),
			opts: Options{RecoveryWindow: 30 * day}, verdict: VerdictPass, reasons: []string{}, notes: []string{CodeCompacted},
			summary: []string{"compacted (cleanup.policy=compact): retention does not delete by time"}},
		{name: "empty policy (KIP-1161) with a short retention.ms", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr(""), RetentionMs: model.Ptr(int64(60000)), RetentionBytes: model.Ptr(int64(1 << 20))}),
			opts: Options{RecoveryWindow: 30 * day}, verdict: VerdictPass, reasons: []string{}, notes: []string{CodeInfinite},
			summary: []string{"PASS g: 1 partition proven (never deleted (cleanup.policy empty): retention deletes nothing"}},
		{name: "empty policy on a tiered topic", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr(""), RetentionMs: model.Ptr(int64(60000)), RetentionBytes: model.Ptr(int64(-1)), RemoteStorage: model.Ptr(true)}),
			opts: Options{RecoveryWindow: day}, verdict: VerdictPass, reasons: []string{}, notes: []string{CodeInfinite},
			summary: []string{"local segments still go by local.retention.*"}},
		{name: "policy not returned", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, RetentionMs: model.Ptr(int64(60000)), RetentionBytes: model.Ptr(int64(-1))}),
			verdict: VerdictIncomplete, reasons: []string{CodeTopicConfig}},
		{name: "compact,delete too short", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("compact,delete"), RetentionMs: model.Ptr(day.Milliseconds()), RetentionBytes: model.Ptr(int64(-1))}),
			opts: Options{RecoveryWindow: 2 * day}, verdict: VerdictFail, reasons: []string{CodeRetentionShort}, notes: []string{CodeCompacted}},
		{name: "unknown status", snap: one(model.GroupPartition{Topic: "t", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(9)), Committed: model.Ptr(int64(3)), Status: model.StatusUnknown}),
			verdict: VerdictIncomplete, reasons: []string{CodeUnknown}, summary: []string{"INCOMPLETE g: 1 of 1 partitions could not be proven (t-0 unknown: status unknown"}},
		{name: "partition denied", snap: one(model.GroupPartition{Topic: "t", Partition: 0, Status: model.StatusUnknown, Error: denied}),
			verdict: VerdictIncomplete, reasons: []string{CodeUnknown}, summary: []string{"TOPIC_AUTHORIZATION_FAILED"}},
		{name: "topic config denied", snap: cfgErr, verdict: VerdictIncomplete, reasons: []string{CodeTopicConfig}},
		{name: "topic config absent", snap: ckSnap([]model.GroupPartition{ok}), verdict: VerdictIncomplete, reasons: []string{CodeTopicConfig}},
		{name: "retention.bytes not returned", snap: one(ok, model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(int64(1000))}),
			verdict: VerdictIncomplete, reasons: []string{CodeTopicConfig}},
		{name: "2 outranks 1", snap: twoAndOne, verdict: VerdictIncomplete, reasons: []string{CodeExpired},
			summary: []string{"INCOMPLETE g: 1 of 2 partitions could not be proven, 1 fail (t-1 unknown: cannot read"}},
		{name: "group does not exist", snap: unknownGroup, verdict: VerdictIncomplete, problems: []string{CodeNothingToCheck},
			summary: []string{"INCOMPLETE g: nothing to check: group g does not exist (no commits, no members)", "offsets.retention.minutes (10080 = 7d)", "pass --topic"}},
		{name: "empty group without commits", snap: emptyGroup, verdict: VerdictIncomplete, problems: []string{CodeNothingToCheck},
			summary: []string{"group g (Empty, 0 members) has no commits", "deleted its commits"}},
		{name: "group not in snapshot", snap: model.Snapshot{Groups: []model.Group{}}, verdict: VerdictIncomplete, problems: []string{CodeUnreadable}},
		{name: "group denied", snap: groupErr, verdict: VerdictIncomplete, reasons: []string{CodeUnknown}, problems: []string{CodeUnreadable},
			summary: []string{"cannot read the group", "GROUP_AUTHORIZATION_FAILED"}},
		{name: "broker error", snap: brokerErr, verdict: VerdictIncomplete, reasons: []string{}, problems: []string{CodeUnreadable},
			summary: []string{"INCOMPLETE g: the proof could not be completed (broker 2 (timeout): list groups: i/o timeout)"}},
		{name: "--topic does not exist", snap: noTopic, opts: Options{Topics: []string{"nope"}}, verdict: VerdictIncomplete,
			problems: []string{CodeTopicNotFound}, summary: []string{"topic nope (--topic) does not exist (UNKNOWN_TOPIC_OR_PARTITION)"}},
		{name: "--topic partition not in snapshot", snap: short, opts: Options{Topics: []string{"t"}}, verdict: VerdictIncomplete,
			reasons: []string{}, problems: []string{CodeUnreadable}, summary: []string{"partition t-1 is missing from the snapshot"}},
		{name: "--topic keeps only its topics", snap: otherTopic, opts: Options{Topics: []string{"u"}}, verdict: VerdictPass,
			reasons: []string{}, summary: []string{"PASS g: 1 partition proven (retention 1d)"}},
		{name: "pass names each topic's retention", snap: ckSnap([]model.GroupPartition{ok,
			{Topic: "u", Partition: 0, Low: model.Ptr(int64(0)), High: model.Ptr(int64(5)), Committed: model.Ptr(int64(5)), Status: model.StatusOK}},
			week, ckTopic("u", day.Milliseconds(), -1)), verdict: VerdictPass, reasons: []string{},
			summary: []string{"PASS g: 2 partitions proven (t: retention 7d; u: retention 1d)"}},
		{name: "several topics say which", snap: otherTopic, verdict: VerdictFail, reasons: []string{CodeExpired},
			summary: []string{"FAIL g: 1 of 2 partitions fail"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Check(tc.snap, "g", tc.opts)
			if r.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s; summary %q problems %+v", r.Verdict, tc.verdict, r.Summary, r.Problems)
			}
			if tc.reasons != nil {
				if len(r.Partitions) == 0 {
					t.Fatalf("no partitions")
				}
				if got := codes(r.Partitions[0].Reasons); !slices.Equal(got, tc.reasons) {
					t.Errorf("reasons %v, want %v (%+v)", got, tc.reasons, r.Partitions[0].Reasons)
				}
			}
			if tc.notes != nil {
				if got := codes(r.Partitions[0].Notes); !slices.Equal(got, tc.notes) {
					t.Errorf("notes %v, want %v", got, tc.notes)
				}
			}
			if tc.problems != nil {
				if got := codes(r.Problems); !slices.Equal(got, tc.problems) {
					t.Errorf("problems %v, want %v (%+v)", got, tc.problems, r.Problems)
				}
			}
			for _, s := range tc.summary {
				if !strings.Contains(r.Summary, s) {
					t.Errorf("summary %q\nlacks %q", r.Summary, s)
				}
			}
			for _, p := range r.Partitions {
				if p.Pass != (p.Result == VerdictPass) || p.Pass != (len(p.Reasons) == 0) {
					t.Errorf("%s: pass %v result %s reasons %v disagree", p.TP(), p.Pass, p.Result, codes(p.Reasons))
				}
			}
			if n := r.Counts; n.Pass+n.Fail+n.Incomplete != n.Partitions || n.Partitions != len(r.Partitions) {
				t.Errorf("counts %+v for %d partitions", n, len(r.Partitions))
			}
		})
	}
}

// TestCheckReasonResults: every reason says what it does, so JSON readers need
// not know the codes.
func TestCheckReasonResults(t *testing.T) {
	s := ckSnap([]model.GroupPartition{
		ckPart(0, 30, 40, model.Ptr(int64(12)), model.StatusExpired),
		{Topic: "t", Partition: 1, Status: model.StatusUnknown, Error: &model.Error{Kind: model.KindTimeout, Message: "i/o timeout"}},
	}, week)
	r := Check(s, "g", Options{})
	if got := r.Partitions[0].Reasons[0].Result; got != VerdictFail {
		t.Errorf("expired reason result %s", got)
	}
	if got := r.Partitions[1].Reasons[0]; got.Result != VerdictIncomplete || got.Error == nil || got.Error.Kind != model.KindTimeout {
		t.Errorf("unknown reason %+v", got)
	}
	if got := r.Partitions[0].Notes[0].Result; got != VerdictPass {
		t.Errorf("note result %s", got)
	}
	if r.Counts != (Counts{Partitions: 2, Fail: 1, Incomplete: 1}) {
		t.Errorf("counts %+v", r.Counts)
	}
}

// TestCheckGroupNotes: a group judged by --topic without commits or members says
// so (a typo in --group would otherwise look like a first start), and a recovery
// window as long as offsets.retention.minutes is flagged.
func TestCheckGroupNotes(t *testing.T) {
	s := one(ckPart(0, 0, 40, nil, model.StatusMissing))
	r := Check(s, "g", Options{Topics: []string{"t"}, AssumeReset: model.ResetEarliest, RecoveryWindow: 7 * day})
	if r.Verdict != VerdictPass || !slices.Equal(codes(r.Notes), []string{CodeGroupMissing, CodeCommitsExpire}) {
		t.Fatalf("verdict %s notes %+v", r.Verdict, r.Notes)
	}
	r = Check(one(ckPart(0, 0, 40, model.Ptr(int64(40)), model.StatusOK)), "g", Options{RecoveryWindow: day})
	if len(r.Notes) != 0 {
		t.Errorf("notes %+v, want none", r.Notes)
	}
}

func TestCheckUnread(t *testing.T) {
	r := Unread("g", Options{}, ckNow, "cannot connect: connection refused")
	if r.Verdict != VerdictIncomplete || !strings.Contains(r.Summary, "INCOMPLETE g: the proof could not be completed (cannot connect: connection refused)") {
		t.Errorf("%+v", r)
	}
	if r.Options.AssumeReset != model.ResetLatest || r.Options.RiskWindow != model.DefaultRiskWindow {
		t.Errorf("defaults not applied: %+v", r.Options)
	}
}

// TestCheckJSON: camelCase, nulls kept, [] never null, durations in ms.
func TestCheckJSON(t *testing.T) {
	r := Check(one(ckPart(0, 0, 0, nil, model.StatusMissing)), "g", Options{AssumeReset: model.ResetEarliest, RecoveryWindow: time.Hour})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"group", "state", "members", "takenAt", "options", "verdict", "exitCode", "summary", "counts", "partitions", "problems", "notes", "errors"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	for _, k := range []string{"problems", "errors"} {
		if l, ok := m[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %v, want []", k, m[k])
		}
	}
	if m["takenAt"] != "2026-11-29T08:00:00.000Z" || m["verdict"] != "pass" || m["exitCode"] != 0.0 {
		t.Errorf("takenAt %v verdict %v exitCode %v", m["takenAt"], m["verdict"], m["exitCode"])
	}
	opts := m["options"].(map[string]any)
	if opts["recoveryWindowMs"] != 3600000.0 || opts["assumeReset"] != "earliest" || opts["riskWindowMs"] != 86400000.0 {
		t.Errorf("options %v", opts)
	}
	if l, ok := opts["topics"].([]any); !ok || len(l) != 0 {
		t.Errorf("options.topics = %v, want []", opts["topics"])
	}
	p := m["partitions"].([]any)[0].(map[string]any)
	for _, k := range []string{"committed", "lost", "beyond", "expiresInMs", "error"} {
		if v, ok := p[k]; !ok || v != nil {
			t.Errorf("partition %s = %v (present %v), want null", k, v, ok)
		}
	}
	if l, ok := p["reasons"].([]any); !ok || len(l) != 0 || p["pass"] != true || p["result"] != "pass" || p["status"] != "missing" {
		t.Errorf("partition %v", p)
	}
	if n := p["notes"].([]any)[0].(map[string]any); n["code"] != CodeStartsAtLow || n["result"] != "pass" {
		t.Errorf("note %v", n)
	}
}
