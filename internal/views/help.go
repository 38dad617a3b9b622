package views

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// helpScreen is `?`: every key of the screen it was opened from, the global
// keys, and a legend of statuses and symbols, so a badge can be looked up.
type helpScreen struct {
	c      *common
	id     int
	keys   helpKeys
	list   listKeys
	crumb  string
	groups [][]key.Binding
	global []key.Binding
	cmds   []command
	notes  []string

	width, height int
	lines         []string
	offset        int
}

func newHelpScreen(c *common, below screen, g globalKeys, cmds []command) *helpScreen {
	return &helpScreen{
		c: c, id: c.nextID(), keys: newHelpKeys(), list: newListKeys(), crumb: below.Crumb(), groups: below.FullHelp(),
		global: []key.Binding{g.Back, g.Help, described(g.Command, "a command (see commands)"), described(g.Refresh, "refresh now"), g.Quit,
			described(g.ForceQuit, "quit (not while a reset is written)")},
		cmds: cmds, notes: below.Notes(),
	}
}

// ID implements screen.
func (s *helpScreen) ID() int { return s.id }

// Notes implements screen.
func (s *helpScreen) Notes() []string { return nil }

// Back implements screen: esc closes the help.
func (s *helpScreen) Back() bool { return false }

// Busy implements screen.
func (s *helpScreen) Busy() string { return "" }

// Cancel implements screen: nothing to stop.
func (s *helpScreen) Cancel() bool { return false }

// Group implements screen.
func (s *helpScreen) Group() string { return "" }

// Init implements tea.Model.
func (s *helpScreen) Init() tea.Cmd { return nil }

// Crumb implements screen.
func (s *helpScreen) Crumb() string { return "help" }

// Capturing implements screen.
func (s *helpScreen) Capturing() bool { return false }

// SetSize implements screen.
func (s *helpScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.lines = strings.Split(s.render(), "\n")
	s.offset = max(0, min(s.offset, len(s.lines)-listRows(len(s.lines), s.height)))
}

// Update implements tea.Model: the list keys scroll when the help is taller
// than the screen.
func (s *helpScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		rows := listRows(len(s.lines), s.height)
		top := max(0, len(s.lines)-rows)
		if o, ok := s.list.moveCursor(k, s.offset, top+1, rows); ok {
			s.offset = o
		}
	}
	return s, nil
}

// View implements tea.Model.
func (s *helpScreen) View() string {
	rows := listRows(len(s.lines), s.height)
	end := min(len(s.lines), s.offset+rows)
	start := min(s.offset, end)
	out := strings.Join(s.lines[start:end], "\n")
	if more := moreLine(start, end-start, len(s.lines)); more != "" {
		out += "\n" + s.c.styles.muted.Render(more)
	}
	return out
}

// render lays the help's blocks (the screen's keys and actions, the global
// keys, the commands, the filter, the legend) out in as many columns as the
// width holds, in order, each column about as tall as the others.
func (s *helpScreen) render() string {
	var blocks []string
	for i, g := range s.groups {
		if !slices.ContainsFunc(g, key.Binding.Enabled) {
			continue // e.g. R while no planner is wired in
		}
		title := "keys: " + s.crumb
		if i > 0 {
			title = "actions: " + s.crumb
		}
		blocks = append(blocks, s.keyBlock(title, g))
	}
	blocks = append(blocks, s.keyBlock("everywhere", s.global), s.commandBlock())
	if n := s.filterBlock(); n != "" {
		blocks = append(blocks, n)
	}
	blocks = append(blocks, s.legend())
	return columnsOf(blocks, s.width)
}

// columnsOf lays blocks out, in order, in up to four columns side by side
// within width: of every way to cut them into columns, the shortest that
// fits; one column when none does.
func columnsOf(blocks []string, width int) string {
	best, bestH := strings.Join(blocks, "\n\n"), -1
	var try func(from int, cols []string)
	try = func(from int, cols []string) {
		if from == len(blocks) {
			if len(cols) < 2 {
				return
			}
			out := lipgloss.JoinHorizontal(lipgloss.Top, cols...)
			if h := lipgloss.Height(out); lipgloss.Width(out) <= width && (bestH < 0 || h < bestH) {
				best, bestH = out, h
			}
			return
		}
		if len(cols) == 2*4-1 { // four columns (and their gaps) already
			return
		}
		for to := from + 1; to <= len(blocks); to++ {
			next := append(append([]string{}, cols...), strings.Join(blocks[from:to], "\n\n"))
			if to < len(blocks) {
				next = append(next, "    ")
			}
			try(to, next)
		}
	}
	try(0, nil)
	return best
}

