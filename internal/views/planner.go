package views

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// plannerPhase is where the planner stands on the way to a write. Every step
// takes its own keystrokes: enter arms, the typed group name confirms, enter
// executes. No single key writes anything.
type plannerPhase int

const (
	phaseEdit      plannerPhase = iota // choosing; the plan follows the form
	phaseArmed                         // asking for the group name
	phaseExecuting                     // Resetter.Execute in flight
	phaseResult                        // what happened, with backup and undo
)

// The form's fields, in tab order.
const (
	fieldStrategy = iota
	fieldValue
	fieldScope
	fieldCount
)

// writingNote answers a quit or esc while a reset is being written.
const writingNote = "a reset is being written: wait for its result"

// plannerScreen plans a reset of one group (R on the group screen), or the
// restore of one of its backups (u). The plan is made by the Resetter in a
// tea.Cmd, one request at a time, again whenever the form or the data change,
// so drift shows while the operator looks at it. Replies are addressed to the
// screen (screenMsg), so they arrive even while help is on top.
type plannerScreen struct {
	c     *common
	id    int
	keys  plannerKeys
	ctx   context.Context
	rs    Resetter
	group string

	width, height int

	// ready is set once the group screen's selection arrived; planning starts then.
	ready    bool
	snap     *model.Snapshot
	g        *model.Group
	topics   map[string]int // partition counts, for the scope labels
	selTopic string
	// selUncommitted: the row R was pressed on has no commit (planRequestedMsg).
	selUncommitted bool
	marked         []model.TP
	cursor         *model.TP // the row R was pressed on

	// The form.
	field  int
	kind   int // index into plannerKinds
	values map[plan.StrategyKind]string
	value  textinput.Model
	scopes []scopeChoice // a reset's; scopeList has each kind's
	// scopeID is the scope chosen; scopeChosen that the operator chose it (a kind
	// chosen next keeps it where it offers it, else starts on its own).
	scopeID     string
	scopeChosen bool
	st          plan.Strategy // the form parsed, valid when invalid is nil
	invalid     error
	// parsedFor is the strategy and value text st was parsed from, at parsedAt.
	// The text is parsed again only when it changes, so --by-duration's time
	// (now − d) is taken once, as typed, and does not move with each re-plan.
	parsedFor string
	parsedAt  time.Time
	// backups are this group's backups, newest first, for a restore; backup
	// is the one chosen.
	backups    []plan.Backup
	backup     int
	backupsErr error
	backupsIn  bool // the list arrived
	// src is the from-group source chooser (planner_source.go).
	src sourceChooser

	// The plan: one request in flight at most (req); changes meanwhile are
	// planned when it returns.
	req      request
	key      string     // the inputs the shown plan must match
	plan     *plan.Plan // nil until made for key
	planErr  error
	madeAt   time.Time
	changes  []string // what the last re-plan found changed, sticky until the inputs change
	changeAt time.Time

	// allowCommitter is the operator's override of the committer guard (!), for this
	// screen's plans; progress is where an execution's watch stands (its countdown).
	allowCommitter bool
	progress       *plan.Progress
	// cancelExec cancels the execution in flight; it stops it only until the backup
	// begins (writeBegun, from its progress). cancelling: asked, its result not in yet.
	cancelExec context.CancelFunc
	writeBegun bool
	cancelling bool
	// assume is the auto.offset.reset the operator chose for the counts (a); "" keeps
	// each plan's own (--assume-reset).
	assume string

	phase   plannerPhase
	confirm textinput.Model
	// holding: the plan disarmed itself (it changed while armed) while the
	// operator was typing the group name. The name field keeps the keyboard
	// until esc leaves it, so what is typed next stays text and never becomes a
	// planner key (an "l" of the name choosing another strategy, an enter
	// arming it).
	holding bool
	flash   string // the answer to the last key: wrong name, disarmed, …
	result  *plan.ResetResult

	// Rendered in Update; View only joins them.
	top, body, bottom []string
	offset, bodyH     int
}

