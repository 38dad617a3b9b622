package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// The check: a fail-closed proof that one group can (re)start without losing
// records. Check is pure: it judges a classified Snapshot taken for the group
// (Query{Groups: [G]}, or with --topic Query{Topics: T, WholeTopics: true}).
// Anything it needs and cannot see makes the proof incomplete, never a pass.

// Options say what the check proves.
type Options struct {
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
	// RequireCommitTimes fails a partition whose commit-expiry time could not be known
	// (--commit-log=on).
	RequireCommitTimes bool
	// IgnoreMissedDeletes says the consumer does not care about deletes on compacted
	// topics (check --ignore-missed-deletes): a partition that may have missed them passes
	// with a note instead of failing.
	IgnoreMissedDeletes bool
}

// MarshalJSON writes durations as milliseconds and topics as [] when empty.
func (o Options) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Topics           []string `json:"topics"`
		RecoveryWindowMs int64    `json:"recoveryWindowMs"`
		AssumeReset      string   `json:"assumeReset"`
		RiskWindowMs     int64    `json:"riskWindowMs"`
		// requireCommitTimes: --commit-log=on.
		RequireCommitTimes  bool `json:"requireCommitTimes"`
		IgnoreMissedDeletes bool `json:"ignoreMissedDeletes"`
	}{append([]string{}, o.Topics...), o.RecoveryWindow.Milliseconds(), o.AssumeReset, o.RiskWindow.Milliseconds(), o.RequireCommitTimes, o.IgnoreMissedDeletes})
}

// Verdict is the outcome of a check, or of one partition of it.
type Verdict string

// Verdicts; incomplete outranks fail.
const (
	VerdictPass       Verdict = "pass"
	VerdictFail       Verdict = "fail"
	VerdictIncomplete Verdict = "incomplete"
)

// rank orders verdicts: pass, then fail, then incomplete.
func (v Verdict) rank() int {
	switch v {
	case VerdictPass:
		return 0
	case VerdictFail:
		return 1
	}
	return 2
}

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
	CodeMarkers         = "transaction-markers"
	CodeMarkersUnknown  = "transaction-markers-unknown"
	CodeMissedDeletes   = "may-miss-deletes"
	CodeDeletesUnknown  = "missed-deletes-unknown"
)

// Reason is one finding. Result is what it does to its item: fail or
// incomplete for reasons and problems, pass for notes. Error is the read failure
// behind it, if any.
type Reason struct {
	Code    string       `json:"code"`
	Result  Verdict      `json:"result"`
	Message string       `json:"message"`
	Error   *model.Error `json:"error"`
}

// Partition is one partition's result. Reasons say why it does not pass
// (empty when it passes); Notes say why it passes or what else to know.
type Partition struct {
	Topic       string       `json:"topic"`
	Partition   int32        `json:"partition"`
	Low         *int64       `json:"low"`
	High        *int64       `json:"high"`
	Committed   *int64       `json:"committed"`
	StartOffset *int64       `json:"startOffset"`
	Status      model.Status `json:"status"`
	Lost        *int64       `json:"lost"`
	Beyond      *int64       `json:"beyond"`
	ExpiresInMs *int64       `json:"expiresInMs"`
	// CommitsExpireAt and CommitsExpireBy are describe's: when the broker may delete the
	// commit, and by what rule (docs/json.md).
	CommitsExpireAt *model.Stamp     `json:"commitsExpireAt"`
	CommitsExpireBy model.ExpiryRule `json:"commitsExpireBy"`
	// DeadlineMs is the partition's deadline (model.GroupPartition.Deadline): the time to
	// loss where check --sample measured rates, else ExpiresInMs; null where neither exists.
	DeadlineMs *int64       `json:"deadlineMs"`
	Result     Verdict      `json:"result"`
	Pass       bool         `json:"pass"`
	Reasons    []Reason     `json:"reasons"`
	Notes      []Reason     `json:"notes"`
	Error      *model.Error `json:"error"`
	// Time is the partition on the time axis (check --sample); nil otherwise.
	Time *model.PartitionTime `json:"time"`
}

// TP returns the partition's topic partition.
func (p *Partition) TP() model.TP { return model.TP{Topic: p.Topic, Partition: p.Partition} }

func (p *Partition) add(v Verdict, code, msg string, err *model.Error) {
	p.Reasons = append(p.Reasons, Reason{code, v, msg, err})
	if v.rank() > p.Result.rank() {
		p.Result = v
	}
}

func (p *Partition) note(code, msg string) {
	p.Notes = append(p.Notes, Reason{Code: code, Result: VerdictPass, Message: msg})
}

// Counts counts partitions by result.
type Counts struct {
	Partitions int `json:"partitions"`
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Incomplete int `json:"incomplete"`
}

