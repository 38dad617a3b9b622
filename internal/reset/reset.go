// Package reset plans and executes guarded offset resets. It is the one place
// where the guards live, used by both the CLI and the TUI: nothing is written
// without an executable plan confirmed by the caller; the group must be Empty (or
// not exist) when planned and again right before the commit; state is re-read and
// compared (drift) before the commit; --read-only refuses; a backup is written
// before the commit or nothing is committed; the commit uses the admin form and
// never joins the group; the offsets are read back and compared with the plan;
// and every execution is appended to the audit log.
package reset

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Reader is what a plan reads of a cluster (Planner): nothing in it writes.
type Reader interface {
	ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error)
	TargetTimestamps(ctx context.Context, want []model.TPO, budget int64) map[model.TPO]time.Time
	// ShareUnwritable says why group's coordinator cannot take share-group start offsets,
	// or "" when it can (for a share group no broker lists yet, as plan.Input.Unwritable).
	ShareUnwritable(ctx context.Context, group string) string
}

// Cluster is what the service needs from a Kafka client: a Reader that writes too;
// internal/kafka.Client implements it (checked in cmd/offsettui, which wires the two
// together).
type Cluster interface {
	Reader
	CommitOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error)
	DeleteOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error)
	// DeleteGroup deletes the group; tps are its commits, each rejected when the broker
	// refused the delete.
	DeleteGroup(ctx context.Context, group string, tps []model.TP) ([]model.Error, error)
	Committed(ctx context.Context, group string) (map[model.TP]int64, error)
	AlterShareOffsets(ctx context.Context, group string, offsets map[model.TP]int64) ([]model.Error, error)
	DeleteShareOffsets(ctx context.Context, group string, tps []model.TP) ([]model.Error, error)
	ShareStartOffsets(ctx context.Context, group string) (map[model.TP]int64, error)
}

// Service plans and executes resets on one cluster.
type Service struct {
	Cluster Cluster
	// ClusterName names the cluster in the audit log and the backup's manifest (bootstrap
	// addresses); asked when they are written, as a connection made late learns them then.
	ClusterName func() string
	ReadOnly    bool
	// BackupDir holds backups and the audit log ("" = the default state dir).
	BackupDir string
	// UndoCommand renders the command that restores a backup.
	UndoCommand func(group, backup string) string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// User names who ran the reset in the audit log (default: the OS user).
	User string
	// AssumeReset is the consumers' auto.offset.reset, for partitions without a
	// commit ("" = latest, the client default).
	AssumeReset string
	// AllowNewGroup lets a plan write to a group no broker lists, which creates
	// it (--allow-new-group); otherwise such a plan is blocked (plan.NewGroupGuard).
	AllowNewGroup bool
	// RiskWindow is how far ahead a plan warns that a target record may be
	// deleted by retention (--risk-window; 0 = model.DefaultRiskWindow).
	RiskWindow time.Duration
	// Observe is how long a write watches the group's commits before it and after its
	// read-back, for a client outside the group that commits for it (0: no watch; the
	// commands use DefaultObserve). AllowCommitter writes even when one is seen
	// (--allow-committer). committer.go.
	Observe        time.Duration
	AllowCommitter bool
	// beforeCommit, when set (tests), runs after the plan was confirmed and
	// before the state is re-read.
	beforeCommit func()
	// beforeWrite, when set (tests), runs after the backup and the audit intent
	// were written, right before the commit.
	beforeWrite func()
}

// timestampBudget bounds the bytes fetched to show target-record timestamps.
const timestampBudget = 1 << 20

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Planner makes plans on a Reader, as the Service does before it writes: it has no way to
// write (offsettui mcp plans with one, docs/api.md).
type Planner struct {
	Cluster Reader
	// Now, ReadOnly, AssumeReset, AllowNewGroup, RiskWindow and AllowCommitter are the
	// Service's fields of the same names.
	Now            func() time.Time
	ReadOnly       bool
	AssumeReset    string
	AllowNewGroup  bool
	RiskWindow     time.Duration
	AllowCommitter bool
}

// planner is the service's Planner: the same settings on the same cluster.
func (s *Service) planner() *Planner {
	return &Planner{Cluster: s.Cluster, Now: s.Now, ReadOnly: s.ReadOnly, AssumeReset: s.AssumeReset,
		AllowNewGroup: s.AllowNewGroup, RiskWindow: s.RiskWindow, AllowCommitter: s.AllowCommitter}
}