func (s *helpScreen) keyBlock(title string, bs []key.Binding) string {
	st := s.c.styles
	w := 0
	for _, b := range bs {
		if b.Enabled() {
			w = max(w, ansi.StringWidth(b.Help().Key))
		}
	}
	lines := []string{st.section.Render(title)}
	for _, b := range bs {
		if b.Enabled() {
			lines = append(lines, "  "+st.helpKey.Render(pad(b.Help().Key, w, false))+"  "+b.Help().Desc)
		}
	}
	return strings.Join(lines, "\n")
}

func (s *helpScreen) legend() string {
	st := s.c.styles
	lines := []string{st.section.Render("statuses, worst first")}
	for _, status := range model.AllStatuses {
		lines = append(lines, "  "+st.status(status).Render(pad(status.Badge(), 8, false))+display.StatusMeaning(status))
	}
	lines = append(lines, "", st.section.Render("symbols"))
	n := model.Ptr[int64]
	for _, l := range [][2]string{
		{cursorGlyph, "the selected row"},
		{gauge(n(0), n(4), n(9), 10), "committed between low and high"},
		{gauge(n(5), n(1), n(9), 10), "committed below low (expired)"},
		{gauge(n(0), n(12), n(9), 10), "committed above high (ahead)"},
		{sparkline([]int64{1, 3, 2, 6}, 4) + " ↑", "total lag over this session's refreshes"},
		{"? / …", "time not read yet / being read"},
	} {
		lines = append(lines, "  "+pad(l[0], 11, false)+l[1])
	}
	note := "time lag and expires-in come from the committed records' timestamps: the list reads them within a budget each " +
		"refresh, at-risk first, and a group's screen all of its own; " +
		"at-risk looks " + text.HumanDuration(s.c.riskWindow) + " ahead (--risk-window). " +
		"CONSUME, ETA, EVAL (OK WARN STOPPED STALLED REWOUND) and LOSS-IN need two refreshes: one snapshot alone shows no rates"
	lines = append(lines, "")
	lines = append(lines, strings.Split(ansi.Wrap(note, helpTextWidth, ""), "\n")...)
	return strings.Join(lines, "\n")
}

// helpTextWidth is where the help wraps its sentences.
const helpTextWidth = 48

// commandBlock lists the `:` commands.
func (s *helpScreen) commandBlock() string {
	st := s.c.styles
	lines := []string{st.section.Render("commands (:)")}
	w := 0
	for _, c := range s.cmds {
		w = max(w, ansi.StringWidth(commandUsage(c)))
	}
	for _, c := range s.cmds {
		lines = append(lines, "  "+st.helpKey.Render(pad(commandUsage(c), w, false))+"  "+c.help)
	}
	return strings.Join(lines, "\n")
}

// filterBlock is the screen's notes: what its filter matches.
func (s *helpScreen) filterBlock() string {
	if len(s.notes) == 0 {
		return ""
	}
	lines := []string{s.c.styles.section.Render("notes: " + s.crumb)}
	for _, n := range s.notes {
		for _, l := range strings.Split(ansi.Wrap(n, helpTextWidth, ""), "\n") {
			lines = append(lines, "  "+l)
		}
	}
	return strings.Join(lines, "\n")
}

// ShortHelp implements help.KeyMap.
// The root already lists esc (back) and ? (help, which toggles it closed);
// the scroll keys show when the help is taller than the screen.
func (s *helpScreen) ShortHelp() []key.Binding {
	if len(s.lines) > s.height {
		return []key.Binding{described(s.list.Down, "scroll"), described(s.list.PageDown, "page")}
	}
	return nil
}

// FullHelp implements help.KeyMap.
func (s *helpScreen) FullHelp() [][]key.Binding { return [][]key.Binding{{s.keys.Close}} }