// Result is the proof for one group. Problems are what keeps the proof
// incomplete beyond single partitions (nothing to check, a read error).
type Result struct {
	Group string `json:"group"`
	// Type is the group's type ("" when the group could not be read).
	Type    string `json:"type"`
	State   string `json:"state"`
	Members int    `json:"members"`
	// CommitsExpireAt and CommitsExpiry are describe's commit-expiry clock of the group.
	CommitsExpireAt *model.Stamp        `json:"commitsExpireAt"`
	CommitsExpiry   *model.CommitExpiry `json:"commitsExpiry"`
	TakenAt         model.Stamp         `json:"takenAt"`
	Options         Options             `json:"options"`
	Verdict         Verdict             `json:"verdict"`
	// ExitCode is the verdict's process exit code (docs/cli.md), set by the
	// command that reports the check.
	ExitCode int    `json:"exitCode"`
	Summary  string `json:"summary"`
	// DeadlineMs is the soonest of the partitions' deadlines, null when none has one.
	DeadlineMs *int64        `json:"deadlineMs"`
	Counts     Counts        `json:"counts"`
	Partitions []Partition   `json:"partitions"`
	Problems   []Reason      `json:"problems"`
	Notes      []Reason      `json:"notes"`
	Errors     []model.Error `json:"errors"`
}

func newCheckResult(group string, opts Options, at time.Time) Result {
	opts.AssumeReset, _ = model.ParseAssumeReset(opts.AssumeReset)
	if opts.RiskWindow <= 0 {
		opts.RiskWindow = model.DefaultRiskWindow
	}
	opts.Topics = append([]string{}, opts.Topics...)
	return Result{Group: group, TakenAt: model.Stamp{Time: at}, Options: opts,
		Partitions: []Partition{}, Problems: []Reason{}, Notes: []Reason{}, Errors: []model.Error{}}
}

// Unread is the result when the cluster could not be read at all (no
// connection, no broker answered): incomplete, with what went wrong.
func Unread(group string, opts Options, at time.Time, what string) Result {
	r := newCheckResult(group, opts, at)
	r.Problems = append(r.Problems, Reason{Code: CodeUnreadable, Result: VerdictIncomplete, Message: what})
	r.finish()
	return r
}

// Check judges whether group can (re)start from its committed offsets without
// losing records, from a snapshot taken for it.
func Check(s model.Snapshot, group string, opts Options) Result {
	r := newCheckResult(group, opts, s.Cluster.TakenAt.Time)
	opts = r.Options
	r.Errors = append(r.Errors, s.Errors...)
	topics := map[string]*model.Topic{}
	for i := range s.Topics {
		topics[s.Topics[i].Topic] = &s.Topics[i]
	}
	p := &problems{r: &r, seen: map[string]bool{}}
	gi := slices.IndexFunc(s.Groups, func(g model.Group) bool { return g.Group == group })
	if gi < 0 {
		p.add(CodeUnreadable, fmt.Sprintf("group %s is not in the snapshot: it could not be read", group), nil)
		r.finish()
		return r
	}
	g := s.Groups[gi]
	r.Type, r.State, r.Members = g.Type, g.State, len(g.Members)
	r.CommitsExpireAt, r.CommitsExpiry = g.CommitsExpireAt, g.CommitsExpiry
	if g.Type == model.TypeShare {
		r.Notes = append(r.Notes, shareCheckNote(g))
	}
	notFound := g.Error.IsGroupNotFound()
	if notFound {
		// A group that does not exist has no commits and no members: with --topic
		// every partition is judged as a first start, without it nothing is checked.
		g.Error = nil
	}
	if g.Error != nil {
		p.add(CodeUnreadable, "cannot read the group: "+g.Error.Error(), g.Error)
	}
	checked := map[model.TP]bool{}
	for _, gp := range g.Partitions {
		if len(opts.Topics) > 0 && !slices.Contains(opts.Topics, gp.Topic) {
			continue
		}
		checked[gp.TP()] = true
		if len(opts.Topics) == 0 && gp.NotConsumed() {
			r.Partitions = append(r.Partitions, notConsumedPartition(g, gp))
			continue
		}
		r.Partitions = append(r.Partitions, checkPartition(g, gp, topics[gp.Topic], opts, s.Cluster.TakenAt.Time))
	}
	if n, ok := notConsumedNote(g, r.Partitions, s.Cluster.OffsetsRetentionMinutes); ok {
		r.Notes = append(r.Notes, n)
	}
	p.namedTopics(opts.Topics, topics, checked)
	p.snapshotErrors(s.Errors, checked, notFound, group, len(opts.Topics) > 0)
	r.groupNotes(g, s.Cluster.OffsetsRetentionMinutes, p)
	r.capabilities(s.Cluster, g, p)
	r.finish()
	return r
}

// problems collects what keeps a proof incomplete, each reason once.
type problems struct {
	r    *Result
	seen map[string]bool
}

func (p *problems) add(code, msg string, err *model.Error) {
	key := msg
	if err != nil {
		key = err.Error()
	}
	if !p.seen[key] {
		p.seen[key] = true
		p.r.Problems = append(p.r.Problems, Reason{code, VerdictIncomplete, msg, err})
	}
}

