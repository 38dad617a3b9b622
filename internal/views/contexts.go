package views

// Contexts in the TUI: the header shows the context, `:ctx` lists the contexts and
// `:ctx NAME` (or enter in the list) connects to another one (k9s habit).

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// ContextInfo describes a context for the header and the `:ctx` list.
type ContextInfo struct {
	Name     string
	Label    string // shown in the header; Name when empty
	Color    string // the header badge's colour: an ANSI number (0-255) or #rrggbb; "" = default
	Cluster  string // its bootstrap servers, for the list
	ReadOnly bool
}

// Connection is a connected context the TUI can switch to.
type Connection struct {
	Source   Source
	Resetter Resetter // nil disables the planner
	Cluster  string
	ReadOnly bool
	Context  ContextInfo
	// Close releases the connection; the TUI calls it when it switches away.
	Close func()
}

// ContextSwitcher lists the contexts and connects to one. cmd/offsettui implements it;
// Connect runs inside a tea.Cmd, never in Update.
type ContextSwitcher interface {
	Contexts() []ContextInfo
	Connect(ctx context.Context, name string) (Connection, error)
}

// contextSwitchedMsg is the reply of connectContextCmd; gen is the switch it answers
// (`:ctx a` then `:ctx b` ends on b whichever answers last).
type contextSwitchedMsg struct {
	gen  uint64
	name string
	conn Connection
	err  error
}

func connectContextCmd(ctx context.Context, sw ContextSwitcher, name string, gen uint64) tea.Cmd {
	return func() tea.Msg {
		conn, err := sw.Connect(ctx, name)
		return contextSwitchedMsg{gen: gen, name: name, conn: conn, err: err}
	}
}

// closeConnCmd releases a connection outside Update: closing a client waits for its
// requests in flight, up to --timeout.
func closeConnCmd(closeConn func()) tea.Cmd {
	if closeConn == nil {
		return nil
	}
	return func() tea.Msg {
		closeConn()
		return nil
	}
}

// contextChosenMsg asks the root to switch to a context chosen in the list (posted).
type contextChosenMsg struct{ name string }

// contextCommandDef is `:ctx` (the list) and `:ctx NAME` (switch), offered when the TUI
// was given contexts.
func contextCommandDef() command {
	return command{names: []string{"ctx", "context"}, arg: "[NAME]", help: "list the contexts, or switch to NAME",
		enabled: func(m *app) bool { return m.opts.Contexts != nil }, run: (*app).contextCommand}
}

// contextHeaderItem is the header's context badge: the label in the context's colour.
func contextHeaderItem(m *app) string {
	ci := m.opts.Context
	if ci.Name == "" {
		return ""
	}
	return contextBadge(m.c.styles, ci).Render(truncate(ci.Label, max(8, m.width/4)))
}

// contextCommand runs `:ctx` (the list) and `:ctx NAME` (switch).
func (m *app) contextCommand(arg string) tea.Cmd {
	sw := m.opts.Contexts
	switch {
	case sw == nil || len(sw.Contexts()) == 0:
		m.setFlash("no contexts: name clusters in the config file (docs/connect.md)")
		return nil
	case arg == "":
		m.push(newContextsScreen(m.c, sw.Contexts(), m.opts.Context.Name))
		return nil
	}
	return m.switchContext(arg)
}

// switchContext starts connecting to the context name; the current one stays on screen
// until the new one answers. Never while a reset is being written.
func (m *app) switchContext(name string) tea.Cmd {
	if why := m.busy(); why != "" {
		m.setFlash(why)
		return nil
	}
	known := false
	for _, c := range m.opts.Contexts.Contexts() {
		known = known || c.Name == name
	}
	if !known {
		m.setFlash(fmt.Sprintf("no context %q (:ctx lists them)", name))
		return nil
	}
	m.setFlash("connecting to context " + name + "…")
	m.ctxGen++
	return connectContextCmd(m.ctx, m.opts.Contexts, name, m.ctxGen)
}

