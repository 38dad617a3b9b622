package views

import (
	"cmp"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// groupScreen shows one group: what it is, its totals, its members, and every
// partition with the offsets that decide its status, plus retention and a
// plain-language explanation of the selected row. Its partitions can be
// filtered (/), narrowed to problems (p) and sorted (s); the cursor starts on
// the first problem.
type groupScreen struct {
	c    *common
	id   int
	keys groupKeys
	name string

	width, height int

	g         *model.Group // nil when the group is not in the snapshot
	takenAt   time.Time    // when the snapshot was taken: countdowns count from it
	loading   bool         // the group is listed, its offsets still being read
	topics    map[string]*model.Topic
	axis      *timeAxis // the time axis' history, read in Update only
	detailed  bool      // the data includes committed-record timestamps
	fetching  bool
	detailErr error
	// retentionMinutes is the broker's offsets.retention.minutes, nil when not read.
	retentionMinutes *int64

	order   []int // partition indexes in sort order
	visible []int // partition indexes that pass the filters, in sort order
	cursor  int   // index into visible
	offset  int
	// placed is set once the cursor was put on the first problem.
	placed bool

	sortCol      int
	reverse      bool
	problemsOnly bool
	input        textinput.Model
	filter       listFilter

	// marked holds the partitions marked with space: a scope for the planner.
	marked map[model.TP]bool

	// Rendered in Update; View only joins them (group_view.go).
	cols    []column
	header  string
	info    []string       // lines above the table
	lines   map[int]string // rendered rows by partition index, cursor glyph absent
	selLine string
	detail  []string // topic line and explanation of the cursor row
	// above and below are the chrome around the rows, measured with
	// lipgloss.Height: info and the header above; the detail (always the
	// same height, so the table does not jump as the cursor moves) below.
	above, below string
}

// Sort keys of the partitions table (column ids).
var partitionSortCycle = []int{pcTopic, pcStatus, pcLag, pcTimeLag, pcExpires}

var partitionSortNames = map[int]string{pcTopic: "position", pcStatus: "worst first", pcLag: "lag",
	pcTimeLag: "time lag", pcExpires: "expires soonest"}

func newGroupScreen(c *common, name string, planner bool) *groupScreen {
	s := &groupScreen{c: c, id: c.nextID(), keys: newGroupKeys(planner), name: name, marked: map[model.TP]bool{},
		input: filterInput(c), sortCol: pcTopic, lines: map[int]string{}}
	s.keys.ClearFilter.SetEnabled(false)
	s.keys.Report.SetEnabled(c.reports)
	return s
}

// Init implements tea.Model.
func (s *groupScreen) Init() tea.Cmd { return nil }

// ID implements screen.
func (s *groupScreen) ID() int { return s.id }

// Crumb implements screen.
func (s *groupScreen) Crumb() string { return s.name }

// Capturing implements screen: the filter input has the keyboard.
func (s *groupScreen) Capturing() bool { return s.input.Focused() }

// Back implements screen: esc clears the filter first.
func (s *groupScreen) Back() bool {
	if s.filter.text == "" {
		return false
	}
	s.setFilter("")
	s.rebuild()
	return true
}

// Busy implements screen.
func (s *groupScreen) Busy() string { return "" }

// Cancel implements screen: nothing to stop.
func (s *groupScreen) Cancel() bool { return false }

// Group implements screen.
func (s *groupScreen) Group() string { return s.name }

// Columns implements screen.
func (s *groupScreen) Columns() []columnNote {
	var ps []model.GroupPartition
	typ := ""
	if s.g != nil {
		ps, typ = s.g.Partitions, s.g.Type
	}
	return columnNotes(partitionColumns(ps, typ, false, true), partitionColumnHelp) // the time axis' too
}

// Notes implements screen: what the filter matches.
func (s *groupScreen) Notes() []string {
	return filterHelp("a partition's topic, topic-partition (orders-5), consumer or host")
}

// SetSize implements screen.
func (s *groupScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.lines = map[int]string{} // drawn for the old width
	s.rebuild()
}

// Update implements tea.Model.
func (s *groupScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case dataAppliedMsg:
		keep := s.current()
		s.apply(msg)
		s.resort()
		s.keepCursor(keep)
	case tea.KeyMsg:
		if s.input.Focused() {
			cmd = s.updateFilterInput(msg)
		} else {
			cmd = s.updateKey(msg)
		}
	}
	s.rebuild()
	return s, cmd
}

