package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Reset planning. Make computes, for a scope and a strategy, the offsets
// kafka-consumer-groups --reset-offsets would commit (docs/kafka.md), what each
// move does to the group (duplicates, skipped, already lost) and what forbids
// executing it (blockers). It is pure: the I/O side reads an Input, plans, and
// right before committing re-reads and calls Refresh (guard.go).

// Input is the state a plan is made from, read by the I/O side.
type Input struct {
	Group string
	// ReadAt is when the state was read (zero: not said); the plan carries it.
	ReadAt time.Time
	// Type is the group's type (model.TypeClassic …); "" for a group that does not exist.
	// RawType is the type as ListGroups wrote it, for the message on an unknown one.
	Type, RawType string
	// State is the group's state from ListGroups ("Empty", "Stable", ...).
	State string
	// GroupExists is false when ListGroups does not list the group: such a group
	// has no members and may be reset.
	GroupExists bool
	Members     []model.Member
	// Subscriptions is what the group's members subscribe to, as Kafka's coordinator
	// counts it (model.Group.Subscriptions; not Known when it cannot be read).
	Subscriptions model.Subscriptions
	// Committed holds the group's committed offsets; for a share group, its
	// share-partition start offsets.
	Committed map[model.TP]int64
	// Uninitialized lists a share group's partitions the broker lists without a start
	// offset (kafka-share-groups.sh --all-topics resets them too).
	Uninitialized []model.TP
	// SourceTopics are a streams group's input topics from its topology; nil when the
	// topology is not known.
	SourceTopics []string
	// Unwritable says why the broker cannot take this group's reset (a write API it does
	// not support); "" when it can.
	Unwritable string
	// Partitions is the partition count of each topic the scope names (and of the
	// topics with commits, for --all-topics); a topic absent here does not exist.
	Partitions map[string]int
	// Offsets holds the watermarks of the partitions in scope; a partition whose
	// Low or High is nil, or whose Error is set, is unreadable and blocks the plan.
	Offsets map[model.TP]model.PartitionOffsets
	// TimeOffsets holds, for to-datetime and by-duration, the first offset whose
	// timestamp is ≥ Strategy.Time, or -1 when there is none (ListOffsets by
	// timestamp). A partition missing here blocks the plan.
	TimeOffsets map[model.TP]int64
	// TargetTimestamps holds the timestamp of the record at an offset, for the
	// targets whose record was fetched (optional; keyed by offset so it can be
	// filled after a first Make).
	TargetTimestamps map[model.TPO]time.Time
	// ReadOnly is --read-only: every plan is blocked.
	ReadOnly bool
	// Committer is a client outside the group seen committing its offsets (committer.go);
	// nil when none was seen. AllowCommitter is the operator's override (--allow-committer):
	// such a plan is not blocked.
	Committer      *model.Committer
	AllowCommitter bool
	// AssumeReset is the consumer's auto.offset.reset ("" = latest, the client
	// default): where it would start on a partition without a commit.
	AssumeReset string
	// ClusterID is the id the brokers report (nil when not read).
	ClusterID *string
	// AllTopicsVisible is whether the principal may describe every topic (nil:
	// not known). When not true, --all-topics may miss the group's commits on
	// hidden topics, and is refused.
	AllTopicsVisible *bool
	// NewGroup says whether the plan means to create the group when it does not
	// exist (NewGroupGuard).
	NewGroup NewGroup
	// RetentionMs is retention.ms of the topics in scope that delete by time,
	// for TargetExpiryNotes.
	RetentionMs map[string]int64
}

// Reason says how a row's target was chosen. The zero value (JSON null) marks a row
// that has no target because a blocker stopped it.
type Reason string

// Reasons, as docs/json.md spells them.
const (
	ReasonAsRequested         Reason = "as-requested"
	ReasonClampedToLow        Reason = "clamped-to-low"
	ReasonClampedToHigh       Reason = "clamped-to-high"
	ReasonNoRecordAfterTime   Reason = "no-record-after-time"
	ReasonNoCommitToLatest    Reason = "no-commit-to-latest"
	ReasonNoCommitCannotShift Reason = "no-commit-cannot-shift"
	ReasonRestore             Reason = "restore"
)

// MarshalJSON writes the reason, or null for none.
func (r Reason) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(r))
}

// BlockerKind classifies what forbids executing a plan.
type BlockerKind string

