package views

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/offsettui/offsettui/internal/model"
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
	// quitRequested is set by QuitRequestedMsg: quit as soon as no reset is
	// being written.
	quitRequested bool
	src           Source
	keys          globalKeys
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
	axis      *model.History // the time axis: rates, ETA, evaluation, loss
	detailed  map[string]time.Time
	detailErr map[string]error
	ref       refresher
	lastErr   error
	lastErrAt time.Time

	// pending holds what screens returned for broadcast data (a re-plan),
	// run at the end of Update.
	pending []tea.Cmd

	age        string // header age text, recomputed in Update
	flash      string
	flashUntil time.Time
	prompt     textinput.Model
	help       help.Model
}

func newApp(c *common, opts Options) *app {
	ctx, stop := cancelable()
	p := textinput.New()
	p.Prompt = ":"
	p.PromptStyle = c.styles.prompt
	p.CharLimit = 100
	p.Cursor.SetMode(cursor.CursorStatic)
	m := &app{
		c: c, opts: opts, src: opts.Source, keys: newGlobalKeys(),
		ctx: ctx, stop: stop, tick: tickCmd,
		hist: newLagHistory(historyKeep), axis: newAxis(c.timeOpt.StallAfter),
		detailed: map[string]time.Time{}, detailErr: map[string]error{},
		ref:    refresher{interval: opts.Refresh, started: map[string]time.Time{}},
		prompt: p, help: c.styles.help(),
	}
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
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
	case clockTickedMsg:
		if !m.flashUntil.IsZero() && !m.c.now().Before(m.flashUntil) {
			m.flash, m.flashUntil = "", time.Time{}
		}
		cmds = append(cmds, m.tick(tickEvery), m.maybeRefresh())
	case snapshotLoadedMsg:
		m.snapshotLoaded(msg)
		cmds = append(cmds, m.maybeRefresh())
	case groupChosenMsg:
		// Lazily read this group's committed-record timestamps.
		delete(m.ref.started, msg.group)
		delete(m.detailErr, msg.group)
		m.push(newGroupScreen(m.c, msg.group, m.planner != nil))
		cmds = append(cmds, m.maybeRefresh())
	case planRequestedMsg:
		if m.planner != nil {
			m.push(m.planner(m.c, msg.group))
			cmds = append(cmds, m.forward(msg)) // the selection: the planner starts planning
		}
	case offsetsChangedMsg:
		m.ref.forced = true // a reset wrote offsets: show them as soon as the backoff allows
		cmds = append(cmds, m.maybeRefresh())
	case reportRequestedMsg:
		cmds = append(cmds, m.writeReport(msg))
	case reportWrittenMsg:
		m.setFlash(reportFlash(msg))
	case tea.KeyMsg:
		cmds = append(cmds, m.handleKey(msg))
	case QuitRequestedMsg:
		m.quitRequested = true
		if m.writing() {
			m.setFlash("asked to quit: quitting once the reset's result is in")
		}
	default:
		cmds = append(cmds, m.forward(msg))
	}
	if m.quitRequested && !m.writing() {
		return m, m.quit()
	}
	m.updateAge()
	cmds = append(cmds, m.pending...)
	m.pending = nil
	return m, tea.Batch(cmds...)
}

func (m *app) handleKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.ForceQuit) {
		return m.quit()
	}
	if m.prompt.Focused() {
		return m.updatePrompt(msg)
	}
	if m.top().Capturing() {
		return m.forward(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help):
		if _, open := m.top().(*helpScreen); open {
			m.pop()
			return nil
		}
		m.push(newHelpScreen(m.c, m.top(), m.keys))
		return nil
	case key.Matches(msg, m.keys.Command):
		m.prompt.SetValue("")
		return m.prompt.Focus()
	case key.Matches(msg, m.keys.Refresh):
		return m.refreshNow()
	case key.Matches(msg, m.keys.Back) && len(m.stack) > 1:
		m.pop()
		return m.maybeRefresh()
	}
	return m.forward(msg)
}

// updatePrompt runs the `:` command prompt.
func (m *app) updatePrompt(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.PromptCancel):
		m.prompt.Blur()
		return nil
	case key.Matches(msg, m.keys.PromptRun):
		m.prompt.Blur()
		return m.runCommand(strings.TrimSpace(m.prompt.Value()))
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	return cmd
}

func (m *app) runCommand(cmd string) tea.Cmd {
	switch cmd {
	case "":
		return nil
	case "q", "q!", "quit", "qa":
		return m.quit()
	case "groups", "group", "gr":
		for len(m.stack) > 1 {
			m.pop()
		}
		return m.maybeRefresh()
	case "help", "h":
		m.push(newHelpScreen(m.c, m.top(), m.keys))
		return nil
	}
	m.setFlash("unknown command :" + cmd + " (try :groups, :help, :q)")
	return nil
}

// quit ends the program, except while a reset is being written: its commit
// may still land, and the operator must see the result and the undo command.
// Quitting would also cancel the context the reset runs under. The Resetter's
// own timeouts bound the wait.
func (m *app) quit() tea.Cmd {
	if m.writing() {
		m.setFlash(writingFlash)
		return nil
	}
	m.stop()
	return tea.Quit
}

