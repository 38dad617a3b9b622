package views

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// groupsScreen lists every consumer group, worst first. Rows are derived from
// the snapshot in Update (sort, filter, rendered lines of the visible window),
// so View only joins strings, even with tens of thousands of groups.
type groupsScreen struct {
	c    *common
	keys groupsKeys

	width, height int

	snap    *model.Snapshot
	rows    []groupRow
	order   []int // row indexes in sort order
	visible []int // row indexes that pass the filters, in sort order
	cursor  int   // index into visible
	offset  int   // first visible index on screen

	problems     int // groups with a problem, for the title
	sortCol      int
	reverse      bool
	problemsOnly bool
	input        textinput.Model
	filter       filterSpec
	filterText   string // the applied filter as typed, for the title

	cols    []column
	header  string
	lines   map[int]string // rendered rows by row index, cursor glyph absent
	selLine string         // the cursor row, rendered selected
}

func newGroupsScreen(c *common) *groupsScreen {
	in := textinput.New()
	in.Prompt = "/"
	in.PromptStyle = c.styles.prompt
	in.CharLimit = 200
	in.Cursor.SetMode(cursor.CursorStatic)
	s := &groupsScreen{c: c, keys: newGroupsKeys(), input: in, sortCol: gcStatus, lines: map[int]string{}}
	s.keys.ClearFilter.SetEnabled(false)
	s.keys.Report.SetEnabled(c.reports)
	return s
}

// Init implements tea.Model.
func (s *groupsScreen) Init() tea.Cmd { return nil }

// Crumb implements screen.
func (s *groupsScreen) Crumb() string { return "groups" }

// Capturing implements screen: the filter input has the keyboard.
func (s *groupsScreen) Capturing() bool { return s.input.Focused() }

// SetSize implements screen.
func (s *groupsScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.relayout()
	s.prepare()
}

// Update implements tea.Model.
func (s *groupsScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case dataAppliedMsg:
		if msg.snap == s.snap {
			break // only the group screen's fetch state changed; rows stay
		}
		keep := s.currentName()
		s.snap = msg.snap
		s.rows = buildRows(msg.snap, msg.hist)
		s.problems = 0
		for i := range s.rows {
			if s.rows[i].problems {
				s.problems++
			}
		}
		s.order = sortOrder(s.rows, s.sortCol, s.reverse)
		s.refilterKeeping(keep)
		s.relayout()
	case tea.KeyMsg:
		if s.input.Focused() {
			cmd = s.updateFilterInput(msg)
		} else {
			cmd = s.updateKey(msg)
		}
	}
	s.prepare()
	return s, cmd
}

func (s *groupsScreen) updateFilterInput(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.FilterApply):
		s.input.Blur()
		s.cursor = 0
		return nil
	case key.Matches(msg, s.keys.FilterCancel):
		s.input.Blur()
		s.setFilter("")
		return nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	s.setFilter(s.input.Value())
	return cmd
}

func (s *groupsScreen) updateKey(msg tea.KeyMsg) tea.Cmd {
	if c, ok := s.keys.moveCursor(msg, s.cursor, len(s.visible), s.tableHeight()); ok {
		s.cursor = c
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.Open):
		if r := s.current(); r != nil {
			name := r.g.Group
			return func() tea.Msg { return groupChosenMsg{group: name} }
		}
	case key.Matches(msg, s.keys.Filter):
		// A new filter starts empty: it never concatenates with the last one.
		s.input.SetValue("")
		s.setFilter("")
		return s.input.Focus()
	case key.Matches(msg, s.keys.ClearFilter):
		s.setFilter("")
	case key.Matches(msg, s.keys.Problems):
		s.problemsOnly = !s.problemsOnly
		s.refilter()
	case key.Matches(msg, s.keys.SortNext):
		for i, c := range sortCycle {
			if c == s.sortCol {
				s.sortCol = sortCycle[(i+1)%len(sortCycle)]
				break
			}
		}
		s.reverse = false
		s.resort()
	case key.Matches(msg, s.keys.SortReverse):
		s.reverse = !s.reverse
		s.resort()
	case key.Matches(msg, s.keys.Report) && len(s.visible) > 0:
		req := reportRequestedMsg{what: "groups"}
		for _, i := range s.visible {
			req.groups = append(req.groups, s.rows[i].g.Group)
		}
		return func() tea.Msg { return req }
	}
	return nil
}