// Blocker kinds. Drift is found right before the commit (Plan.Drift).
const (
	BlockGroupNotEmpty       BlockerKind = "group-not-empty"
	BlockReadOnly            BlockerKind = "read-only"
	BlockUnknownPartition    BlockerKind = "unknown-partition"
	BlockUnknownOffsets      BlockerKind = "unknown-offsets"
	BlockNoCommitCannotShift BlockerKind = "no-commit-cannot-shift"
	BlockInvalidOffset       BlockerKind = "invalid-offset"
	BlockNothingToReset      BlockerKind = "nothing-to-reset"
	BlockDrift               BlockerKind = "drift"
	// BlockBackupFailed: the backup or the audit intent could not be written.
	BlockBackupFailed BlockerKind = "backup-failed"
	// BlockBackupMismatch: a restore's backup is of another group or cluster.
	BlockBackupMismatch BlockerKind = "backup-mismatch"
	// BlockHiddenTopics: --all-topics when topics may be hidden from the principal.
	BlockHiddenTopics BlockerKind = "topics-may-be-hidden"
)

// Blocker is one reason the plan must not be executed, with the partition it is
// about when there is one.
type Blocker struct {
	Kind      BlockerKind `json:"kind"`
	Message   string      `json:"message"`
	Topic     *string     `json:"topic"`
	Partition *int32      `json:"partition"`
}

// Row is one partition of a plan. Target is nil when a blocker stopped the row,
// or, for restore, when the row deletes the commit.
type Row struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Committed *int64 `json:"committed"`
	Low       *int64 `json:"low"`
	High      *int64 `json:"high"`
	Target    *int64 `json:"target"`
	Reason    Reason `json:"reason"`
	// Duplicates counts stored records between target and committed that the group
	// will read again (an upper bound on compacted and transactional topics).
	Duplicates int64 `json:"duplicates"`
	// Skipped counts stored records the group will never read because of the
	// target: between committed and target, or, without a commit, from low to the
	// target.
	Skipped int64 `json:"skipped"`
	// AlreadyLost is low − committed for an expired commit: gone whatever the plan.
	AlreadyLost int64 `json:"alreadyLost"`
	// TargetTimestamp is the timestamp of the record at Target, when fetched.
	TargetTimestamp *model.Stamp `json:"targetTimestamp"`
	// LocalLow is a tiered topic's local log start (null when the topic is not tiered or
	// the broker could not say); ReadsRemote says the target lies below it: the consumer
	// will read from remote storage (KIP-405).
	LocalLow    *int64 `json:"localLow"`
	ReadsRemote bool   `json:"readsRemote"`
	// ResetStart is, for a row without a commit, where the consumer would start
	// without the plan's commit under Plan.AssumeReset (null: it would refuse to
	// start, or the row has a commit).
	ResetStart *int64 `json:"resetStart"`
	// Result is what became of the row when the plan was executed (null before).
	Result WriteResult `json:"result"`
	// ReadBack is the committed offset read back after the execution (null: none,
	// or not read).
	ReadBack *int64 `json:"readBack"`
}

// TP returns the row's topic partition.
func (r Row) TP() model.TP { return model.TP{Topic: r.Topic, Partition: r.Partition} }

// Totals sums the rows' effects; Partitions counts the rows.
type Totals struct {
	Duplicates  int64 `json:"duplicates"`
	Skipped     int64 `json:"skipped"`
	AlreadyLost int64 `json:"alreadyLost"`
	Partitions  int   `json:"partitions"`
}