func (s *Planner) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Plan reads the group's state and makes the plan (Planner.Plan).
func (s *Service) Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	return s.planner().Plan(ctx, group, scope, st)
}

// Plan reads the group's state and makes the plan. It returns an error only when
// the state cannot be read; what forbids executing is in the plan's blockers.
func (s *Planner) Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	if st.Kind == plan.FromGroup && st.Source == nil {
		src, err := s.readSource(ctx, st.Raw)
		if err != nil {
			return plan.Plan{}, err
		}
		st = plan.FromGroupStrategy(src)
	}
	in, err := s.read(ctx, group, scopeTopics(scope, st), st)
	if err == nil && st.Kind == plan.FromGroup && scope.AllTopics {
		// --all-topics: the group's commits and the source's, whose topics the group
		// may have no commit on; read again with both.
		topics := scopeTopics(plan.Scope{}, st)
		for tp := range in.Committed {
			if !slices.Contains(topics, tp.Topic) {
				topics = append(topics, tp.Topic)
			}
		}
		if len(topics) > 0 {
			in, err = s.read(ctx, group, topics, st)
		}
	}
	if err != nil {
		return plan.Plan{}, err
	}
	return s.makePlan(ctx, scope, st, in), nil
}

// RestoreOptions allow a restore onto another group or cluster than the backup
// was taken from (--allow-other-group, --allow-other-cluster).
type RestoreOptions struct {
	OtherGroup, OtherCluster bool
}

// PlanRestore plans putting a checked backup (LoadBackup) back on group. A backup
// of another group, or of another or an unknown cluster, blocks the plan unless
// opt allows it.
func (s *Service) PlanRestore(ctx context.Context, group string, b Backup, opt RestoreOptions) (plan.Plan, error) {
	st := b.Strategy()
	pl := s.planner()
	in, err := pl.read(ctx, group, scopeTopics(plan.Scope{}, st), st)
	if err != nil {
		return plan.Plan{}, err
	}
	// A restore is meant to write the group even when it is gone: its own
	// backup undoes deleting it, another group's copies that group's positions.
	in.NewGroup = plan.NewGroupRestore
	if b.Manifest.Group != group {
		in.NewGroup = plan.NewGroupCopy
	}
	p := pl.makePlan(ctx, plan.Scope{}, st, in)
	p.Blockers = append(p.Blockers, backupMismatch(b, group, in.ClusterID, opt)...)
	p.Blockers = append(p.Blockers, backupTypeMismatch(b, in)...)
	return p, nil
}

// backupTypeMismatch refuses restoring a share group's start offsets into a group of another
// type, or committed offsets into a share group: the positions mean another thing there.
// A backup that does not name its group's type (older ones) is not checked.
func backupTypeMismatch(b Backup, in plan.Input) []plan.Blocker {
	was := b.Manifest.GroupType
	if was == "" || !in.GroupExists || (was == model.TypeShare) == (in.Type == model.TypeShare) {
		return nil
	}
	return []plan.Blocker{{Kind: plan.BlockBackupMismatch, Message: fmt.Sprintf(
		"%s holds the positions of a %s group, and %s is a %s group now: share-group start offsets and committed offsets are not interchangeable",
		b.Path, was, in.Group, in.Type)}}
}

func (s *Planner) makePlan(ctx context.Context, scope plan.Scope, st plan.Strategy, in plan.Input) plan.Plan {
	p := plan.Make(scope, st, in)
	if ts := s.targetTimestamps(ctx, p); len(ts) > 0 {
		in.TargetTimestamps = ts
		p = plan.Make(scope, st, in)
	}
	window := s.RiskWindow
	if window <= 0 {
		window = model.DefaultRiskWindow
	}
	p.Notes = append(p.Notes, plan.TargetExpiryNotes(p, in.RetentionMs, s.now(), window)...)
	return p
}

