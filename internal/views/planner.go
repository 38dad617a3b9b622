package views

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
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

// plannerScreen plans a reset of one group (R on the group screen). The plan is
// made by the Resetter in a tea.Cmd, one request at a time, again whenever the
// form or the data change, so drift shows while the operator looks at it.
type plannerScreen struct {
	c     *common
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
	marked   []model.TP

	// The form.
	field   int
	kind    int // index into plannerKinds
	values  map[model.StrategyKind]string
	value   textinput.Model
	scopes  []scopeChoice
	scope   int
	st      model.Strategy // the form parsed, valid when invalid is nil
	invalid error
	// parsedFor is the strategy and value text st was parsed from, at parsedAt.
	// The text is parsed again only when it changes, so --by-duration's time
	// (now − d) is taken once, as typed, and does not move with each re-plan.
	parsedFor string
	parsedAt  time.Time

	// The plan. One request in flight at most: changes meanwhile set dirty and
	// are planned when it returns. gen tags requests; from (the screen) tells a
	// reply of this screen from one of a planner closed before.
	gen      uint64
	inFlight bool
	dirty    bool
	key      string      // the inputs the shown plan must match
	plan     *model.Plan // nil until made for key
	planErr  error
	madeAt   time.Time
	changes  []string // what the last re-plan found changed, sticky until the inputs change
	changeAt time.Time

	phase   plannerPhase
	confirm textinput.Model
	flash   string // the answer to the last key: wrong name, disarmed, …
	result  *ResetResult

	// Rendered in Update; View only joins them.
	top, body, bottom []string
	offset, bodyH     int
}

func newPlannerScreen(c *common, ctx context.Context, rs Resetter, group string) *plannerScreen {
	input := func(prompt string, limit int) textinput.Model {
		t := textinput.New()
		t.Prompt = prompt
		t.PromptStyle = c.styles.prompt
		t.CharLimit = limit
		t.Cursor.SetMode(cursor.CursorStatic)
		return t
	}
	s := &plannerScreen{c: c, keys: newPlannerKeys(), ctx: ctx, rs: rs, group: group,
		values: map[model.StrategyKind]string{}, value: input("", 200), confirm: input("", 300),
		kind: slices.Index(plannerKinds, defaultKind), topics: map[string]int{}}
	s.value.Width = 32
	s.scopes = scopeChoices(nil, nil, "", nil)
	s.reparse()
	return s
}

// Init implements tea.Model.
func (s *plannerScreen) Init() tea.Cmd { return nil }

// Crumb implements screen.
func (s *plannerScreen) Crumb() string { return "reset plan" }

// Capturing implements screen: the value field and the name prompt take the
// keyboard, and nothing may leave the screen while a reset runs.
func (s *plannerScreen) Capturing() bool {
	return s.phase == phaseArmed || s.phase == phaseExecuting || (s.phase == phaseEdit && s.field == fieldValue)
}

// SetSize implements screen.
func (s *plannerScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.confirm.Width = max(1, min(40, width-60))
	s.rebuild()
}

// planMadeMsg is the reply to makePlanCmd.
type planMadeMsg struct {
	from *plannerScreen
	gen  uint64
	key  string
	plan model.Plan
	err  error
}

// resetExecutedMsg is the reply to executePlanCmd.
type resetExecutedMsg struct {
	from *plannerScreen
	res  ResetResult
}

// makePlanCmd asks the Resetter for a plan. A from-file strategy reads its file
// here, off the Update loop. from only tags the reply; it is never read.
func makePlanCmd(ctx context.Context, rs Resetter, from *plannerScreen, gen uint64, key, group string, sc model.Scope, st model.Strategy) tea.Cmd {
	return func() tea.Msg {
		reply := planMadeMsg{from: from, gen: gen, key: key}
		if st.Kind.FromFileKind() {
			f, err := os.Open(st.Raw)
			if err != nil {
				reply.err = fmt.Errorf("%s: %w", st.Kind.Flag(), err)
				return reply
			}
			st, err = model.FileStrategy(st.Kind, st.Raw, f)
			f.Close()
			if err != nil {
				reply.err = err
				return reply
			}
		}
		reply.plan, reply.err = rs.Plan(ctx, group, sc, st)
		return reply
	}
}