// Plan is a reset plan and, once executed, its result: one value marshals the
// whole `reset -o json` document. Make fills the plan; the executor sets
// Executed, Backup, Undo, Verified and Rejected.
type Plan struct {
	Group string `json:"group"`
	// Type is the group's type; it chooses whose reset semantics apply and how the
	// offsets are written (docs/resets.md).
	Type     string   `json:"type"`
	State    string   `json:"state"`
	Strategy Strategy `json:"strategy"`
	// AssumeReset is the auto.offset.reset assumed for rows without a commit.
	AssumeReset string    `json:"assumeReset"`
	Executed    bool      `json:"executed"`
	Rows        []Row     `json:"rows"`
	Totals      Totals    `json:"totals"`
	Blockers    []Blocker `json:"blockers"`
	// Notes say what the plan does, or risks, that is no reason to refuse it
	// (it creates the group; a target is about to be deleted).
	Notes []Note `json:"notes"`
	// Backup is the path of the backup written before the commit.
	Backup *string `json:"backup"`
	// Undo is the command that restores the backup.
	Undo *string `json:"undo"`
	// Verified is whether the offsets read back after the commit equal the targets.
	Verified *bool `json:"verified"`
	// Rejected lists the partitions the broker refused in a partly applied commit
	// (exit 4); empty otherwise. Listed in docs/json.md.
	Rejected []model.Error `json:"rejected"`
	// Committer is what was seen of a client outside the group committing its offsets
	// (null: none); AllowCommitter is the operator's override of that guard
	// (committer.go).
	Committer      *model.Committer `json:"committer"`
	AllowCommitter bool             `json:"allowCommitter"`
	// KafkaEquivalent is the Kafka command that does what the plan does (kafkacmd.go);
	// null for a type without a Kafka tool.
	KafkaEquivalent *Equivalent `json:"kafkaEquivalent"`
	// ReadAt is when the group's commits and the partitions' offsets the rows show were
	// read; ReadBackAt when the commits were read back after the write (null before, or
	// when the read-back failed).
	ReadAt     *model.Stamp `json:"readAt"`
	ReadBackAt *model.Stamp `json:"readBackAt"`
}

// WithAssumeReset is p counted under auto.offset.reset assume (an invalid value counts as
// latest): each row's ResetStart and effects, and the totals. The targets, what the plan
// writes, do not change; an executed plan's re-read takes the plan's assumption.
func (p Plan) WithAssumeReset(assume string) Plan {
	assume, err := model.ParseAssumeReset(assume)
	if err != nil {
		assume = model.ResetLatest
	}
	q := p
	q.AssumeReset = assume
	q.Rows = slices.Clone(p.Rows)
	for i := range q.Rows {
		r := &q.Rows[i]
		if r.Reason == ReasonDelete {
			deleteRow(r, assume)
			continue
		}
		r.ResetStart = resetStart(*r, assume)
		setEffects(r, assume)
	}
	q.Totals = totals(q.Rows)
	q.Notes = slices.Clone(p.Notes)
	q.setForwardNote()
	return q
}

// AssumptionMatters reports whether the plan's counts depend on auto.offset.reset: a row
// without a commit, or one that deletes its commit.
func (p Plan) AssumptionMatters() bool {
	return slices.ContainsFunc(p.Rows, func(r Row) bool { return r.Committed == nil || r.deletes() })
}

// readAt is the plan's ReadAt: null for a state read at a time not said.
func readAt(t time.Time) *model.Stamp {
	if t.IsZero() {
		return nil
	}
	return model.StampOf(t)
}

// Executable reports whether nothing blocks the plan.
func (p Plan) Executable() bool { return len(p.Blockers) == 0 }

