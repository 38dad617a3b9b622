package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The check: a fail-closed proof that one group can (re)start without losing
// records. Check is pure: it judges a classified Snapshot taken for the group
// (Query{Groups: [G]}, or with --topic Query{Topics: T, WholeTopics: true}).
// Anything it needs and cannot see makes the proof incomplete, never a pass.

// auto.offset.reset values a consumer can have (--assume-reset).
const (
	ResetEarliest = "earliest"
	ResetLatest   = "latest" // the Kafka client default
	ResetNone     = "none"
)

// ParseAssumeReset checks an --assume-reset value; "" means latest, the Kafka
// client default.
func ParseAssumeReset(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", ResetLatest:
		return ResetLatest, nil
	case ResetEarliest:
		return ResetEarliest, nil
	case ResetNone:
		return ResetNone, nil
	}
	return "", fmt.Errorf("want earliest, latest or none (the consumer's auto.offset.reset), got %q", s)
}

// CheckOptions say what the check proves.
type CheckOptions struct {
	// Topics checks every partition of these topics (no commit = missing); empty
	// checks the group's partitions as describe lists them.
	Topics []string
	// RecoveryWindow is how long the service may be down and still resume without
	// loss; 0 asks for no window.
	RecoveryWindow time.Duration
	// AssumeReset is the consumer's auto.offset.reset ("" = latest).
	AssumeReset string
	// RiskWindow is the at-risk look-ahead the snapshot was taken with (0 = 24h).
	RiskWindow time.Duration
}

// MarshalJSON writes durations as milliseconds and topics as [] when empty.
func (o CheckOptions) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Topics           []string `json:"topics"`
		RecoveryWindowMs int64    `json:"recoveryWindowMs"`
		AssumeReset      string   `json:"assumeReset"`
		RiskWindowMs     int64    `json:"riskWindowMs"`
	}{append([]string{}, o.Topics...), o.RecoveryWindow.Milliseconds(), o.AssumeReset, o.RiskWindow.Milliseconds()})
}

// Verdict is the outcome of a check, or of one partition of it.
type Verdict string

// Verdicts; incomplete outranks fail.
const (
	VerdictPass       Verdict = "pass"
	VerdictFail       Verdict = "fail"
	VerdictIncomplete Verdict = "incomplete"
)

// ExitCode is the process exit code of a verdict (docs/cli.md): 0 pass, 1 fail,
// 2 incomplete.
func (v Verdict) ExitCode() int {
	switch v {
	case VerdictPass:
		return 0
	case VerdictFail:
		return 1
	}
	return 2
}

func (v Verdict) rank() int { return v.ExitCode() }

// Reason codes. Failures: the partition can lose records. Incomplete: something
// needed could not be read. Notes: why a partition passes, or what to know.
const (
	CodeExpired         = "expired"
	CodeAhead           = "ahead"
	CodeMissing         = "missing"
	CodeAtRisk          = "at-risk"
	CodeRetentionShort  = "retention-shorter-than-window"
	CodeSizeRetention   = "size-based-retention"
	CodeUnknown         = "unknown"
	CodeTopicConfig     = "topic-config-unreadable"
	CodeTopicNotFound   = "topic-not-found"
	CodeUnreadable      = "unreadable"
	CodeNothingToCheck  = "nothing-to-check"
	CodeRetentionCovers = "retention-covers-window"
	CodeInfinite        = "infinite-retention"
	CodeCompacted       = "compacted"
	CodeSizeNote        = "size-based-retention-note"
	CodeStartsAtLow     = "starts-at-low"
	CodeOnRestart       = "on-restart"
	CodeGroupMissing    = "group-does-not-exist"
	CodeCommitsExpire   = "commits-expire"
	CodeHiddenTopics    = "topics-may-be-hidden"
)

// CheckReason is one finding. Result is what it does to its item: fail or
// incomplete for reasons and problems, pass for notes. Error is the read failure
// behind it, if any.
type CheckReason struct {
	Code    string  `json:"code"`
	Result  Verdict `json:"result"`
	Message string  `json:"message"`
	Error   *Error  `json:"error"`
}