func newPlannerScreen(c *common, ctx context.Context, rs Resetter, group string) *plannerScreen {
	input := func(limit int) textinput.Model {
		t := textinput.New()
		t.Prompt = ""
		t.PromptStyle = c.styles.prompt
		t.CharLimit = limit
		t.Cursor.SetMode(cursor.CursorStatic)
		return t
	}
	// The confirmation has no limit: Kafka sets no short one on group ids.
	s := &plannerScreen{c: c, id: c.nextID(), keys: newPlannerKeys(), ctx: ctx, rs: rs, group: group,
		values: map[plan.StrategyKind]string{}, value: input(200), confirm: input(0),
		kind: slices.Index(plannerKinds, defaultKind), topics: map[string]int{}}
	s.value.Width = 32
	s.scopes = scopeChoices(nil, nil, "", nil)
	s.reparse()
	return s
}

// Init implements tea.Model.
func (s *plannerScreen) Init() tea.Cmd { return nil }

// ID implements screen.
func (s *plannerScreen) ID() int { return s.id }

// Crumb implements screen.
func (s *plannerScreen) Crumb() string {
	return strings.ToLower(display.OperationTitle(s.kindNow())) + " plan"
}

// Capturing implements screen: the value field and the name prompt take the
// keyboard, and nothing may leave the screen while a reset runs.
func (s *plannerScreen) Capturing() bool {
	return s.phase == phaseArmed || s.phase == phaseExecuting || (s.phase == phaseEdit && (s.typing() || s.holding))
}

// typing reports whether the value field is a text input with the keyboard
// (a restore chooses its backup with ←/→ instead).
func (s *plannerScreen) typing() bool {
	return s.field == fieldValue && plannerKinds[s.kind] != plan.Restore
}

// Back implements screen: esc leaves the planner (the root asks Busy first).
func (s *plannerScreen) Back() bool { return false }

// Busy implements screen: the planner cannot be left while a reset is executing (Cancel
// stops one still watching before its backup; its result then says cancelled).
func (s *plannerScreen) Busy() string {
	switch {
	case s.phase != phaseExecuting:
		return ""
	case s.cancelling:
		return "cancelling: waiting for the reset to stop (nothing written)"
	case !s.writeBegun:
		return "watching — nothing written yet: esc or ctrl+c cancels the reset"
	}
	return writingNote
}

// Cancel implements screen: an execution still watching the group before its backup is
// cancelled (nothing written, no backup; its result says cancelled). From the backup on it
// runs to its answer: false then.
func (s *plannerScreen) Cancel() bool {
	if s.phase != phaseExecuting || s.writeBegun || s.cancelling {
		return false
	}
	s.cancelling = true
	s.cancelExec()
	s.flash = "cancelling: nothing written"
	s.rebuild() // the root calls this from its Update: the screen shows it at once
	return true
}

// Group implements screen.
func (s *plannerScreen) Group() string { return s.group }

// Columns implements screen.
func (s *plannerScreen) Columns() []columnNote {
	p := &plan.Plan{} // no plan yet: a consumer group's columns
	switch {
	case s.result != nil:
		p = &s.result.Plan
	case s.plan != nil:
		p = s.plan
	}
	return columnNotes(planColumns(p), planColumnHelp)
}

// Notes implements screen.
func (s *plannerScreen) Notes() []string {
	return []string{"No key writes alone: enter arms a plan without blockers, the exact group name typed confirms, " +
		"enter executes; a backup is written first. Besides the resets, the strategy field offers --from-group " +
		"(copy another group's positions), --delete-offsets and --delete-group, under the same guards. " +
		"u on a group plans the restore of one of its backups."}
}

// SetSize implements screen.
func (s *plannerScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.confirm.Width = max(len(s.group)+1, min(40, width-60))
	s.rebuild()
}

// planMadeMsg is the reply to makePlanCmd.
type planMadeMsg struct {
	gen  uint64
	key  string
	plan plan.Plan
	err  error
}

// resetExecutedMsg is the reply to executePlanCmd.
type resetExecutedMsg struct{ res plan.ResetResult }

// resetProgressMsg is where an execution's watch stands (a countdown); next waits for the
// next one, or the result.
type resetProgressMsg struct {
	progress plan.Progress
	next     tea.Cmd
}

// backupsListedMsg is the reply to listBackupsCmd.
type backupsListedMsg struct {
	backups []plan.Backup
	err     error
}

