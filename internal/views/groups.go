package views

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// groupsScreen lists every consumer group, most urgent first. Rows are derived from
// the snapshot in Update (sort, filter, rendered lines of the visible window),
// so View only joins strings, even with tens of thousands of groups.
type groupsScreen struct {
	c    *common
	id   int
	keys groupsKeys

	width, height int

	snap    *model.Snapshot
	rows    []groupRow
	order   []int // row indexes in sort order
	visible []int // row indexes that pass the filters, in sort order
	cursor  int   // index into visible
	offset  int   // first visible index on screen
	// moved is set once a key moved the cursor: until then it stays on the
	// first row, whatever the refreshes reorder; after, it follows its group.
	moved bool

	problems     int // groups with a problem, for the title
	sortCol      int
	reverse      bool
	problemsOnly bool
	input        textinput.Model
	filter       listFilter

	cols    []column
	header  string
	lines   map[int]string // rendered rows by row index, cursor glyph absent
	selLine string         // the cursor row, rendered selected
}

func newGroupsScreen(c *common) *groupsScreen {
	s := &groupsScreen{c: c, id: c.nextID(), keys: newGroupsKeys(), input: filterInput(c), sortCol: gcStatus, lines: map[int]string{}}
	s.keys.ClearFilter.SetEnabled(false)
	s.keys.Report.SetEnabled(c.reports)
	return s
}

// filterInput is the `/` input of a list.
func filterInput(c *common) textinput.Model {
	in := textinput.New()
	in.Prompt = "/"
	in.PromptStyle = c.styles.prompt
	in.CharLimit = 200
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

// Init implements tea.Model.
func (s *groupsScreen) Init() tea.Cmd { return nil }

// ID implements screen.
func (s *groupsScreen) ID() int { return s.id }

// Crumb implements screen.
func (s *groupsScreen) Crumb() string { return "groups" }

// Capturing implements screen: the filter input has the keyboard.
func (s *groupsScreen) Capturing() bool { return s.input.Focused() }

// Back implements screen: esc clears the filter first.
func (s *groupsScreen) Back() bool {
	if s.filter.text == "" {
		return false
	}
	s.setFilter("")
	s.prepare()
	return true
}

// Busy implements screen.
func (s *groupsScreen) Busy() string { return "" }

// Cancel implements screen: nothing to stop.
func (s *groupsScreen) Cancel() bool { return false }

// Group implements screen.
func (s *groupsScreen) Group() string { return "" }

// Notes implements screen: the urgency order and what the filter matches.
func (s *groupsScreen) Notes() []string {
	return append([]string{urgencyNote}, filterHelp("a group's name or its topics' names")...)
}

// urgencyNote explains the default sort, the title count and p (model.Urgency;
// docs/tui.md says the same).
const urgencyNote = "Sort urgency (the default), most urgent first: 1. records retention may delete within the risk window " +
	"that can still be saved (AT-RISK), soonest loss first; 2. records already lost (EXPIRED): where to restart; 3. live consumers stalled or " +
	"not keeping up; 4. what cannot be told or is wrong (UNKNOWN, errors, AHEAD, MISSING); then the rest. These are the " +
	"groups \"with problems\" (p shows only them). An idle group (no members) whose partitions are all OK is no problem " +
	"whatever its lag: it shows STOPPED, and /stopped finds it."

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

// updateFilterInput runs the filter input. enter keeps the filter, and opens
// the group when exactly one matches: nothing else can be meant.
func (s *groupsScreen) updateFilterInput(msg tea.KeyMsg) tea.Cmd {
	applied, cmd := filterKey(&s.input, msg, s.keys.FilterApply, s.keys.FilterCancel, s.setFilter)
	if applied {
		s.cursor = 0
		if len(s.visible) == 1 {
			s.c.post(groupChosenMsg{group: s.rows[s.visible[0]].g.Group})
		}
	}
	return cmd
}

func (s *groupsScreen) updateKey(msg tea.KeyMsg) tea.Cmd {
	if c, ok := s.keys.moveCursor(msg, s.cursor, len(s.visible), s.rowsShown()); ok {
		s.cursor, s.moved = c, true
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.Open):
		if r := s.current(); r != nil {
			s.c.post(groupChosenMsg{group: r.g.Group})
		}
	case key.Matches(msg, s.keys.Filter):
		return startFilter(&s.input, s.setFilter)
	case key.Matches(msg, s.keys.Problems):
		s.problemsOnly = !s.problemsOnly
		s.refilter()
	case key.Matches(msg, s.keys.SortNext):
		s.sortCol = nextSort(sortCycle, s.sortCol)
		s.reverse = false
		s.resort()
	case key.Matches(msg, s.keys.SortReverse):
		s.reverse = !s.reverse
		s.resort()
	case key.Matches(msg, s.keys.Report) && len(s.visible) > 0:
		req := reportRequestedMsg{from: s.id, what: "groups"}
		for _, i := range s.visible {
			req.groups = append(req.groups, s.rows[i].g.Group)
		}
		s.c.post(req)
	}
	return nil
}