// CheckPartition is one partition's result. Reasons say why it does not pass
// (empty when it passes); Notes say why it passes or what else to know.
type CheckPartition struct {
	Topic       string        `json:"topic"`
	Partition   int32         `json:"partition"`
	Low         *int64        `json:"low"`
	High        *int64        `json:"high"`
	Committed   *int64        `json:"committed"`
	Status      Status        `json:"status"`
	Lost        *int64        `json:"lost"`
	Beyond      *int64        `json:"beyond"`
	ExpiresInMs *int64        `json:"expiresInMs"`
	Result      Verdict       `json:"result"`
	Pass        bool          `json:"pass"`
	Reasons     []CheckReason `json:"reasons"`
	Notes       []CheckReason `json:"notes"`
	Error       *Error        `json:"error"`
	// Time is the partition on the time axis (check --sample); nil otherwise.
	Time *PartitionTime `json:"time"`
}

// TP returns the partition's topic partition.
func (p *CheckPartition) TP() TP { return TP{p.Topic, p.Partition} }

func (p *CheckPartition) add(v Verdict, code, msg string, err *Error) {
	p.Reasons = append(p.Reasons, CheckReason{code, v, msg, err})
	if v.rank() > p.Result.rank() {
		p.Result = v
	}
}

func (p *CheckPartition) note(code, msg string) {
	p.Notes = append(p.Notes, CheckReason{Code: code, Result: VerdictPass, Message: msg})
}

// CheckCounts counts partitions by result.
type CheckCounts struct {
	Partitions int `json:"partitions"`
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Incomplete int `json:"incomplete"`
}

// CheckResult is the proof for one group. Problems are what keeps the proof
// incomplete beyond single partitions (nothing to check, a read error).
type CheckResult struct {
	Group      string           `json:"group"`
	State      string           `json:"state"`
	Members    int              `json:"members"`
	TakenAt    Stamp            `json:"takenAt"`
	Options    CheckOptions     `json:"options"`
	Verdict    Verdict          `json:"verdict"`
	ExitCode   int              `json:"exitCode"`
	Summary    string           `json:"summary"`
	Counts     CheckCounts      `json:"counts"`
	Partitions []CheckPartition `json:"partitions"`
	Problems   []CheckReason    `json:"problems"`
	Notes      []CheckReason    `json:"notes"`
	Errors     []Error          `json:"errors"`
}

func newCheckResult(group string, opts CheckOptions, at time.Time) CheckResult {
	opts.AssumeReset, _ = ParseAssumeReset(opts.AssumeReset)
	if opts.RiskWindow <= 0 {
		opts.RiskWindow = DefaultRiskWindow
	}
	opts.Topics = append([]string{}, opts.Topics...)
	return CheckResult{Group: group, TakenAt: Stamp{at}, Options: opts,
		Partitions: []CheckPartition{}, Problems: []CheckReason{}, Notes: []CheckReason{}, Errors: []Error{}}
}

// CheckUnread is the result when the cluster could not be read at all (no
// connection, no broker answered): incomplete, with what went wrong.
func CheckUnread(group string, opts CheckOptions, at time.Time, what string) CheckResult {
	r := newCheckResult(group, opts, at)
	r.Problems = append(r.Problems, CheckReason{Code: CodeUnreadable, Result: VerdictIncomplete, Message: what})
	r.finish()
	return r
}