// executePlanCmd runs a confirmed plan; the Resetter checks every guard again.
func executePlanCmd(ctx context.Context, rs Resetter, from *plannerScreen, p model.Plan) tea.Cmd {
	return func() tea.Msg { return resetExecutedMsg{from: from, res: rs.Execute(ctx, p)} }
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
		if !s.ready && msg.group == s.group {
			s.ready, s.selTopic, s.marked = true, msg.topic, msg.marked
			s.scopes = scopeChoices(s.g, s.topics, s.selTopic, s.marked)
			s.scope = defaultScope(s.scopes)
			cmd = s.requestPlan()
		}
	case planMadeMsg:
		cmd = s.planMade(msg)
	case resetExecutedMsg:
		if msg.from == s && s.phase == phaseExecuting {
			res := msg.res
			s.phase, s.result, s.offset = phaseResult, &res, 0
			cmd = func() tea.Msg { return offsetsChangedMsg{} }
		}
	case tea.KeyMsg:
		cmd = s.updateKey(msg)
	}
	s.rebuild()
	return s, cmd
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
	if s.ready { // new counts in the labels; the same choice stays chosen
		was := s.scopes[s.scope].id
		s.scopes = scopeChoices(s.g, s.topics, s.selTopic, s.marked)
		s.scope = max(0, slices.IndexFunc(s.scopes, func(c scopeChoice) bool { return c.id == was }))
	}
}

// currentScope is the scope the form says; from-file ignores it.
func (s *plannerScreen) currentScope() scopeChoice {
	if plannerKinds[s.kind].FromFileKind() {
		return fileScope
	}
	return s.scopes[s.scope]
}

// reparse validates the form as typed and sets the key of the plan it wants;
// a new key drops the plan shown, which was made for other inputs.
func (s *plannerScreen) reparse() {
	kind := plannerKinds[s.kind]
	if typed := string(kind) + "\x00" + s.values[kind]; typed != s.parsedFor {
		s.parsedFor, s.parsedAt = typed, s.c.now()
		s.st, s.invalid = parseInputs(kind, s.values[kind], s.parsedAt)
	}
	key := string(kind) + "\x00" + s.values[kind] + "\x00" + s.currentScope().id
	if key != s.key {
		s.key, s.plan, s.planErr, s.changes = key, nil, nil, nil
	}
}

// requestPlan starts a plan for the form's inputs, or marks one as due when a
// request is in flight (one at a time: typing never piles up requests).
func (s *plannerScreen) requestPlan() tea.Cmd {
	s.reparse()
	if s.invalid != nil {
		s.dirty = false
		return nil
	}
	if s.inFlight {
		s.dirty = true
		return nil
	}
	s.gen++
	s.inFlight, s.dirty = true, false
	return makePlanCmd(s.ctx, s.rs, s, s.gen, s.key, s.group, s.currentScope().scope, s.st)
}

// planMade applies a plan reply. Replies of another screen, of an older
// request or for inputs changed since are dropped.
func (s *plannerScreen) planMade(msg planMadeMsg) tea.Cmd {
	if msg.from != s || msg.gen != s.gen || !s.inFlight {
		return nil
	}
	s.inFlight = false
	if s.phase > phaseArmed {
		return nil // executing or done: the plan on screen is the one confirmed
	}
	if msg.key == s.key && s.invalid == nil {
		if msg.err != nil {
			s.planErr = msg.err
			if s.phase == phaseArmed {
				s.disarm("the plan could not be re-made; disarmed")
			}
		} else {
			s.planErr = nil
			if ch := planChanges(s.plan, &msg.plan); len(ch) > 0 {
				s.changes, s.changeAt = ch, s.c.now()
				if s.phase == phaseArmed {
					s.disarm("the plan changed while armed (see CHANGED); review it, then enter arms it again")
				}
			}
			p := msg.plan
			s.plan, s.madeAt = &p, s.c.now()
			if s.phase == phaseArmed && !s.armable() {
				s.disarm("the plan can no longer be executed; disarmed")
			}
		}
	}
	if s.dirty {
		return s.requestPlan()
	}
	return nil
}