// makePlanCmd asks the Resetter for a plan, for screen id. A from-file
// strategy reads its file here, off the Update loop; a restore names its
// backup, which the Resetter loads and checks against its manifest.
func makePlanCmd(ctx context.Context, rs Resetter, id int, gen uint64, key, group string, sc plan.Scope, st plan.Strategy) tea.Cmd {
	return replyTo(id, func() tea.Msg {
		reply := planMadeMsg{gen: gen, key: key}
		if st.Kind == plan.FromFile {
			f, err := os.Open(st.Raw)
			if err != nil {
				reply.err = fmt.Errorf("%s: %w", st.Kind.Flag(), err)
				return reply
			}
			st, err = plan.FileStrategy(st.Kind, st.Raw, f)
			f.Close()
			if err != nil {
				reply.err = err
				return reply
			}
		}
		reply.plan, reply.err = rs.Plan(ctx, group, sc, st)
		return reply
	})
}

// executePlanCmd runs a confirmed plan; the Resetter checks every guard again. Its
// progress (the watches of the group's commits before and after the write) comes as
// resetProgressMsg, the newest only, until the result.
func executePlanCmd(ctx context.Context, rs Resetter, id int, p plan.Plan) tea.Cmd {
	p.Rows = slices.Clone(p.Rows) // the Resetter sets each row's result; the screen still draws these
	updates := make(chan plan.Progress, 1)
	done := make(chan tea.Msg, 1)
	ctx = plan.WithProgress(ctx, func(pr plan.Progress) {
		select { // keep only the newest: the screen shows where the watch stands now
		case <-updates:
		default:
		}
		updates <- pr
	})
	go func() { done <- resetExecutedMsg{res: rs.Execute(ctx, p)} }()
	var wait func() tea.Msg
	wait = func() tea.Msg {
		select {
		case m := <-done:
			return m
		case pr := <-updates:
			return resetProgressMsg{progress: pr, next: replyTo(id, wait)}
		}
	}
	return replyTo(id, wait)
}

// listBackupsCmd lists a group's backups for a restore.
func listBackupsCmd(ctx context.Context, rs Resetter, id int, group string) tea.Cmd {
	return replyTo(id, func() tea.Msg {
		bs, err := rs.Backups(ctx, group)
		return backupsListedMsg{backups: bs, err: err}
	})
}

// Update implements tea.Model.
func (s *plannerScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case dataAppliedMsg:
		if msg.snap != s.snap {
			s.applyData(msg.snap)
			if s.ready && s.phase <= phaseArmed {
				cmd = s.requestPlan() // re-plan on each refresh, so drift shows
			}
		}
	case planRequestedMsg:
		cmd = s.start(msg)
	case planMadeMsg:
		cmd = s.planMade(msg)
	case backupsListedMsg:
		cmd = s.backupsListed(msg)
	case planFileWrittenMsg:
		s.planFileWritten(msg)
	case resetProgressMsg:
		if s.phase == phaseExecuting {
			s.progress = &msg.progress
			s.writeBegun = s.writeBegun || msg.progress.Phase != plan.PhaseObserve
			if s.writeBegun && s.cancelling { // the cancel came as the backup began: it runs on
				s.cancelling = false
				s.flash = "too late to cancel: the backup has begun; the reset runs to its answer"
			}
		}
		cmd = msg.next
	case resetExecutedMsg:
		if s.phase == phaseExecuting {
			res := msg.res
			s.phase, s.result, s.offset = phaseResult, &res, 0
			s.cancelExec()
			s.c.post(resetFinishedMsg{res: res})
		}
	case tea.KeyMsg:
		cmd = s.updateKey(msg)
	}
	s.rebuild()
	return s, cmd
}

// start takes the group screen's selection and starts planning; it lists the
// group's backups too, for a restore.
func (s *plannerScreen) start(msg planRequestedMsg) tea.Cmd {
	if s.ready || msg.group != s.group {
		return nil
	}
	s.ready, s.selTopic, s.selUncommitted, s.marked, s.cursor = true, msg.topic, msg.uncommitted, msg.marked, msg.cursor
	s.scopes = s.scopeChoices()
	if msg.restore {
		s.kind, s.field = slices.Index(plannerKinds, plan.Restore), fieldValue
	}
	s.kindChanged()
	return tea.Batch(listBackupsCmd(s.ctx, s.rs, s.id, s.group), s.requestPlan())
}