// namedTopics checks that every --topic was read whole: it exists, may be
// described, and each of its partitions is in the snapshot.
func (p *problems) namedTopics(names []string, topics map[string]*model.Topic, checked map[model.TP]bool) {
	for _, name := range names {
		t := topics[name]
		switch {
		case t == nil:
			p.add(CodeUnreadable, fmt.Sprintf("topic %s (--topic) was not read", name), nil)
		case t.Error != nil && t.Error.Kind == model.KindDenied:
			p.add(CodeUnreadable, fmt.Sprintf("topic %s (--topic) cannot be read: %s", name, t.Error.Error()), t.Error)
		case t.Error != nil && t.Error.Kind == model.KindNotFound:
			code := "not found"
			if t.Error.Code != nil {
				code = *t.Error.Code
			}
			p.add(CodeTopicNotFound, fmt.Sprintf("topic %s (--topic) does not exist (%s)", name, code), t.Error)
		case t.Partitions == 0:
			p.add(CodeTopicNotFound, fmt.Sprintf("topic %s (--topic) does not exist or has no partitions", name), t.Error)
		}
		if t != nil {
			for i := 0; i < t.Partitions; i++ {
				if tp := (model.TP{Topic: name, Partition: int32(i)}); !checked[tp] {
					p.add(CodeUnreadable, fmt.Sprintf("partition %s is missing from the snapshot", tp), nil)
				}
			}
		}
	}
}

// snapshotErrors makes each error of the snapshot a problem, except those
// already shown on a checked partition, a group judged not to exist, the
// broker's own configs (a note) and, with --topic, the hidden-topics warning.
func (p *problems) snapshotErrors(errs []model.Error, checked map[model.TP]bool, notFound bool, group string, withTopics bool) {
	for i := range errs {
		e := &errs[i]
		switch {
		case e.Partition != nil && e.Topic != nil && checked[model.TP{Topic: *e.Topic, Partition: *e.Partition}]:
			continue // shown on its partition, which is incomplete
		case notFound && e.IsGroupNotFound() && *e.Group == group:
			continue // judged above
		case e.IsBrokerConfigError():
			// offsets.retention.minutes only feeds a note: the proof does not need it.
			p.r.Notes = append(p.r.Notes, Reason{Code: CodeCommitsExpire, Result: VerdictPass,
				Message: "offsets.retention.minutes could not be read, so how long the broker keeps the group's commits without members is not known: " + e.Error()})
			continue
		case e.IsVisibilityNote():
			if !withTopics {
				p.add(CodeHiddenTopics, "topics may be hidden from this principal, so the group's partitions are not known to be all there are: "+e.Message, e)
			}
			continue // with --topic, each named topic is read (or fails) on its own
		}
		p.add(CodeUnreadable, e.Error(), e)
	}
}

// groupNotes adds what the group itself says: nothing to check, a first
// start, or commits that expire within the recovery window.
func (r *Result) groupNotes(g model.Group, offsetsRetentionMinutes *int64, p *problems) {
	opts := r.Options
	if len(r.Partitions) == 0 && g.Error == nil && (len(opts.Topics) == 0 || len(r.Problems) == 0) {
		p.add(CodeNothingToCheck, nothingToCheck(g, offsetsRetentionMinutes, len(opts.Topics) > 0), nil)
	} else if len(r.Partitions) > 0 && g.Error == nil && len(g.Members) == 0 && !slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Position() != nil }) {
		r.Notes = append(r.Notes, Reason{Code: CodeGroupMissing, Result: VerdictPass,
			Message: fmt.Sprintf("group %s has no commits and no members: every partition is judged as a first start", g.Group)})
	}
	if e := g.OffsetsExpireAfterMs; e != nil && opts.RecoveryWindow > 0 && opts.RecoveryWindow.Milliseconds() >= *e {
		r.Notes = append(r.Notes, Reason{Code: CodeCommitsExpire, Result: VerdictPass, Message: fmt.Sprintf(
			"the %s recovery window is not shorter than offsets.retention.minutes (%s): after that long without members the broker deletes the group's commits, and the consumer restarts by auto.offset.reset",
			humanWindow(opts.RecoveryWindow), text.HumanMs(e))})
	}
}

func nothingToCheck(g model.Group, offsetsRetentionMinutes *int64, withTopics bool) string {
	if withTopics {
		return "no partition of the --topic topics could be read"
	}
	kept := "offsets.retention.minutes, default 7d"
	if offsetsRetentionMinutes != nil {
		kept = fmt.Sprintf("offsets.retention.minutes (%d = %s)", *offsetsRetentionMinutes,
			text.HumanDuration(time.Duration(*offsetsRetentionMinutes)*time.Minute))
	}
	who := fmt.Sprintf("group %s does not exist (no commits, no members)", g.Group)
	if g.State != "" && g.State != "Dead" {
		who = fmt.Sprintf("group %s (%s, %s) has no commits and no assigned partitions", g.Group, g.State, text.Plural(len(g.Members), "member"))
	}
	return fmt.Sprintf("nothing to check: %s. Either it never committed, or it was Empty longer than %s and the broker deleted its commits; "+
		"check the name, or pass --topic to check a first start", who, kept)
}

// Position is where the group resumes in the partition, as GroupPartition.Position.
func (p *Partition) Position() *int64 { return model.PositionOf(p.Committed, p.StartOffset) }
