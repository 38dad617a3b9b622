package views

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// helpScreen is `?`: every key of the screen it was opened from, the global
// keys, and a legend of statuses and symbols, so a badge can be looked up.
type helpScreen struct {
	c      *common
	keys   helpKeys
	list   listKeys
	crumb  string
	groups [][]key.Binding
	global []key.Binding

	width, height int
	lines         []string
	offset        int
}

func newHelpScreen(c *common, below screen, g globalKeys) *helpScreen {
	return &helpScreen{
		c: c, keys: newHelpKeys(), list: newListKeys(), crumb: below.Crumb(), groups: below.FullHelp(),
		global: []key.Binding{g.Back, g.Help, described(g.Command, "command: :groups, :q"), described(g.Refresh, "refresh now"), g.Quit,
			described(g.ForceQuit, "quit (not while a reset is written)")},
	}
}

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
	s.offset = max(0, min(s.offset, len(s.lines)-s.height))
}

// Update implements tea.Model: the list keys scroll when the help is taller
// than the screen.
func (s *helpScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		top := max(0, len(s.lines)-s.height)
		if o, ok := s.list.moveCursor(k, s.offset, top+1, s.height); ok {
			s.offset = o
		}
	}
	return s, nil
}

// View implements tea.Model.
func (s *helpScreen) View() string {
	end := min(len(s.lines), s.offset+s.height)
	return strings.Join(s.lines[min(s.offset, end):end], "\n")
}

func (s *helpScreen) render() string {
	var keyCols []string
	for i, g := range s.groups {
		if !slices.ContainsFunc(g, key.Binding.Enabled) {
			continue // e.g. R while no planner is wired in
		}
		title := "keys: " + s.crumb
		if i > 0 {
			title = "actions: " + s.crumb
		}
		keyCols = append(keyCols, s.keyBlock(title, g))
	}
	keyCols = append(keyCols, s.keyBlock("everywhere", s.global))
	legend := s.legend()
	gap := "    "
	blocks := []string{strings.Join(keyCols, "\n\n"), legend}
	spaced := make([]string, 0, 2*len(keyCols))
	for _, c := range keyCols {
		spaced = append(spaced, c, gap)
	}
	row := lipgloss.JoinHorizontal(lipgloss.Top, spaced[:len(spaced)-1]...)
	if lipgloss.Width(row) <= s.width {
		blocks[0] = row
	}
	if side := lipgloss.JoinHorizontal(lipgloss.Top, blocks[0], gap, legend); lipgloss.Width(side) <= s.width {
		return side
	}
	return blocks[0] + "\n\n" + legend
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

// statusMeaning is the one-line legend of each status (docs/statuses.md).
var statusMeaning = map[model.Status]string{
	model.StatusUnknown: "something needed to classify could not be read",
	model.StatusExpired: "committed < low: records were deleted unread",
	model.StatusAhead:   "committed > high: the consumer will reset",
	model.StatusMissing: "no commit where the group reads or is assigned",
	model.StatusAtRisk:  "next record may be deleted within the window",
	model.StatusOK:      "everything else; lag > 0 is shown as lagging",
}

func (s *helpScreen) legend() string {
	st := s.c.styles
	lines := []string{st.section.Render("statuses, worst first")}
	for _, status := range model.AllStatuses {
		lines = append(lines, "  "+st.status(status).Render(pad(status.Badge(), 8, false))+statusMeaning[status])
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
	lines = append(lines, "", "time lag and expires-in come from committed-record timestamps,",
		"read when a group is opened; at-risk looks "+fmtDur(s.c.riskWindow)+" ahead (--risk-window)",
		"ETA, EVAL (OK WARN STOPPED STALLED REWOUND) and LOSS-IN need two refreshes")
	return strings.Join(lines, "\n")
}

// ShortHelp implements help.KeyMap.
// The root already lists esc (back) and ? (help, which toggles it closed);
// the scroll keys show when the help is taller than the screen.
func (s *helpScreen) ShortHelp() []key.Binding {
	if len(s.lines) > s.height {
		return []key.Binding{described(s.list.Down, "scroll")}
	}
	return nil
}

// FullHelp implements help.KeyMap.
func (s *helpScreen) FullHelp() [][]key.Binding { return [][]key.Binding{{s.keys.Close}} }