// nextSort returns the sort key after cur in cycle.
func nextSort(cycle []int, cur int) int {
	for i, c := range cycle {
		if c == cur {
			return cycle[(i+1)%len(cycle)]
		}
	}
	return cycle[0]
}

// current returns the row under the cursor, or nil.
func (s *groupsScreen) current() *groupRow {
	if s.cursor < 0 || s.cursor >= len(s.visible) {
		return nil
	}
	return &s.rows[s.visible[s.cursor]]
}

func (s *groupsScreen) setFilter(text string) {
	s.filter.set(text, &s.keys.ClearFilter)
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
// when it is still shown (on the first row until a key moved it).
func (s *groupsScreen) refilter() { s.refilterKeeping(s.currentName()) }

func (s *groupsScreen) refilterKeeping(keep string) {
	if !s.moved {
		keep = ""
	}
	s.visible = s.visible[:0]
	s.cursor = 0
	for _, i := range s.order {
		r := &s.rows[i]
		if (s.problemsOnly && !r.problems) || !s.filter.spec.keep(&r.target) {
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
	s.cols = layoutColumns(groupColumns(s.rows, s.snap != nil && s.snap.Window != nil), s.width)
	s.lines = map[int]string{}
}

// tableHeight is the lines under the title and the column header.
func (s *groupsScreen) tableHeight() int { return max(1, s.height-2) }

// rowsShown is how many rows fit, less the "… more" line when needed.
func (s *groupsScreen) rowsShown() int { return listRows(len(s.visible), s.tableHeight()) }

// prepare renders what View shows: the header and the rows of the visible
// window, each row once until data or layout change.
func (s *groupsScreen) prepare() {
	h := s.rowsShown()
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
	h := s.rowsShown()
	switch {
	case s.snap == nil:
		b.WriteString("\n" + s.c.styles.muted.Render("  waiting for the first snapshot…"))
	case len(s.rows) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  no consumer groups on this cluster"))
	case len(s.visible) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  "+s.emptyReason()))
	}
	end := min(len(s.visible), s.offset+h)
	for i := s.offset; i < end; i++ {
		b.WriteByte('\n')
		if i == s.cursor {
			b.WriteString(s.selLine)
		} else {
			b.WriteString(s.lines[s.visible[i]])
		}
	}
	if more := moreLine(s.offset, end-s.offset, len(s.visible)); more != "" {
		b.WriteString("\n" + s.c.styles.muted.Render(more))
	}
	return b.String()
}

func (s *groupsScreen) emptyReason() string {
	switch {
	case s.filter.text != "" && s.problemsOnly:
		return "no group with a problem matches the filter (esc clears it, p shows all)"
	case s.filter.text != "":
		return "no group matches the filter (esc clears it; ? says what it matches)"
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
	case s.filter.text != "":
		parts = append(parts, st.prompt.Render("/"+s.filter.text))
	}
	if s.problemsOnly {
		parts = append(parts, st.notice.Render("PROBLEMS ONLY"))
	}
	withProblems := text.Thousands(s.problems) + " with problems"
	switch {
	case s.snap != nil && s.snap.Loading:
		withProblems = st.muted.Render(loadingNote)
	case s.problems == 1:
		withProblems = "1 with a problem"
	}
	parts = append(parts, withProblems)
	if h := hiddenNote(s.cols); h != "" {
		parts = append(parts, st.notice.Render(h))
	}
	parts = append(parts, "sort: "+sortNames[s.sortCol]+reversed(s.reverse))
	return strings.Join(parts, st.muted.Render(" · "))
}

func reversed(r bool) string {
	if r {
		return " (reversed)"
	}
	return ""
}

func countOf(shown, total int) string {
	if shown == total {
		return text.Thousands(total)
	}
	return text.Thousands(shown) + " of " + text.Thousands(total)
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
			described(s.keys.Filter, "filter as you type (see notes)"),
			described(s.keys.FilterApply, "keep the filter (opens a lone match)"),
			described(clear, "clear the filter"),
			described(s.keys.Problems, "only groups with problems"),
			described(s.keys.SortNext, "sort by the next column"),
			s.keys.SortReverse,
			described(s.keys.Report, "write the Markdown report of the groups listed"),
		},
	}
}
