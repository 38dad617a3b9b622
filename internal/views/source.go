package views

import (
	"context"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
)

// Source reads the cluster. internal/kafka implements it for a real cluster and
// tests implement it with fixtures, which keeps sarama out of this package.
type Source interface {
	// Snapshot reads the cluster; q.Groups empty = all groups. Returns an error only when
	// nothing could be read (cannot connect); per-item errors are inside the snapshot.
	Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error)
}

// Options configure the inspector.
type Options struct {
	// Source is where snapshots come from.
	Source Source
	// Cluster is what the header calls the cluster: the bootstrap servers or "demo".
	Cluster string
	// Demo is set when the cluster is the embedded demo (--demo), which stops
	// when the process exits: the reset result says its undo command works only
	// while offsettui runs.
	Demo bool
	// Refresh is the auto-refresh interval; 0 refreshes only when asked (r).
	Refresh time.Duration
	// RiskWindow is how far ahead at-risk looks; 0 means model.DefaultRiskWindow.
	RiskWindow time.Duration
	// ReadOnly shows the READ-ONLY badge and disables every binding that could
	// lead to a write.
	ReadOnly bool
	// NoColor renders without colors (NO_COLOR in the environment does too).
	NoColor bool
	// Now is the clock; nil means time.Now. Views never call time.Now themselves.
	Now func() time.Time
	// Resetter plans and executes offset resets; nil leaves R (the reset
	// planner) disabled. With ReadOnly set, plans are shown but never armed.
	Resetter Resetter
	// StallAfter is --stall-after (docs/timeaxis.md); 0 means the default.
	StallAfter time.Duration
	// CommitLog holds the query's CommitLog and CommitLogBudget (--commit-log): whether
	// a refresh reads __consumer_offsets for the commit-expiry clock.
	CommitLog model.Query
	// WriteReport renders the Markdown incident report; nil leaves w (write
	// the report) disabled. ReportDir is where w writes it, and where the
	// planner's w writes plan files ("" = the working directory).
	WriteReport ReportWriter
	ReportDir   string
	// Context is the context in use, shown in the header; empty Name for none.
	Context ContextInfo
	// Contexts lists the contexts and connects to one (`:ctx`); nil disables it.
	Contexts ContextSwitcher
	// Close releases Source's connection when a `:ctx` switch replaces it; nil: nothing to
	// release.
	Close func()
}

// ReportWriter renders a snapshot as the Markdown incident report
// (internal/report implements it; views does not import it).
type ReportWriter func(w io.Writer, s model.Snapshot) error

// Resetter plans and executes guarded offset resets. internal/reset implements
// it (through an adapter in cmd/offsettui) and enforces every guard again on
// Execute; tests implement it with fixtures, which keeps Kafka out of this package.
type Resetter interface {
	// Plan reads the group's state and makes the plan; blockers are in the plan.
	// It returns an error only when the state cannot be read.
	Plan(ctx context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error)
	// Execute carries out a confirmed plan under every guard and reports what happened.
	Execute(ctx context.Context, p plan.Plan) plan.ResetResult
	// Backups lists the backups written for a group, newest first: what a
	// restore can put back.
	Backups(ctx context.Context, group string) ([]plan.Backup, error)
	// WritePlan writes p to a new plan file at path for another person to apply
	// (offsettui apply, docs/resets.md#plan-files) and returns the plan as written, its
	// Reviewed naming the file and its sha256. A blocked plan is refused, nothing written.
	WritePlan(p plan.Plan, path string) (plan.Plan, error)
}

// New returns the root model of the inspector. Run it with tea.WithAltScreen.
func New(opts Options) tea.Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RiskWindow <= 0 {
		opts.RiskWindow = model.DefaultRiskWindow
	}
	noColor := opts.NoColor || os.Getenv("NO_COLOR") != ""
	c := &common{
		styles:     newStyles(noColor),
		now:        opts.Now,
		readOnly:   opts.ReadOnly,
		riskWindow: opts.RiskWindow,
		demo:       opts.Demo,
		timeOpt:    timeaxis.Options{StallAfter: opts.StallAfter},
		reports:    opts.WriteReport != nil,
		reportDir:  opts.ReportDir,
		commitLog:  opts.CommitLog,
	}
	return newApp(c, opts)
}

