package views

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// flashFor is how long a flash message stays in the status line.
const flashFor = 5 * time.Second

// historyKeep is how many refreshes of lag history are kept per group.
const historyKeep = 32

// app is the root model: a stack of screens under one header (cluster, brokers,
// age, READ-ONLY, crumbs) and above one status line and one short help line.
type app struct {
	c    *common
	opts Options
	// quitRequested is set by QuitRequestedMsg: quit as soon as no screen is
	// busy (a reset being written).
	quitRequested bool
	src           Source
	keys          globalKeys
	cmds          []command
	ctx           context.Context
	stop          context.CancelFunc
	// tick schedules the next clock tick; tests replace it to drive time by hand.
	tick func(time.Duration) tea.Cmd
	// planner builds the reset-planner screen for a group; nil until it exists,
	// which keeps `R` disabled and out of the help.
	planner func(c *common, group string) screen

	width, height, bodyH int
	stack                []screen

	snap      *model.Snapshot
	hist      *lagHistory
	axis      *timeAxis // the time axis: rates, ETA, evaluation, loss
	detailed  map[string]time.Time
	detailErr map[string]error
	ref       refresher
	lastErr   error
	lastErrAt time.Time

	// pending holds what screens returned for broadcast data (a re-plan),
	// run at the end of Update; posted holds what screens posted, carried
	// out right after the screen's Update.
	pending []tea.Cmd
	posted  []tea.Msg

	age    string // header age text, recomputed in Update
	flash  flash
	prompt textinput.Model
	help   help.Model
	// closeConn releases this root's connection when a `:ctx` switch replaces it.
	closeConn func()
	// ctxGen numbers the `:ctx` switches asked; only the latest one's reply is taken.
	ctxGen uint64
	// everRead is set once a snapshot of any cluster of this session was read.
	everRead bool
	// executed are the plans executed in this session (resets, copies, restores, deletes),
	// printed after exit.
	executed []plan.ResetResult
}

// flash is a one-line message of the status line. It belongs to the screen
// that was on top when it was raised and shows only while that screen is.
type flash struct {
	owner int
	text  string
	until time.Time
}

func newApp(c *common, opts Options) *app {
	ctx, stop := cancelable()
	p := textinput.New()
	p.Prompt = ":"
	p.PromptStyle = c.styles.prompt
	p.CharLimit = 100
	p.Cursor.SetMode(cursor.CursorStatic)
	m := &app{
		c: c, opts: opts, src: opts.Source, keys: newGlobalKeys(), cmds: builtinCommands(),
		ctx: ctx, stop: stop, tick: tickCmd,
		hist: newLagHistory(historyKeep), axis: newTimeAxis(c.timeOpt),
		detailed: map[string]time.Time{}, detailErr: map[string]error{},
		ref:    refresher{interval: opts.Refresh, started: map[string]time.Time{}},
		prompt: p, help: c.styles.help(), closeConn: opts.Close,
	}
	c.post = func(msg tea.Msg) { m.posted = append(m.posted, msg) }
	if rs := opts.Resetter; rs != nil {
		ctx := m.ctx
		m.planner = func(c *common, group string) screen { return newPlannerScreen(c, ctx, rs, group) }
	}
	m.stack = []screen{newGroupsScreen(c)}
	m.updateAge()
	return m
}

// Init implements tea.Model: the first snapshot and the clock.
func (m *app) Init() tea.Cmd {
	return tea.Batch(m.tick(tickEvery), m.maybeRefresh())
}

// Update implements tea.Model.
func (m *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(contextSwitchedMsg); ok {
		return m.contextSwitched(msg) // a new root for the new cluster
	}
	cmds := []tea.Cmd{m.apply(msg)}
	if m.quitRequested && m.busy() == "" {
		return m, m.quit()
	}
	m.updateAge()
	cmds = append(cmds, m.pending...)
	m.pending = nil
	return m, tea.Batch(cmds...)
}