// current returns the row under the cursor, or nil.
func (s *groupsScreen) current() *groupRow {
	if s.cursor < 0 || s.cursor >= len(s.visible) {
		return nil
	}
	return &s.rows[s.visible[s.cursor]]
}

func (s *groupsScreen) setFilter(text string) {
	s.filterText = strings.TrimSpace(text)
	s.filter = parseFilter(text)
	s.keys.ClearFilter.SetEnabled(s.filterText != "")
	s.refilter()
}

func (s *groupsScreen) resort() {
	s.order = sortOrder(s.rows, s.sortCol, s.reverse)
	s.refilter()
}

// currentName returns the name of the group under the cursor, or "".
func (s *groupsScreen) currentName() string {
	if r := s.current(); r != nil {
		return r.g.Group
	}
	return ""
}

// refilter recomputes the visible rows and keeps the cursor on the same group
// when it is still shown.
func (s *groupsScreen) refilter() { s.refilterKeeping(s.currentName()) }

func (s *groupsScreen) refilterKeeping(keep string) {
	s.visible = s.visible[:0]
	s.cursor = 0
	for _, i := range s.order {
		r := &s.rows[i]
		if (s.problemsOnly && !r.problems) || !s.filter.keep(r) {
			continue
		}
		if r.g.Group == keep {
			s.cursor = len(s.visible)
		}
		s.visible = append(s.visible, i)
	}
}

// relayout fits the columns to the width and the data, and drops cached lines.
func (s *groupsScreen) relayout() {
	var wName, wType, wState, wLag, wStatus int
	for i := range s.rows {
		g := s.rows[i].g
		wName = max(wName, ansi.StringWidth(g.Group))
		wType = max(wType, len(g.Type))
		wState = max(wState, len(g.State))
		wLag = max(wLag, ansi.StringWidth(lagCellText(g)))
		wStatus = max(wStatus, statusCountsWidth(g))
	}
	cols := []column{
		{id: gcGroup, title: "GROUP", width: textWidth("GROUP", 0, 0) + 8, flex: true, maxW: max(14, min(wName, 48))},
		{id: gcType, title: "TYPE", width: textWidth("TYPE", wType, 10), drop: 7},
		{id: gcState, title: "STATE", width: textWidth("STATE", wState, 12), drop: 1},
		{id: gcMembers, title: "MEMBERS", width: textWidth("MEMBERS", 0, 0), right: true, drop: 2},
		{id: gcTopics, title: "TOPICS", width: textWidth("TOPICS", 0, 0), right: true, drop: 6},
		{id: gcPartitions, title: "PARTITIONS", width: textWidth("PARTITIONS", 0, 0), right: true, drop: 4},
		{id: gcLag, title: "LAG", width: textWidth("LAG", wLag, 0), right: true},
		{id: gcTimeLag, title: "TIME-LAG", width: textWidth("TIME-LAG", 0, 0), right: true, drop: 5},
		{id: gcStatus, title: "STATUS", width: 12, flex: true, maxW: max(12, wStatus)},
		{id: gcTrend, title: "TREND", width: trendSpark + 2, drop: 3},
	}
	if s.snap != nil && s.snap.Window != nil { // one snapshot alone shows no rates
		cols = append(cols, timeColumns()...)
	}
	s.cols = layoutColumns(cols, s.width)
	s.lines = map[int]string{}
}

// statusCountsWidth is the plain width statusCounts needs for a group.
func statusCountsWidth(g *model.Group) int {
	w := 0
	if g.Error != nil {
		w = len("ERROR ") + len(g.Error.Kind)
	}
	for st, n := range g.Counts {
		if n > 0 && (st != model.StatusOK || g.WorstStatus == model.StatusOK) {
			if w > 0 {
				w += 2
			}
			w += len(st.Badge()) + 1 + len(fmtInt(int64(n)))
		}
	}
	return w
}

// tableHeight is the number of rows on screen: the body less title and header.
func (s *groupsScreen) tableHeight() int { return max(1, s.height-2) }