// queryAll is what the groups screen asks for: every group, and the
// committed-record timestamps within the fetch budget, at-risk commits first
// (the time to loss of every group it can fall within the risk window for,
// docs/timeaxis.md), then the others with lag (their time lag).
func queryAll(window time.Duration) model.Query {
	return model.Query{RiskWindow: window, FetchBudget: model.DefaultFetchBudget, TimestampsAtRiskFirst: true, ConfigMaxAge: configMaxAge}
}

// configMaxAge is how old the topic configs a refresh reuses may be: the
// groups, their offsets and the watermarks are read on every refresh, the
// configs (retention) once a minute (model.Query.ConfigMaxAge says why that
// is safe).
const configMaxAge = time.Minute

// queryGroup is what the group screen asks for lazily: one group with the
// committed records' timestamps (time lag, expires-in), within the fetch budget.
func queryGroup(group string, window time.Duration) model.Query {
	return model.Query{Groups: []string{group}, RiskWindow: window, FetchBudget: model.DefaultFetchBudget, ConfigMaxAge: configMaxAge}
}

// StagedSource is a Source that can hand over the groups before the rest of a
// snapshot (internal/kafka's SnapshotStaged): listed gets them once listed
// and described, marked Loading, at most once and before the call returns.
type StagedSource interface {
	Source
	SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error)
}

// loadSnapshotCmd reads a snapshot. It takes everything as arguments and reads no
// model field, so the closure cannot race with Update. group is "" for a full
// snapshot and the group's name for a group snapshot. staged asks a
// StagedSource for the groups first: the reply is then a snapshotListedMsg
// whose rest brings the snapshotLoadedMsg. The snapshot read is recorded on
// axis and annotated here, off the program's loop.
func loadSnapshotCmd(ctx context.Context, src Source, q model.Query, group string, gen uint64, now func() time.Time, staged bool, axis *timeAxis) tea.Cmd {
	if ss, ok := src.(StagedSource); ok && staged {
		return loadStagedCmd(ctx, ss, q, gen, now, axis)
	}
	return func() tea.Msg {
		started := now()
		snap, err := src.Snapshot(ctx, q)
		if err == nil {
			axis.record(&snap, group == "")
		}
		return snapshotLoadedMsg{gen: gen, group: group, snap: snap, err: err, started: started, ended: now()}
	}
}

// loadStagedCmd reads a full snapshot in two stages: its reply is the groups
// (snapshotListedMsg), or the snapshot itself when it came first (the groups
// could not be listed).
func loadStagedCmd(ctx context.Context, src StagedSource, q model.Query, gen uint64, now func() time.Time, axis *timeAxis) tea.Cmd {
	return func() tea.Msg {
		started := now()
		listed := make(chan model.Snapshot, 1)
		loaded := make(chan tea.Msg, 1)
		go func() {
			snap, err := src.SnapshotStaged(ctx, q, func(s model.Snapshot) { listed <- s })
			if err == nil {
				axis.record(&snap, true)
			}
			loaded <- snapshotLoadedMsg{gen: gen, snap: snap, err: err, started: started, ended: now()}
		}()
		select {
		case s := <-listed:
			return snapshotListedMsg{gen: gen, snap: s, rest: func() tea.Msg { return <-loaded }}
		case msg := <-loaded:
			return msg
		}
	}
}

// snapshotListedMsg is the first stage of a staged read: the groups alone
// (model.Snapshot.Loading). rest waits for the snapshot itself.
type snapshotListedMsg struct {
	gen  uint64
	snap model.Snapshot
	rest tea.Cmd
}

// snapshotLoadedMsg is the reply to loadSnapshotCmd.
type snapshotLoadedMsg struct {
	gen     uint64
	group   string
	snap    model.Snapshot
	err     error
	started time.Time
	ended   time.Time
}