func (s *groupScreen) updateFilterInput(msg tea.KeyMsg) tea.Cmd {
	_, cmd := filterKey(&s.input, msg, s.keys.FilterApply, s.keys.FilterCancel, s.setFilter)
	return cmd
}

func (s *groupScreen) updateKey(msg tea.KeyMsg) tea.Cmd {
	if c, ok := s.keys.moveCursor(msg, s.cursor, len(s.visible), s.rowsShown()); ok {
		s.cursor = c
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.Mark) && s.current() != nil:
		tp := s.current().TP()
		if s.marked[tp] {
			delete(s.marked, tp)
		} else {
			s.marked[tp] = true
		}
		s.cursor++ // mark the next one with the next space, as file managers do
		s.lines = map[int]string{}
	case key.Matches(msg, s.keys.Plan):
		req := planRequestedMsg{group: s.name, marked: s.markedTPs()}
		if p := s.current(); p != nil {
			tp := p.TP()
			req.topic, req.uncommitted, req.cursor = p.Topic, p.Position() == nil, &tp
		}
		s.c.post(req)
	case key.Matches(msg, s.keys.Report) && s.g != nil:
		s.c.post(reportRequestedMsg{from: s.id, groups: []string{s.name}, what: s.name})
	case key.Matches(msg, s.keys.Restore):
		s.c.post(planRequestedMsg{group: s.name, restore: true})
	case key.Matches(msg, s.keys.Filter):
		return startFilter(&s.input, s.setFilter)
	case key.Matches(msg, s.keys.Problems):
		s.problemsOnly = !s.problemsOnly
		s.refilter()
	case key.Matches(msg, s.keys.SortNext):
		s.sortCol, s.reverse = nextSort(partitionSortCycle, s.sortCol), false
		s.resort()
	case key.Matches(msg, s.keys.SortReverse):
		s.reverse = !s.reverse
		s.resort()
	}
	return nil
}

func (s *groupScreen) apply(msg dataAppliedMsg) {
	s.g, s.topics, s.axis, s.retentionMinutes = nil, map[string]*model.Topic{}, msg.axis, nil
	s.visible = s.visible[:0] // indices into the old data's partitions: the new may have fewer
	s.lines = map[int]string{}
	_, s.detailed = msg.detailed[s.name]
	s.fetching = msg.fetching == s.name
	s.detailErr = msg.detailErr[s.name]
	s.loading = msg.snap != nil && msg.snap.Loading
	if msg.snap == nil {
		return
	}
	s.takenAt = msg.snap.Cluster.TakenAt.Time
	s.retentionMinutes = msg.snap.Cluster.OffsetsRetentionMinutes
	for i := range msg.snap.Groups {
		if msg.snap.Groups[i].Group == s.name {
			s.g = &msg.snap.Groups[i]
		}
	}
	for i := range msg.snap.Topics {
		s.topics[msg.snap.Topics[i].Topic] = &msg.snap.Topics[i]
	}
	if s.g != nil { // forget marks of partitions the group no longer has
		for tp := range s.marked {
			if !slices.ContainsFunc(s.g.Partitions, func(p model.GroupPartition) bool { return p.TP() == tp }) {
				delete(s.marked, tp)
			}
		}
	}
}

// partitionProblem reports whether a partition needs attention: a status other than ok, on
// a topic a member subscribes to (or whose subscriptions are not known).
func partitionProblem(p *model.GroupPartition) bool {
	return p.Status != model.StatusOK && !p.NotConsumed()
}

// keepCursor puts the cursor back on the partition it was on; the first time
// data arrives, on the first partition with a problem instead.
func (s *groupScreen) keepCursor(was *model.GroupPartition) {
	if s.g == nil {
		return
	}
	if !s.placed {
		s.placed = true
		s.cursor = max(0, slices.IndexFunc(s.visible, func(i int) bool { return partitionProblem(&s.g.Partitions[i]) }))
		return
	}
	if was != nil {
		tp := was.TP()
		if i := slices.IndexFunc(s.visible, func(i int) bool { return s.g.Partitions[i].TP() == tp }); i >= 0 {
			s.cursor = i
		}
	}
}