// Check judges whether group can (re)start from its committed offsets without
// losing records, from a snapshot taken for it.
func Check(s Snapshot, group string, opts CheckOptions) CheckResult {
	r := newCheckResult(group, opts, s.Cluster.TakenAt.Time)
	opts = r.Options
	r.Errors = append(r.Errors, s.Errors...)
	topics := map[string]*Topic{}
	for i := range s.Topics {
		topics[s.Topics[i].Topic] = &s.Topics[i]
	}
	seen := map[string]bool{}
	problem := func(code, msg string, err *Error) {
		key := msg
		if err != nil {
			key = err.Error()
		}
		if !seen[key] {
			seen[key] = true
			r.Problems = append(r.Problems, CheckReason{code, VerdictIncomplete, msg, err})
		}
	}
	gi := slices.IndexFunc(s.Groups, func(g Group) bool { return g.Group == group })
	if gi < 0 {
		problem(CodeUnreadable, fmt.Sprintf("group %s is not in the snapshot: it could not be read", group), nil)
		r.finish()
		return r
	}
	g := s.Groups[gi]
	r.State, r.Members = g.State, len(g.Members)
	notFound := g.Error.IsGroupNotFound()
	if notFound {
		// A group that does not exist has no commits and no members: with --topic
		// every partition is judged as a first start, without it nothing is checked.
		g.Error = nil
	}
	if g.Error != nil {
		problem(CodeUnreadable, "cannot read the group: "+g.Error.Error(), g.Error)
	}
	checked := map[TP]bool{}
	for _, gp := range g.Partitions {
		if len(opts.Topics) > 0 && !slices.Contains(opts.Topics, gp.Topic) {
			continue
		}
		checked[gp.TP()] = true
		r.Partitions = append(r.Partitions, checkPartition(gp, topics[gp.Topic], opts, s.Cluster.TakenAt.Time))
	}
	for _, name := range opts.Topics {
		t := topics[name]
		switch {
		case t == nil:
			problem(CodeUnreadable, fmt.Sprintf("topic %s (--topic) was not read", name), nil)
		case t.Error != nil && t.Error.Kind == KindDenied:
			problem(CodeUnreadable, fmt.Sprintf("topic %s (--topic) cannot be read: %s", name, t.Error.Error()), t.Error)
		case t.Error != nil && t.Error.Kind == KindNotFound:
			code := "not found"
			if t.Error.Code != nil {
				code = *t.Error.Code
			}
			problem(CodeTopicNotFound, fmt.Sprintf("topic %s (--topic) does not exist (%s)", name, code), t.Error)
		case t.Partitions == 0:
			problem(CodeTopicNotFound, fmt.Sprintf("topic %s (--topic) does not exist or has no partitions", name), t.Error)
		}
		if t != nil {
			for i := 0; i < t.Partitions; i++ {
				if tp := (TP{name, int32(i)}); !checked[tp] {
					problem(CodeUnreadable, fmt.Sprintf("partition %s is missing from the snapshot", tp), nil)
				}
			}
		}
	}
	for i := range s.Errors {
		e := &s.Errors[i]
		switch {
		case e.Partition != nil && e.Topic != nil && checked[TP{*e.Topic, *e.Partition}]:
			continue // shown on its partition, which is incomplete
		case notFound && e.IsGroupNotFound() && *e.Group == group:
			continue // judged above
		case e.IsBrokerConfigError():
			// offsets.retention.minutes only feeds a note: the proof does not need it.
			r.Notes = append(r.Notes, CheckReason{Code: CodeCommitsExpire, Result: VerdictPass,
				Message: "offsets.retention.minutes could not be read, so how long the broker keeps the group's commits without members is not known: " + e.Error()})
			continue
		case e.IsVisibilityNote():
			if len(opts.Topics) == 0 {
				problem(CodeHiddenTopics, "topics may be hidden from this principal, so the group's partitions are not known to be all there are: "+e.Message, e)
			}
			continue // with --topic, each named topic is read (or fails) on its own
		}
		problem(CodeUnreadable, e.Error(), e)
	}
	if len(r.Partitions) == 0 && g.Error == nil && (len(opts.Topics) == 0 || len(r.Problems) == 0) {
		problem(CodeNothingToCheck, nothingToCheck(g, s.Cluster.OffsetsRetentionMinutes, len(opts.Topics) > 0), nil)
	} else if len(r.Partitions) > 0 && g.Error == nil && len(g.Members) == 0 && !slices.ContainsFunc(g.Partitions, func(p GroupPartition) bool { return p.Committed != nil }) {
		r.Notes = append(r.Notes, CheckReason{Code: CodeGroupMissing, Result: VerdictPass,
			Message: fmt.Sprintf("group %s has no commits and no members: every partition is judged as a first start", group)})
	}
	if e := g.OffsetsExpireAfterMs; e != nil && opts.RecoveryWindow > 0 && opts.RecoveryWindow.Milliseconds() >= *e {
		r.Notes = append(r.Notes, CheckReason{Code: CodeCommitsExpire, Result: VerdictPass, Message: fmt.Sprintf(
			"the %s recovery window is not shorter than offsets.retention.minutes (%s): after that long without members the broker deletes the group's commits, and the consumer restarts by auto.offset.reset",
			humanWindow(opts.RecoveryWindow), HumanMs(e))})
	}
	r.finish()
	return r
}