// apply carries out one message: the root's own, or one for a screen.
func (m *app) apply(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
	case clockTickedMsg:
		if m.flash.text != "" && !m.c.now().Before(m.flash.until) {
			m.flash = flash{}
		}
		return tea.Batch(m.tick(tickEvery), m.maybeRefresh())
	case snapshotListedMsg:
		m.snapshotListed(msg)
		return msg.rest // the rest of the same read
	case snapshotLoadedMsg:
		m.snapshotLoaded(msg)
		return m.maybeRefresh()
	case groupChosenMsg:
		// Lazily read this group's committed-record timestamps.
		delete(m.ref.started, msg.group)
		delete(m.detailErr, msg.group)
		m.push(newGroupScreen(m.c, msg.group, m.planner != nil))
		return m.maybeRefresh()
	case planRequestedMsg:
		if m.planner == nil {
			return nil
		}
		m.push(m.planner(m.c, msg.group))
		return m.update(len(m.stack)-1, msg) // the selection: the planner starts planning
	case resetFinishedMsg:
		m.executed = append(m.executed, msg.res)
		m.axis.recordWrite(msg.res.Plan, m.c.now()) // the jump is this reset's, not consumption
		m.ref.forced = true                         // a reset wrote offsets: show them as soon as the backoff allows
		return m.maybeRefresh()
	case QuitRequestedMsg:
		m.quitRequested = true
		m.cancel() // a reset still watching before its backup stops: nothing written
		if m.busy() != "" {
			m.setFlash("asked to quit: quitting once the reset's result is in")
		}
	case contextChosenMsg:
		if _, ok := m.top().(*contextsScreen); ok {
			m.pop()
		}
		return m.switchContext(msg.name)
	case flashRaisedMsg:
		m.flash = flash{owner: msg.from, text: msg.text, until: m.c.now().Add(flashFor)}
	case reportRequestedMsg:
		return m.writeReport(msg)
	case reportWrittenMsg:
		m.flash = flash{owner: msg.from, text: reportFlash(msg), until: m.c.now().Add(flashFor)}
	case screenMsg:
		for i, s := range m.stack {
			if s.ID() == msg.to {
				return m.update(i, msg.msg)
			}
		}
		// The screen that asked is gone: its reply is dropped.
	case tea.KeyMsg:
		return m.handleKeys(msg)
	default:
		return m.update(len(m.stack)-1, msg)
	}
	return nil
}

// update hands a message to the screen at stack index i, then carries out
// what it posted, so a burst's next key already sees the result.
func (m *app) update(i int, msg tea.Msg) tea.Cmd {
	next, cmd := m.stack[i].Update(msg)
	m.stack[i] = next.(screen)
	return tea.Batch(cmd, m.drain())
}

// drain carries out the screens' posted requests, in order.
func (m *app) drain() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.posted) > 0 {
		msg := m.posted[0]
		m.posted = m.posted[1:]
		cmds = append(cmds, m.apply(msg))
	}
	return tea.Batch(cmds...)
}

// quit ends the program, except while a screen is busy (a reset being
// written: its commit may still land, and the operator must see the result
// and the undo command; quitting would also cancel the context the reset
// runs under). The Resetter's own timeouts bound the wait.
func (m *app) quit() tea.Cmd {
	if why := m.busy(); why != "" {
		m.setFlash(why)
		return nil
	}
	m.stop()
	return tea.Quit
}

// QuitRequestedMsg asks the TUI to quit from outside (SIGINT or SIGTERM): at
// once, or, while a reset is being written, as soon as its result is in, so the
// outcome is audited and the undo command is not lost.
type QuitRequestedMsg struct{}

// cancel asks each screen on the stack to stop what can still stop without harm (a reset
// watching before its backup), and reports whether one did.
func (m *app) cancel() bool {
	for _, s := range m.stack {
		if s.Cancel() {
			return true
		}
	}
	return false
}

// busy says why a screen on the stack must not be left now, or "".
func (m *app) busy() string {
	for _, s := range m.stack {
		if why := s.Busy(); why != "" {
			return why
		}
	}
	return ""
}