func (s *groupScreen) setFilter(text string) {
	s.filter.set(text, &s.keys.ClearFilter)
	s.refilter()
}

// resort orders the partitions by the sort key; ties keep topic, partition.
func (s *groupScreen) resort() {
	s.order = s.order[:0]
	if s.g == nil {
		s.visible = s.visible[:0]
		return
	}
	for i := range s.g.Partitions {
		s.order = append(s.order, i)
	}
	ps := s.g.Partitions
	opt := func(p *int64, none int64) int64 {
		if p == nil {
			return none
		}
		return *p
	}
	key := func(a, b *model.GroupPartition) int {
		switch s.sortCol {
		case pcStatus:
			return -cmp.Compare(a.Status, b.Status)
		case pcLag:
			return -cmp.Compare(opt(a.Lag, -1<<62), opt(b.Lag, -1<<62))
		case pcTimeLag:
			return -cmp.Compare(opt(a.TimeLagMs, -1), opt(b.TimeLagMs, -1))
		case pcExpires:
			return cmp.Compare(opt(a.ExpiresInMs, 1<<62), opt(b.ExpiresInMs, 1<<62))
		}
		return 0
	}
	slices.SortStableFunc(s.order, func(i, j int) int {
		c := key(&ps[i], &ps[j])
		if s.reverse {
			c = -c
		}
		if c == 0 {
			c = model.CompareTP(ps[i].TP(), ps[j].TP())
			if s.reverse && s.sortCol == pcTopic {
				c = -c
			}
		}
		return c
	})
	s.refilter()
}

// refilter recomputes the visible partitions, keeping the cursor's.
func (s *groupScreen) refilter() {
	keep := s.current()
	s.visible = s.visible[:0]
	if s.g == nil {
		return
	}
	for _, i := range s.order {
		p := &s.g.Partitions[i]
		t := partitionTarget(p)
		if (s.problemsOnly && !partitionProblem(p)) || !s.filter.spec.keep(&t) {
			continue
		}
		s.visible = append(s.visible, i)
	}
	s.cursor = 0
	s.keepCursor(keep)
}

// markedTPs returns the marked partitions, sorted.
func (s *groupScreen) markedTPs() []model.TP {
	out := make([]model.TP, 0, len(s.marked))
	for tp := range s.marked {
		out = append(out, tp)
	}
	slices.SortFunc(out, model.CompareTP)
	return out
}

// current returns the partition under the cursor, or nil.
func (s *groupScreen) current() *model.GroupPartition {
	if s.g == nil || s.cursor < 0 || s.cursor >= len(s.visible) {
		return nil
	}
	return &s.g.Partitions[s.visible[s.cursor]]
}

// ShortHelp implements help.KeyMap.
func (s *groupScreen) ShortHelp() []key.Binding {
	if s.input.Focused() {
		return []key.Binding{s.keys.FilterApply, s.keys.FilterCancel}
	}
	// Most important first: a narrow key bar keeps the first two (app_view.go's keyBar).
	return []key.Binding{s.keys.Plan, s.keys.Mark, s.keys.Filter, s.keys.ClearFilter, s.keys.Problems, s.keys.SortNext, s.keys.Report}
}

// FullHelp implements help.KeyMap.
func (s *groupScreen) FullHelp() [][]key.Binding {
	clear := s.keys.ClearFilter
	clear.SetEnabled(true)
	return [][]key.Binding{s.keys.all(), {
		described(s.keys.Filter, "filter the partitions (see notes)"),
		described(clear, "clear the filter"),
		described(s.keys.Problems, "only partitions with a problem"),
		described(s.keys.SortNext, "sort: position, worst first, lag, time lag, expires"),
		s.keys.SortReverse,
		described(s.keys.Plan, "plan a reset (marked partitions, or this topic)"),
		described(s.keys.Mark, "mark/unmark the partition for the plan"),
		described(s.keys.Restore, "restore one of this group's backups"),
		described(s.keys.Report, "write this group's Markdown report"),
	}}
}