func nothingToCheck(g Group, offsetsRetentionMinutes *int64, withTopics bool) string {
	if withTopics {
		return "no partition of the --topic topics could be read"
	}
	kept := "offsets.retention.minutes, default 7d"
	if offsetsRetentionMinutes != nil {
		kept = fmt.Sprintf("offsets.retention.minutes (%d = %s)", *offsetsRetentionMinutes,
			HumanDuration(time.Duration(*offsetsRetentionMinutes)*time.Minute))
	}
	who := fmt.Sprintf("group %s does not exist (no commits, no members)", g.Group)
	if g.State != "" && g.State != "Dead" {
		who = fmt.Sprintf("group %s (%s, %d members) has no commits and no assigned partitions", g.Group, g.State, len(g.Members))
	}
	return fmt.Sprintf("nothing to check: %s. Either it never committed, or it was Empty longer than %s and the broker deleted its commits; "+
		"check the name, or pass --topic to check a first start", who, kept)
}

// checkPartition judges one partition: its status, then its topic's retention.
func checkPartition(gp GroupPartition, t *Topic, opts CheckOptions, now time.Time) CheckPartition {
	p := CheckPartition{Topic: gp.Topic, Partition: gp.Partition, Low: gp.Low, High: gp.High, Committed: gp.Committed,
		Status: gp.Status, Lost: gp.Lost, Beyond: gp.Beyond, ExpiresInMs: gp.ExpiresInMs, Result: VerdictPass,
		Reasons: []CheckReason{}, Notes: []CheckReason{}, Error: gp.Error, Time: gp.Time}
	checkStatus(&p, gp, opts, now)
	checkLoss(&p, gp, opts)
	switch {
	case t == nil:
		p.add(VerdictIncomplete, CodeTopicConfig, fmt.Sprintf("the configs of topic %s were not read", gp.Topic), nil)
	case t.Error != nil || !t.ConfigKnown():
		msg := fmt.Sprintf("the configs of topic %s could not be read", gp.Topic)
		if t.Error != nil {
			msg += ": " + t.Error.Error()
		}
		p.add(VerdictIncomplete, CodeTopicConfig, msg, t.Error)
	default:
		checkRetention(&p, *t, opts.RecoveryWindow)
	}
	p.Pass = p.Result == VerdictPass
	return p
}

func checkStatus(p *CheckPartition, gp GroupPartition, opts CheckOptions, now time.Time) {
	if gp.Status == StatusUnknown || gp.Error != nil {
		msg := "status unknown: an input needed to classify it could not be read"
		if gp.Error != nil {
			msg = "cannot read: " + gp.Error.Error()
		}
		p.add(VerdictIncomplete, CodeUnknown, msg, gp.Error)
		return
	}
	if gp.Low == nil || gp.High == nil {
		p.add(VerdictIncomplete, CodeUnknown, "the watermarks could not be read", nil)
		return
	}
	low, high := *gp.Low, *gp.High
	reset := opts.AssumeReset
	switch gp.Status {
	case StatusExpired:
		c := *gp.Committed
		p.add(VerdictFail, CodeExpired, fmt.Sprintf("%s deleted before the group read them", records(low-c, c, low)), nil)
		p.note(CodeOnRestart, "on restart the consumer gets OFFSET_OUT_OF_RANGE and "+afterReset(reset, low, high))
	case StatusAhead:
		c := *gp.Committed
		p.add(VerdictFail, CodeAhead, fmt.Sprintf(
			"committed %d is %d beyond the high watermark %d (topic recreated or truncated, or an unclean leader election): %s",
			c, c-high, high, afterReset(reset, low, high)), nil)
	case StatusMissing:
		checkMissing(p, reset, low, high)
	case StatusAtRisk:
		c := *gp.Committed
		what := fmt.Sprintf("record %d, the next the group reads, can be deleted", c)
		switch {
		case gp.ExpiresInMs != nil && *gp.ExpiresInMs <= 0:
			what += " now (its retention ran out " + HumanMs(Ptr(-*gp.ExpiresInMs)) + " ago)"
		case gp.ExpiresInMs != nil:
			at := now.Add(time.Duration(*gp.ExpiresInMs) * time.Millisecond).UTC().Format(StampLayout)
			what += fmt.Sprintf(" as soon as %s (in %s)", at, HumanMs(gp.ExpiresInMs))
		}
		p.add(VerdictFail, CodeAtRisk, fmt.Sprintf("%s, within the %s risk window; %d records are still unread",
			what, humanWindow(opts.RiskWindow), high-c), nil)
	}
}