// QuitRequestedMsg asks the TUI to quit from outside (SIGINT or SIGTERM): at
// once, or, while a reset is being written, as soon as its result is in, so the
// outcome is audited and the undo command is not lost.
type QuitRequestedMsg struct{}

// writingFlash answers a quit key while a reset is being written.
const writingFlash = "a reset is being written: wait for its result"

// writing reports whether a planner on the stack is executing a reset.
func (m *app) writing() bool {
	for _, s := range m.stack {
		if p, ok := s.(*plannerScreen); ok && p.phase == phaseExecuting {
			return true
		}
	}
	return false
}

func (m *app) top() screen { return m.stack[len(m.stack)-1] }

// writeReport starts writing the report a screen asked for.
func (m *app) writeReport(msg reportRequestedMsg) tea.Cmd {
	if m.snap == nil || m.opts.WriteReport == nil {
		return nil
	}
	dir := m.opts.ReportDir
	if dir == "" {
		dir = "."
	}
	path := reportPath(dir, msg.what, m.c.now())
	m.setFlash("writing the report to " + path + "…")
	return writeReportCmd(m.ctx, m.opts.WriteReport, reportSnapshot(m.snap, msg.groups), path)
}

// forward hands a message to the top screen.
func (m *app) forward(msg tea.Msg) tea.Cmd {
	next, cmd := m.top().Update(msg)
	m.stack[len(m.stack)-1] = next.(screen)
	return cmd
}

func (m *app) push(s screen) {
	next, _ := s.Update(m.dataMsg())
	s = next.(screen)
	s.SetSize(m.width, m.bodyH)
	m.stack = append(m.stack, s)
}

func (m *app) pop() {
	if len(m.stack) > 1 {
		m.stack = m.stack[:len(m.stack)-1]
	}
}

// openGroup names the group whose screen is open (under help, say), or "".
func (m *app) openGroup() string {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if g, ok := m.stack[i].(*groupScreen); ok {
			return g.name
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
	for i, s := range m.stack {
		next, cmd := s.Update(msg)
		m.stack[i] = next.(screen)
		if cmd != nil {
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

func (m *app) setFlash(s string) {
	m.flash, m.flashUntil = s, m.c.now().Add(flashFor)
}

// updateAge recomputes the header's age text from the injected clock.
func (m *app) updateAge() {
	st := m.c.styles
	now := m.c.now()
	switch {
	case m.snap == nil && m.lastErr != nil:
		m.age = st.stale.Render("NO DATA: cannot read the cluster")
		return
	case m.snap == nil:
		m.age = st.muted.Render("connecting…")
		return
	}
	at := m.snap.Cluster.TakenAt.Time
	if g := m.openGroup(); g != "" {
		if t, ok := m.detailed[g]; ok {
			at = t
		}
	}
	ago := fmtDur(max(0, now.Sub(at)).Truncate(time.Second)) + " ago"
	switch {
	case m.lastErr != nil:
		m.age = st.stale.Render("STALE: data from " + ago + ", refresh failed")
	case m.ref.inFlight:
		m.age = "updated " + ago + st.muted.Render(", refreshing…")
	default:
		m.age = "updated " + ago
	}
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

func (m *app) headerView() string {
	st := m.c.styles
	sep := st.muted.Render(" · ")
	brokers := "? brokers"
	if m.snap != nil {
		brokers = fmtInt(int64(m.snap.Cluster.Brokers)) + " brokers"
	}
	parts := []string{st.app.Render("offsettui")}
	if m.c.readOnly {
		parts = append(parts, st.readOnly.Render("READ-ONLY"))
	}
	parts = append(parts, truncate(m.opts.Cluster, max(12, m.width/3)), brokers, m.age)
	crumbs := make([]string, len(m.stack))
	for i, s := range m.stack {
		crumbs[i] = s.Crumb()
	}
	line2 := st.crumb.Render(strings.Join(crumbs, " › "))
	return truncate(strings.Join(parts, sep), m.width) + "\n" + truncate(line2, m.width)
}

func (m *app) footerView() string {
	st := m.c.styles
	var status string
	switch {
	case m.prompt.Focused():
		status = m.prompt.View()
	case m.flash != "":
		status = m.flash
	case m.lastErr != nil:
		status = st.err.Render("refresh failed: " + m.lastErr.Error() + " — showing the last good data; r retries")
	case m.snap != nil && len(m.snap.Errors) > 0:
		status = st.err.Render(fmtInt(int64(len(m.snap.Errors))) + " errors while reading: " + m.snap.Errors[0].Error())
	}
	// help.Model still writes an item when even its "…" does not fit: cut it.
	return truncate(status, m.width) + "\n" + truncate(m.help.ShortHelpView(m.shortHelp()), m.width)
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
	// Ordered so that a narrow terminal cuts the least needed keys first.
	return append(b, m.keys.Help, m.keys.Quit, m.keys.Refresh, m.keys.Command)
}