// contextSwitched builds a fresh root for the new connection (no data, screens or plans
// of the old cluster survive) and closes the old connection. A reply to a switch asked
// before the latest one is dropped and its connection closed.
func (m *app) contextSwitched(msg contextSwitchedMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.ctxGen {
		return m, closeConnCmd(msg.conn.Close)
	}
	if msg.err != nil {
		m.setFlash("context " + msg.name + ": " + msg.err.Error())
		return m, nil
	}
	if why := m.busy(); why != "" { // a reset started meanwhile: keep this cluster, drop the new one
		m.setFlash(why)
		return m, closeConnCmd(msg.conn.Close)
	}
	opts := m.opts
	opts.Source, opts.Resetter, opts.Cluster, opts.ReadOnly, opts.Context = msg.conn.Source, msg.conn.Resetter,
		msg.conn.Cluster, msg.conn.ReadOnly, msg.conn.Context
	opts.Demo = false
	c := *m.c
	c.readOnly, c.demo, c.post = opts.ReadOnly, false, nil
	next := newApp(&c, opts)
	next.tick = m.tick
	next.ref.gen = m.ref.gen + 1 // replies still on their way from the old cluster are stale
	next.width, next.height = m.width, m.height
	next.resize()
	next.closeConn, next.ctxGen, next.everRead = msg.conn.Close, m.ctxGen, m.everRead
	next.quitRequested = m.quitRequested
	next.executed = m.executed // their undo commands are printed after exit
	m.stop()
	next.setFlash("switched to context " + msg.name)
	return next, tea.Batch(next.Init(), closeConnCmd(m.closeConn))
}

// contextsScreen lists the contexts; enter switches to the one under the cursor.
type contextsScreen struct {
	c       *common
	id      int
	list    []ContextInfo
	current string
	cursor  int
	width   int
	height  int
	keys    listKeys
	choose  key.Binding
}

func newContextsScreen(c *common, list []ContextInfo, current string) *contextsScreen {
	s := &contextsScreen{c: c, id: c.nextID(), list: list, current: current, keys: newListKeys(),
		choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "switch"))}
	for i, ctx := range list {
		if ctx.Name == current {
			s.cursor = i
		}
	}
	return s
}

// Init implements tea.Model.
func (s *contextsScreen) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (s *contextsScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return s, nil
	}
	if key.Matches(k, s.choose) && len(s.list) > 0 {
		s.c.post(contextChosenMsg{name: s.list[s.cursor].Name})
		return s, nil
	}
	if next, ok := s.keys.moveCursor(k, s.cursor, len(s.list), s.height-1); ok {
		s.cursor = next
	}
	return s, nil
}

// View implements tea.Model.
func (s *contextsScreen) View() string {
	st := s.c.styles
	w := func(n int) int { return max(n, 4) }
	nameW, labelW := w(4), w(5)
	for _, c := range s.list {
		nameW, labelW = max(nameW, len(c.Name)), max(labelW, len(c.Label))
	}
	row := func(current, name, label, ro, cluster string) string { // label comes padded
		return fmt.Sprintf("%-7s  %-*s  %s  %-9s  %s", current, nameW, name, label, ro, cluster)
	}
	lines := []string{st.colHeader.Render("  " + row("CURRENT", "NAME", fmt.Sprintf("%-*s", labelW, "LABEL"), "READ-ONLY", "BOOTSTRAP"))}
	for i, c := range s.list {
		current, ro := "", "no"
		if c.Name == s.current {
			current = "*"
		}
		if c.ReadOnly {
			ro = "yes"
		}
		line := row(current, c.Name, contextBadge(st, c).Render(fmt.Sprintf("%-*s", labelW, c.Label)), ro, c.Cluster)
		if i == s.cursor {
			line = st.selected.Render("▶ " + line)
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// ShortHelp implements help.KeyMap.
func (s *contextsScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.choose, s.keys.Up, s.keys.Down}
}

// FullHelp implements help.KeyMap.
func (s *contextsScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.choose}, s.keys.all()}
}

// SetSize implements screen.
func (s *contextsScreen) SetSize(width, height int) { s.width, s.height = width, height }

// Crumb implements screen.
func (s *contextsScreen) Crumb() string { return "contexts" }

// Capturing implements screen.
func (s *contextsScreen) Capturing() bool { return false }

// ID implements screen.
func (s *contextsScreen) ID() int { return s.id }

// Notes implements screen.
func (s *contextsScreen) Notes() []string {
	return []string{"* marks the context in use; a context chosen here is reached with its own settings"}
}

// Back implements screen: esc leaves the list.
func (s *contextsScreen) Back() bool { return false }

// Busy implements screen.
func (s *contextsScreen) Busy() string { return "" }

// Cancel implements screen: nothing to stop.
func (s *contextsScreen) Cancel() bool { return false }

// Group implements screen.
func (s *contextsScreen) Group() string { return "" }