// backupMismatch returns what forbids restoring backup b onto group on the
// cluster with id clusterID.
func backupMismatch(b Backup, group string, clusterID *string, opt RestoreOptions) []plan.Blocker {
	var bs []plan.Blocker
	m := b.Manifest
	if m.Group != group && !opt.OtherGroup {
		bs = append(bs, plan.Blocker{Kind: plan.BlockBackupMismatch, Message: fmt.Sprintf(
			"%s is a backup of group %q, not %q: restoring it would put another group's positions on this one; pass --allow-other-group if that is what you mean",
			b.Path, m.Group, group)})
	}
	switch {
	case opt.OtherCluster:
	case m.ClusterID == nil || clusterID == nil:
		bs = append(bs, plan.Blocker{Kind: plan.BlockBackupMismatch, Message: fmt.Sprintf(
			"cannot confirm that %s was taken on this cluster (a cluster id is unknown); pass --allow-other-cluster to restore it anyway", b.Path)})
	case *m.ClusterID != *clusterID:
		bs = append(bs, plan.Blocker{Kind: plan.BlockBackupMismatch, Message: fmt.Sprintf(
			"%s was taken on cluster %s (%s), and this is cluster %s: pass --allow-other-cluster if that is what you mean",
			b.Path, *m.ClusterID, m.Bootstrap, *clusterID)})
	}
	return bs
}

func (s *Planner) read(ctx context.Context, group string, topics []string, st plan.Strategy) (plan.Input, error) {
	var at time.Time
	if st.Kind == plan.ToDatetime || st.Kind == plan.ByDuration {
		at = st.Time
	}
	in, err := s.Cluster.ReadPlanInput(ctx, group, topics, at)
	if err != nil {
		return plan.Input{}, fmt.Errorf("read the state of group %s: %w", group, err)
	}
	in.ReadAt = s.now()
	in.ReadOnly = s.ReadOnly
	in.AssumeReset = s.AssumeReset
	switch {
	case st.Kind == plan.FromGroup:
		in.NewGroup = plan.NewGroupCopy // copying into a new group is a use, not a typo
	case s.AllowNewGroup:
		in.NewGroup = plan.NewGroupAllowed
	}
	if st.Kind == plan.Restore && st.GroupType == model.TypeShare && !in.GroupExists {
		// A share group's backup into a name no broker lists (the undo of deleting it):
		// AlterShareGroupOffsets makes the share group again; an offset commit would make a
		// classic group.
		in.Type, in.Unwritable = model.TypeShare, s.Cluster.ShareUnwritable(ctx, group)
	}
	in.AllowCommitter = s.AllowCommitter
	in.Committer = s.committerAtPlan(ctx, in)
	return in, nil
}

// readSource reads the source group of a from-group plan: whether it exists, its
// type and its commits. Describing a group never joins it.
func (s *Planner) readSource(ctx context.Context, group string) (plan.SourceGroup, error) {
	in, err := s.Cluster.ReadPlanInput(ctx, group, nil, time.Time{})
	if err != nil {
		return plan.SourceGroup{}, fmt.Errorf("read the source group %s: %w", group, err)
	}
	return plan.SourceGroup{Group: group, Exists: in.GroupExists, Type: in.Type, Committed: in.Committed}, nil
}

func (s *Planner) targetTimestamps(ctx context.Context, p plan.Plan) map[model.TPO]time.Time {
	var want []model.TPO
	for _, r := range p.Rows {
		if r.Target != nil && r.High != nil && *r.Target < *r.High {
			want = append(want, model.TPO{TP: r.TP(), Offset: *r.Target})
		}
	}
	if len(want) == 0 {
		return nil
	}
	return s.Cluster.TargetTimestamps(ctx, want, timestampBudget)
}

// scopeTopics lists the topics a plan reads: the scope's, or the file's; none
// means every topic with a commit (--all-topics).
func scopeTopics(scope plan.Scope, st plan.Strategy) []string {
	var out []string
	add := func(t string) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if st.Kind.FromFileKind() || st.Kind == plan.FromGroup && !scope.AllTopics && len(scope.Topics) == 0 {
		for _, r := range st.File {
			add(r.Topic)
		}
		return out
	}
	if scope.AllTopics {
		return nil
	}
	for _, t := range scope.Topics {
		add(t.Topic)
	}
	return out
}

// planTopics lists the topics of a plan's rows.
func planTopics(p plan.Plan) []string {
	var out []string
	for _, r := range p.Rows {
		if !slices.Contains(out, r.Topic) {
			out = append(out, r.Topic)
		}
	}
	return out
}