// prepare renders what View shows: the header and the rows of the visible
// window, each row once until data or layout change.
func (s *groupsScreen) prepare() {
	h := s.tableHeight()
	s.cursor = max(0, min(s.cursor, len(s.visible)-1))
	s.offset = scrollTo(s.cursor, s.offset, h, len(s.visible))
	sortArrow := "↓"
	if s.reverse {
		sortArrow = "↑"
	}
	s.header = renderHeader(s.cols, s.width, s.c.styles.colHeader, s.sortCol, sortArrow)
	for i := s.offset; i < min(len(s.visible), s.offset+h); i++ {
		idx := s.visible[i]
		if _, ok := s.lines[idx]; !ok {
			s.lines[idx] = renderRow(s.cols, s.width, noGlyph, groupCells(s.c.styles, &s.rows[idx]))
		}
	}
	s.selLine = ""
	if r := s.current(); r != nil {
		plain := ansi.Strip(renderRow(s.cols, s.width, cursorGlyph, groupCells(s.c.styles, r)))
		s.selLine = s.c.styles.selected.Render(pad(plain, s.width, false))
	}
}

// View implements tea.Model. It only joins what prepare rendered.
func (s *groupsScreen) View() string {
	var b strings.Builder
	b.WriteString(truncate(s.title(), s.width))
	b.WriteByte('\n')
	b.WriteString(s.header)
	h := s.tableHeight()
	switch {
	case s.snap == nil:
		b.WriteString("\n" + s.c.styles.muted.Render("  waiting for the first snapshot…"))
	case len(s.rows) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  no consumer groups on this cluster"))
	case len(s.visible) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  "+s.emptyReason()))
	}
	for i := s.offset; i < min(len(s.visible), s.offset+h); i++ {
		b.WriteByte('\n')
		if i == s.cursor {
			b.WriteString(s.selLine)
		} else {
			b.WriteString(s.lines[s.visible[i]])
		}
	}
	return b.String()
}

func (s *groupsScreen) emptyReason() string {
	switch {
	case s.filterText != "" && s.problemsOnly:
		return "no group with a problem matches the filter (esc clears it, p shows all)"
	case s.filterText != "":
		return "no group matches the filter (esc clears it)"
	default:
		return "no group has a problem (p shows all groups)"
	}
}

// title is the line above the table: counts, filter, toggles and sort.
func (s *groupsScreen) title() string {
	st := s.c.styles
	parts := []string{st.title.Render("Groups") + " " + countOf(len(s.visible), len(s.rows))}
	switch {
	case s.input.Focused():
		parts = append(parts, s.input.View())
	case s.filterText != "":
		parts = append(parts, st.prompt.Render("/"+s.filterText))
	}
	if s.problemsOnly {
		parts = append(parts, st.readOnly.Render("PROBLEMS ONLY"))
	}
	parts = append(parts, fmtInt(int64(s.problems))+" with problems", "sort: "+sortNames[s.sortCol]+s.sortHint())
	return strings.Join(parts, st.muted.Render(" · "))
}

func (s *groupsScreen) sortHint() string {
	if s.reverse {
		return " (reversed)"
	}
	return ""
}

func countOf(shown, total int) string {
	if shown == total {
		return fmtInt(int64(total))
	}
	return fmtInt(int64(shown)) + " of " + fmtInt(int64(total))
}

// ShortHelp implements help.KeyMap.
func (s *groupsScreen) ShortHelp() []key.Binding {
	if s.input.Focused() {
		return []key.Binding{s.keys.FilterApply, s.keys.FilterCancel}
	}
	return []key.Binding{s.keys.Open, s.keys.Filter, s.keys.ClearFilter, s.keys.Problems, s.keys.SortNext, s.keys.Report}
}

// FullHelp implements help.KeyMap.
func (s *groupsScreen) FullHelp() [][]key.Binding {
	clear := s.keys.ClearFilter
	clear.SetEnabled(true) // listed even while no filter is set
	return [][]key.Binding{
		s.keys.all(),
		{
			described(s.keys.Open, "open the group"),
			described(s.keys.Filter, "filter as you type (/!x: not x)"),
			described(clear, "clear the filter"),
			described(s.keys.Problems, "only groups with problems"),
			described(s.keys.SortNext, "sort by the next column"),
			s.keys.SortReverse,
			described(s.keys.Report, "write the Markdown incident report of the groups listed"),
		},
	}
}