// applyData keeps what the form needs from a new snapshot.
func (s *plannerScreen) applyData(snap *model.Snapshot) {
	s.snap, s.g = snap, nil
	if snap == nil {
		return
	}
	for i := range snap.Groups {
		if snap.Groups[i].Group == s.group {
			s.g = &snap.Groups[i]
		}
	}
	s.topics = map[string]int{}
	for _, t := range snap.Topics {
		if t.Partitions > 0 {
			s.topics[t.Topic] = t.Partitions
		}
	}
	if s.ready { // new counts in the labels; the same choice (scopeID) stays chosen
		s.scopes = s.scopeChoices()
	}
	s.src.refresh(snap, s.g, s.group)
	s.values[plan.FromGroup] = s.src.chosen()
}

// reparse validates the form as typed and sets the key of the plan it wants;
// a new key drops the plan shown, which was made for other inputs.
func (s *plannerScreen) reparse() {
	kind := plannerKinds[s.kind]
	if typed := string(kind) + "\x00" + s.values[kind]; typed != s.parsedFor {
		s.parsedFor, s.parsedAt = typed, s.c.now()
		s.st, s.invalid = parseInputs(kind, s.values[kind], s.parsedAt)
		if s.invalid == nil && kind == plan.FromGroup {
			s.invalid = plan.SourceIsGroup(s.group, s.st.Raw)
		}
	}
	key := string(kind) + "\x00" + s.values[kind] + "\x00" + s.currentScope().id
	if key != s.key {
		s.key, s.plan, s.planErr, s.changes = key, nil, nil, nil
	}
}

// requestPlan starts a plan for the form's inputs, or remembers that one is
// due when a request is in flight (typing never piles up requests).
func (s *plannerScreen) requestPlan() tea.Cmd {
	s.reparse()
	if s.invalid != nil {
		s.req.drop()
		return nil
	}
	gen, ok := s.req.start()
	if !ok {
		return nil
	}
	return makePlanCmd(s.ctx, s.rs, s.id, gen, s.key, s.group, s.currentScope().scope, s.st)
}

// planMade applies a plan reply. Replies of an older request or for inputs
// changed since are dropped.
func (s *plannerScreen) planMade(msg planMadeMsg) tea.Cmd {
	if !s.req.done(msg.gen) {
		return nil
	}
	if s.phase > phaseArmed {
		return nil // executing or done: the plan on screen is the one confirmed
	}
	if msg.key == s.key && s.invalid == nil {
		s.applyPlan(msg)
	}
	if s.req.again() {
		return s.requestPlan()
	}
	return nil
}

// applyPlan shows a plan made for the current inputs and disarms when it
// changed or can no longer be executed.
func (s *plannerScreen) applyPlan(msg planMadeMsg) {
	if msg.err != nil {
		s.planErr = msg.err
		if s.phase == phaseArmed {
			s.disarmItself("the plan could not be re-made; disarmed")
		}
		return
	}
	s.planErr = nil
	msg.plan = s.withAssumption(s.withCommitter(msg.plan))
	if ch := planChanges(s.plan, &msg.plan); len(ch) > 0 {
		s.changes, s.changeAt = ch, s.c.now()
		if s.phase == phaseArmed {
			s.disarmItself("the plan changed while armed (see CHANGED); review it, then enter arms it again")
		}
	}
	p := msg.plan
	s.plan, s.madeAt = &p, s.c.now()
	if s.phase == phaseArmed && !s.armable() {
		s.disarmItself("the plan can no longer be executed; disarmed")
	}
}

// disarmItself disarms a plan that changed under the operator: the name field
// keeps the keyboard (holding) until esc leaves it.
func (s *plannerScreen) disarmItself(why string) {
	s.phase, s.flash, s.holding = phaseEdit, why, true
}

// armable reports whether enter may arm: a plan for exactly these inputs,
// nothing blocking it, writes allowed.
func (s *plannerScreen) armable() bool {
	return s.phase <= phaseArmed && !s.c.readOnly && s.invalid == nil && s.planErr == nil &&
		s.plan != nil && s.plan.Executable() && len(s.plan.Rows) > 0
}

func (s *plannerScreen) disarm(why string) {
	s.phase, s.flash, s.holding = phaseEdit, why, false
	s.confirm.Blur()
	s.confirm.SetValue("")
}