// armable reports whether enter may arm: a plan for exactly these inputs,
// nothing blocking it, writes allowed.
func (s *plannerScreen) armable() bool {
	return s.phase <= phaseArmed && !s.c.readOnly && s.invalid == nil && s.planErr == nil &&
		s.plan != nil && s.plan.Executable() && len(s.plan.Rows) > 0
}

func (s *plannerScreen) disarm(why string) {
	s.phase, s.flash = phaseEdit, why
	s.confirm.Blur()
	s.confirm.SetValue("")
}

func (s *plannerScreen) updateKey(msg tea.KeyMsg) tea.Cmd {
	s.flash = ""
	switch s.phase {
	case phaseExecuting:
		return nil // the reset runs; only ctrl+c (the root) interrupts
	case phaseResult:
		if o, ok := s.keys.Scroll.moveCursor(msg, s.offset, len(s.body)-s.bodyH+1, s.bodyH); ok {
			s.offset = o
		}
		return nil
	case phaseArmed:
		return s.updateArmed(msg)
	}
	switch {
	case s.scroll(msg):
		return nil
	case key.Matches(msg, s.keys.Arm) && s.armable():
		s.offset = 0
		s.phase = phaseArmed
		s.value.Blur()
		s.confirm.SetValue("")
		return s.confirm.Focus()
	case key.Matches(msg, s.keys.NextField), key.Matches(msg, s.keys.PrevField):
		step := 1
		if key.Matches(msg, s.keys.PrevField) {
			step = fieldCount - 1
		}
		s.field = (s.field + step) % fieldCount
		if s.field == fieldValue && !plannerKinds[s.kind].TakesValue() {
			s.field = (s.field + step) % fieldCount // nothing to type: skip it
		}
		return s.focusField()
	}
	if s.field == fieldValue {
		if key.Matches(msg, s.keys.LeaveField) {
			s.field = fieldStrategy
			return s.focusField()
		}
		var cmd tea.Cmd
		s.value, cmd = s.value.Update(msg)
		if kind := plannerKinds[s.kind]; s.value.Value() != s.values[kind] {
			s.values[kind] = s.value.Value()
			cmd = tea.Batch(cmd, s.requestPlan())
		}
		return cmd
	}
	step := 0
	switch {
	case key.Matches(msg, s.keys.Choose):
		step = -1
	case key.Matches(msg, s.keys.ChooseNext):
		step = 1
	default:
		return nil
	}
	if s.field == fieldStrategy {
		s.kind = (s.kind + step + len(plannerKinds)) % len(plannerKinds)
		s.value.SetValue(s.values[plannerKinds[s.kind]])
		s.value.Placeholder = valueExample[plannerKinds[s.kind]]
	} else if !plannerKinds[s.kind].FromFileKind() {
		s.scope = (s.scope + step + len(s.scopes)) % len(s.scopes)
	}
	return s.requestPlan()
}

// scroll pages the plan table; false when msg is no scroll key.
func (s *plannerScreen) scroll(msg tea.KeyMsg) bool {
	switch {
	case key.Matches(msg, s.keys.ScrollDown):
		s.offset += max(1, s.bodyH-1)
	case key.Matches(msg, s.keys.ScrollUp):
		s.offset -= max(1, s.bodyH-1)
	default:
		return false
	}
	s.offset = max(0, min(s.offset, len(s.body)-s.bodyH))
	return true
}