func checkMissing(p *CheckPartition, reset string, low, high int64) {
	const none = "no committed offset: auto.offset.reset=none makes the consumer refuse to start"
	if low > 0 {
		msg := fmt.Sprintf("no committed offset and the log starts at %d: records 0..%d were deleted, so loss cannot be ruled out", low, low-1)
		switch reset {
		case ResetLatest:
			if high > low {
				msg += fmt.Sprintf("; auto.offset.reset=latest (the client default) also skips the %s", stored(low, high))
			}
		case ResetNone:
			msg += "; auto.offset.reset=none refuses to start"
		}
		p.add(VerdictFail, CodeMissing, msg, nil)
		return
	}
	switch reset {
	case ResetEarliest:
		p.note(CodeStartsAtLow, "no committed offset: auto.offset.reset=earliest starts at 0, the log start, so nothing is skipped")
	case ResetNone:
		p.add(VerdictFail, CodeMissing, none, nil)
	default:
		msg := "no committed offset: auto.offset.reset=latest (the client default) starts at the end, skipping every record written before the consumer starts"
		if high > 0 {
			msg += fmt.Sprintf(": the %d stored records 0..%d", high, high-1)
		} else {
			msg += " (none stored yet)"
		}
		p.add(VerdictFail, CodeMissing, msg+"; pass --assume-reset earliest if the consumer sets it", nil)
	}
}

// afterReset says where auto.offset.reset takes a consumer whose position is out
// of range.
func afterReset(reset string, low, high int64) string {
	switch reset {
	case ResetEarliest:
		return fmt.Sprintf("auto.offset.reset=earliest resumes at the log start %d", low)
	case ResetNone:
		return "auto.offset.reset=none makes it refuse to start"
	}
	msg := fmt.Sprintf("auto.offset.reset=latest (the client default) jumps to %d", high)
	if high > low {
		msg += ", skipping the " + stored(low, high)
	}
	return msg
}

func stored(low, high int64) string {
	return fmt.Sprintf("%d stored records %d..%d", high-low, low, high-1)
}

// records renders "18 records 12..29".
func records(n, from, to int64) string {
	if n == 1 {
		return fmt.Sprintf("1 record %d", from)
	}
	return fmt.Sprintf("%d records %d..%d", n, from, to-1)
}

// checkRetention judges what the topic's retention can delete.
func checkRetention(p *CheckPartition, t Topic, window time.Duration) {
	compacted := "compacted (cleanup.policy=" + t.CleanupPolicy + ")"
	if !t.Deletes() {
		p.note(CodeCompacted, compacted+": retention does not delete by time, so any recovery window is covered; compaction keeps only the latest record of each key")
		return
	}
	if t.Compacts() {
		p.note(CodeCompacted, compacted+": compaction also removes older records of each key")
	}
	if t.RetentionMs == nil || t.RetentionBytes == nil {
		p.add(VerdictIncomplete, CodeTopicConfig, fmt.Sprintf("retention.ms or retention.bytes of topic %s was not returned", t.Topic), nil)
		return
	}
	ms, bytes := *t.RetentionMs, *t.RetentionBytes
	if ms < 0 && bytes <= 0 {
		p.note(CodeInfinite, "infinite retention (retention.ms=-1, no retention.bytes): nothing is deleted by time or size")
		return
	}
	if ms >= 0 {
		ret := time.Duration(ms) * time.Millisecond
		if window > 0 && ret < window {
			p.add(VerdictFail, CodeRetentionShort, fmt.Sprintf("retention %s (retention.ms=%d) is shorter than the %s recovery window: a consumer down that long loses records",
				HumanDuration(ret), ms, humanWindow(window)), nil)
		} else {
			p.note(CodeRetentionCovers, fmt.Sprintf("retention %s covers the %s recovery window", HumanDuration(ret), humanWindow(window)))
		}
	}
	if bytes > 0 {
		if window > 0 {
			p.add(VerdictFail, CodeSizeRetention, fmt.Sprintf("size-based retention (retention.bytes=%d): records are deleted when the partition outgrows it, so the %s recovery window cannot be proved by time",
				bytes, humanWindow(window)), nil)
		} else {
			p.note(CodeSizeNote, fmt.Sprintf("size-based retention (retention.bytes=%d) can also delete records; at-risk judges time only", bytes))
		}
	}
}

func humanWindow(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	return HumanDuration(d)
}