func (m *app) top() screen { return m.stack[len(m.stack)-1] }

// forward hands a message to the top screen.
func (m *app) forward(msg tea.Msg) tea.Cmd { return m.update(len(m.stack)-1, msg) }

func (m *app) push(s screen) {
	next, cmd := s.Update(m.dataMsg())
	s = next.(screen)
	s.SetSize(m.width, m.bodyH)
	m.stack = append(m.stack, s)
	if cmd != nil {
		m.pending = append(m.pending, cmd)
	}
}

func (m *app) pop() {
	if len(m.stack) > 1 {
		gone := m.top().ID()
		m.stack = m.stack[:len(m.stack)-1]
		if m.flash.owner == gone {
			m.flash = flash{}
		}
	}
}

// openGroup names the group the screens are about, top first, or "".
func (m *app) openGroup() string {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if g := m.stack[i].Group(); g != "" {
			return g
		}
	}
	return ""
}

func (m *app) dataMsg() dataAppliedMsg {
	d := dataAppliedMsg{snap: m.snap, hist: m.hist, detailed: m.detailed, detailErr: m.detailErr, axis: m.axis}
	if m.ref.inFlight {
		d.fetching = m.ref.flying
	}
	return d
}

// broadcastData tells every screen on the stack about new data. What they
// return (the planner re-plans) runs at the end of Update.
func (m *app) broadcastData() {
	msg := m.dataMsg()
	for i := range m.stack {
		if cmd := m.update(i, msg); cmd != nil {
			m.pending = append(m.pending, cmd)
		}
	}
}

// resize measures the chrome and gives every screen the rest.
func (m *app) resize() {
	m.help.Width = m.width
	m.prompt.Width = max(1, m.width-2)
	m.bodyH = max(1, m.height-lipgloss.Height(m.headerView())-lipgloss.Height(m.footerView()))
	for _, s := range m.stack {
		s.SetSize(m.width, m.bodyH)
	}
}

// writeReport starts writing the report a screen asked for; the flash that
// says where it went belongs to that screen.
func (m *app) writeReport(msg reportRequestedMsg) tea.Cmd {
	if m.snap == nil || m.opts.WriteReport == nil {
		return nil
	}
	if m.snap.Loading {
		m.flash = flash{owner: msg.from, text: "no report yet: the offsets are still being read", until: m.c.now().Add(flashFor)}
		return nil
	}
	dir := m.opts.ReportDir
	if dir == "" {
		dir = "."
	}
	path := reportPath(dir, msg.what, m.c.now())
	m.flash = flash{owner: msg.from, text: "writing the report to " + path + "…", until: m.c.now().Add(flashFor)}
	return writeReportCmd(m.ctx, m.opts.WriteReport, reportSnapshot(m.snap, msg.groups, m.detailed), path, msg.from)
}

// setFlash raises a flash for the screen on top.
func (m *app) setFlash(s string) {
	m.flash = flash{owner: m.top().ID(), text: s, until: m.c.now().Add(flashFor)}
}

// View implements tea.Model.
func (m *app) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	view := m.top().View()
	if m.snap == nil && len(m.stack) == 1 {
		view = connectView(m.c.styles, m.opts.Cluster, m.lastErr)
	}
	body := fitLines(view, m.width, m.bodyH)
	return m.headerView() + "\n" + body + "\n" + m.footerView()
}

// shortHelp is the always-visible key line: the screen's keys, then global ones.
func (m *app) shortHelp() []key.Binding {
	if m.prompt.Focused() {
		return []key.Binding{m.keys.PromptRun, m.keys.PromptCancel}
	}
	top := m.top()
	b := top.ShortHelp()
	if top.Capturing() {
		return b
	}
	if len(m.stack) > 1 {
		b = append([]key.Binding{m.keys.Back}, b...)
	}
	// keyBar drops : and r first, then the screen's keys from the last, ? and q last.
	return append(b, m.keys.Help, m.keys.Quit, m.keys.Refresh, m.keys.Command)
}