// Make computes the plan for a scope and a strategy. Rows are sorted by topic
// and partition. It never fails: what stops a plan is a blocker, so a plan can
// always be shown.
func Make(scope Scope, st Strategy, in Input) Plan {
	assume, err := model.ParseAssumeReset(in.AssumeReset)
	if err != nil {
		assume = model.ResetLatest
	}
	in.Type = planType(in.Type)
	p := Plan{Group: in.Group, Type: in.Type, State: in.State, Strategy: st, AssumeReset: assume, ReadAt: readAt(in.ReadAt),
		Committer: in.Committer, AllowCommitter: in.AllowCommitter,
		Rows: []Row{}, Blockers: append(guardBlockers(in, st.Kind), typeBlockers(in, st)...), Notes: []Note{}, Rejected: []model.Error{}}
	if in.Type == model.TypeUnknown {
		// Nothing of an unknown type is planned, and its state means nothing to offsettui:
		// the one blocker says so.
		p.Blockers = typeBlockers(in, st)
		return p
	}
	if b, n := NewGroupGuard(in.Group, in.GroupExists, in.NewGroup); b != nil {
		p.Blockers = append(p.Blockers, *b)
	} else if n != nil {
		p.Notes = append(p.Notes, *n)
	}
	var tps []model.TP
	var scopeBlockers []Blocker
	fileOffset := map[model.TP]*int64{}
	srcBlockers := sourceBlockers(in, st)
	p.Blockers = append(p.Blockers, srcBlockers...)
	if st.Kind == FromGroup {
		tps, scopeBlockers = fromGroupScope(scope, st, in, fileOffset)
	} else if st.Kind.FromFileKind() {
		tps, scopeBlockers = fileScope(st, in, fileOffset)
		scopeBlockers = append(scopeBlockers, shareRestoreBlockers(in, st)...)
	} else if t, b, ok := typeScope(scope, in, st.Kind); ok {
		tps, scopeBlockers = t, b
	} else {
		tps, scopeBlockers = scope.Partitions(in)
	}
	if st.Kind == DeleteOffsets || st.Kind == DeleteGroup {
		var bs []Blocker
		tps, bs = deleteScope(scope, in, tps)
		scopeBlockers = append(scopeBlockers, bs...)
		if len(tps) == 0 && len(scopeBlockers) == 0 {
			scopeBlockers = append(scopeBlockers, deleteNothing(in, scope))
		}
	}
	p.Blockers = append(p.Blockers, scopeBlockers...)
	if len(tps) == 0 && len(scopeBlockers) == 0 && len(srcBlockers) == 0 {
		p.Blockers = append(p.Blockers, nothingToReset(scope, st, in))
	}
	in.AssumeReset = assume
	for _, tp := range tps {
		row, b := planRow(tp, st, in, fileOffset[tp])
		if st.Kind == DeleteOffsets || st.Kind == DeleteGroup {
			deleteRow(&row, assume)
		} else {
			row.ResetStart = resetStart(row, assume)
		}
		p.Rows = append(p.Rows, row)
		p.Blockers = append(p.Blockers, b...)
	}
	if st.Kind == DeleteOffsets {
		p.Notes = append(p.Notes, deleteNotes(in, p.Rows)...)
	}
	if st.Kind == FromGroup && len(p.Rows) > 0 && p.writtenCount() == 0 {
		p.Blockers = append(p.Blockers, nothingToReset(scope, st, in))
	}
	if b := nothingToChange(p); b != nil {
		p.Blockers = append(p.Blockers, *b)
	}
	p.Totals = totals(p.Rows)
	p.setForwardNote()
	p.KafkaEquivalent = KafkaEquivalent(p)
	return p
}

// fileScope returns the file's partitions for the group, with each requested offset.
func fileScope(st Strategy, in Input, offsets map[model.TP]*int64) ([]model.TP, []Blocker) {
	var tps []model.TP
	var bs []Blocker
	for _, r := range st.File {
		if r.Group != "" && r.Group != in.Group {
			continue
		}
		tp := r.TP()
		n, ok := in.Partitions[tp.Topic]
		switch {
		case !ok:
			bs = append(bs, topicBlocker(tp.Topic))
			continue
		case tp.Partition >= int32(n):
			bs = append(bs, partitionBlocker(tp, n))
			continue
		}
		offsets[tp] = r.Offset
		tps = append(tps, tp)
	}
	sortTPs(tps)
	return tps, dedupeBlockers(bs)
}

func nothingToReset(scope Scope, st Strategy, in Input) Blocker {
	msg := fmt.Sprintf("the scope selects no partitions of group %s", in.Group)
	switch {
	case st.Kind == FromGroup:
		msg = fmt.Sprintf("source group %s has no commit on the partitions in scope: there is nothing to copy", st.Raw)
	case st.Kind == Restore && len(st.File) == 0:
		msg = fmt.Sprintf("the backup %s holds no positions: group %s had no commits when it was saved, so there is nothing to restore", st.Raw, in.Group)
	case st.Kind.FromFileKind():
		msg = fmt.Sprintf("no reset plan for group %s found in %s (its rows name other groups)", in.Group, st.Raw)
	case scope.AllTopics && in.Type == model.TypeShare:
		msg = fmt.Sprintf("share group %s has no share partitions yet, and --all-topics selects those; name them with --topic", in.Group)
	case scope.AllTopics && in.Type == model.TypeStreams:
		msg = fmt.Sprintf("streams group %s has no committed offsets on its input topics, and --all-topics selects the partitions with one; name them with --topic", in.Group)
	case scope.AllTopics:
		msg = fmt.Sprintf("group %s has no committed offsets, and --all-topics selects the partitions with one; name them with --topic", in.Group)
	}
	return Blocker{Kind: BlockNothingToReset, Message: msg}
}