func (s *plannerScreen) focusField() tea.Cmd {
	if s.field == fieldValue {
		return s.value.Focus()
	}
	s.value.Blur()
	return nil
}

// updateArmed runs the name prompt: the exact group name and enter execute,
// anything else executes nothing.
func (s *plannerScreen) updateArmed(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Disarm):
		s.disarm("disarmed: nothing was written")
		return nil
	case s.scroll(msg):
		return nil
	case key.Matches(msg, s.keys.Confirm):
		typed := s.confirm.Value()
		if typed != s.group {
			if typed == "" {
				s.flash = "type the group name " + s.group + " first; nothing was written"
			} else {
				s.flash = fmt.Sprintf("%q is not the group name: nothing was written; type %s exactly, or esc", typed, s.group)
			}
			return nil
		}
		if !s.armable() { // cannot happen: a changed plan disarms; guard anyway
			s.disarm("the plan can no longer be executed; disarmed")
			return nil
		}
		s.phase = phaseExecuting
		s.confirm.Blur()
		return executePlanCmd(s.ctx, s.rs, s, *s.plan)
	}
	var cmd tea.Cmd
	s.confirm, cmd = s.confirm.Update(msg)
	return cmd
}

// planChanges says what differs between two plans of the same inputs: the
// drift an operator must see before confirming, and what disarms an armed
// plan. Watermark growth alone is not listed: a target that follows
// the watermarks (to-earliest, to-latest, no commit under to-current) is
// re-read right before the commit anyway (model.Plan.Refresh), and the effects
// it changes show in the table and the totals. Otherwise an operator could
// never confirm such a plan on a topic being written to. A high watermark that
// went back is listed: the topic was truncated or recreated.
func planChanges(was, now *model.Plan) []string {
	if was == nil || now == nil {
		return nil
	}
	var out []string
	if was.State != now.State {
		out = append(out, fmt.Sprintf("state %s → %s", model.OrDash(was.State), model.OrDash(now.State)))
	}
	old := map[model.TP]model.PlanRow{}
	for _, r := range was.Rows {
		old[r.TP()] = r
	}
	for _, r := range now.Rows {
		o, ok := old[r.TP()]
		switch {
		case !ok:
			out = append(out, r.TP().String()+" is new in the plan")
		case model.Num(o.Committed) != model.Num(r.Committed):
			out = append(out, fmt.Sprintf("%s committed %s → %s", r.TP(), model.Num(o.Committed), model.Num(r.Committed)))
		case o.High != nil && r.High != nil && *r.High < *o.High:
			out = append(out, fmt.Sprintf("%s high watermark went back %s → %s (truncated or recreated?)",
				r.TP(), model.Num(o.High), model.Num(r.High)))
		case model.Num(o.Target) != model.Num(r.Target) && !(was.TargetFollowsWatermarks(o) && now.TargetFollowsWatermarks(r)):
			out = append(out, fmt.Sprintf("%s target %s → %s", r.TP(), model.Num(o.Target), model.Num(r.Target)))
		}
		delete(old, r.TP())
	}
	var left []string
	for tp := range old {
		left = append(left, tp.String()+" left the plan")
	}
	slices.Sort(left)
	out = append(out, left...)
	switch {
	case len(was.Blockers) != len(now.Blockers):
		out = append(out, fmt.Sprintf("blockers %d → %d", len(was.Blockers), len(now.Blockers)))
	case !slices.Equal(blockerTexts(was.Blockers), blockerTexts(now.Blockers)):
		out = append(out, "blockers changed") // e.g. other live members
	}
	return out
}

// blockerTexts returns the blockers' kinds and messages, sorted.
func blockerTexts(bs []model.Blocker) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, string(b.Kind)+": "+b.Message)
	}
	slices.Sort(out)
	return out
}