// finish computes counts, the verdict, the exit code and the summary.
func (r *CheckResult) finish() {
	r.Counts = CheckCounts{Partitions: len(r.Partitions)}
	r.Verdict = VerdictPass
	for _, p := range r.Partitions {
		switch p.Result {
		case VerdictPass:
			r.Counts.Pass++
		case VerdictFail:
			r.Counts.Fail++
		default:
			r.Counts.Incomplete++
		}
		if p.Result.rank() > r.Verdict.rank() {
			r.Verdict = p.Result
		}
	}
	if len(r.Problems) > 0 || len(r.Partitions) == 0 {
		r.Verdict = VerdictIncomplete
	}
	r.ExitCode = r.Verdict.ExitCode()
	r.Summary = r.summary()
}

// summary is the one-line verdict, e.g. "FAIL fanout: 1 of 1 partitions fail
// (outbox-0 expired: 18 records 12..29 deleted before the group read them)".
func (r *CheckResult) summary() string {
	n := r.Counts.Partitions
	switch r.Verdict {
	case VerdictPass:
		noun := "partitions"
		if n == 1 {
			noun = "partition"
		}
		s := fmt.Sprintf("PASS %s: %d %s proven", r.Group, n, noun)
		if why := r.passNotes(); why != "" {
			s += " (" + why + ")"
		}
		return s
	case VerdictFail:
		return fmt.Sprintf("FAIL %s: %d of %d partitions fail (%s)", r.Group, r.Counts.Fail, n, r.firstCause(VerdictFail, r.Counts.Fail))
	}
	var parts []string
	if r.Counts.Incomplete > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d partitions could not be proven", r.Counts.Incomplete, n))
	}
	switch {
	case r.Counts.Fail > 0 && len(parts) > 0:
		parts = append(parts, fmt.Sprintf("%d fail", r.Counts.Fail))
	case r.Counts.Fail > 0:
		parts = append(parts, fmt.Sprintf("%d of %d partitions fail", r.Counts.Fail, n))
	}
	if len(parts) == 0 {
		parts = append(parts, "the proof could not be completed")
	}
	cause := ""
	if len(r.Problems) > 0 && r.Problems[0].Code == CodeNothingToCheck && n == 0 {
		return fmt.Sprintf("INCOMPLETE %s: %s", r.Group, r.Problems[0].Message)
	}
	if len(r.Problems) > 0 {
		cause = r.Problems[0].Message
		if k := len(r.Problems) - 1; k > 0 {
			cause += fmt.Sprintf("; +%d more", k)
		}
	} else {
		cause = r.firstCause(VerdictIncomplete, r.Counts.Incomplete)
	}
	return fmt.Sprintf("INCOMPLETE %s: %s (%s)", r.Group, strings.Join(parts, ", "), cause)
}

// firstCause renders the first reason of the first partition with result v.
func (r *CheckResult) firstCause(v Verdict, count int) string {
	for _, p := range r.Partitions {
		if p.Result != v {
			continue
		}
		for _, rs := range p.Reasons {
			if rs.Result == v {
				s := fmt.Sprintf("%s %s: %s", p.TP(), Label(rs.Code), rs.Message)
				if count > 1 {
					s += fmt.Sprintf("; +%d more", count-1)
				}
				return s
			}
		}
	}
	return ""
}

// passNotes joins the distinct retention notes of the topics checked.
func (r *CheckResult) passNotes() string {
	byTopic := map[string]string{}
	var topics, msgs []string
	for _, p := range r.Partitions {
		for _, n := range p.Notes {
			if n.Code == CodeOnRestart || n.Code == CodeStartsAtLow {
				continue
			}
			if _, ok := byTopic[p.Topic]; !ok {
				topics = append(topics, p.Topic)
			}
			if !strings.Contains(byTopic[p.Topic], n.Message) {
				byTopic[p.Topic] = strings.TrimPrefix(byTopic[p.Topic]+", "+n.Message, ", ")
			}
		}
	}
	for _, t := range topics {
		if !slices.Contains(msgs, byTopic[t]) {
			msgs = append(msgs, byTopic[t])
		}
	}
	if len(msgs) <= 1 {
		return strings.Join(msgs, "")
	}
	msgs = msgs[:0]
	for _, t := range topics {
		msgs = append(msgs, t+": "+byTopic[t])
	}
	return strings.Join(msgs, "; ")
}

// Label is the short text form of a reason code used in tables and verdicts.
func Label(code string) string {
	switch code {
	case CodeRetentionShort:
		return "retention too short"
	case CodeSizeRetention:
		return "size-based retention"
	case CodeTopicConfig:
		return "topic config unreadable"
	}
	return code
}
