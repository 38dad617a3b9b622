package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// Column ids of the partitions table.
const (
	pcTopic = iota
	pcP
	pcLow
	pcCommitted
	pcHigh
	pcLag
	pcTimeLag
	pcExpires
	pcStatus
	pcConsumer
	pcPosition
	pcMark
	pcConsume // the time axis (docs/timeaxis.md): shown once a window exists
	pcETA
	pcEval
	pcSpark
	pcCount
)

// markGlyph flags a partition marked with space for the reset planner.
const markGlyph = "✓"

// explainLines is the room of the explanation: one line at 120 columns, and a
// second one when a narrow terminal needs it, rather than cutting the sentence.
const explainLines = 2

// maxMemberLines caps the members list so the partitions table keeps its room.
const maxMemberLines = 3

// groupScreen shows one group: what it is, its members, and every partition
// with the offsets that decide its status, plus retention and a plain-language
// explanation of the selected row.
type groupScreen struct {
	c    *common
	keys groupKeys
	name string

	width, height int

	g         *model.Group // nil when the group is not in the snapshot
	topics    map[string]*model.Topic
	axis      *model.History // the time axis, read in Update only
	detailed  bool           // the data includes committed-record timestamps
	fetching  bool
	detailErr error

	cursor, offset int
	// marked holds the partitions marked with space: a scope for the planner.
	marked  map[model.TP]bool
	cols    []column
	header  string
	info    []string // lines above the table
	lines   []string // rendered rows, cursor glyph absent
	selLine string
	detail  []string // topic line and explanation of the cursor row
	// above and below are the chrome around the rows, rendered in Update and
	// measured with lipgloss.Height: info, a blank and the header above; a
	// blank and the detail (always detailLines lines, so the table does not
	// jump as the cursor moves) below.
	above, below string
}

func newGroupScreen(c *common, name string, planner bool) *groupScreen {
	s := &groupScreen{c: c, keys: newGroupKeys(planner), name: name, marked: map[model.TP]bool{}}
	s.keys.Report.SetEnabled(c.reports)
	return s
}

// Init implements tea.Model.
func (s *groupScreen) Init() tea.Cmd { return nil }

// Crumb implements screen.
func (s *groupScreen) Crumb() string { return s.name }

// Capturing implements screen.
func (s *groupScreen) Capturing() bool { return false }

// SetSize implements screen.
func (s *groupScreen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.rebuild()
}

// Update implements tea.Model.
func (s *groupScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case dataAppliedMsg:
		var keep *model.TP
		if p := s.current(); p != nil {
			tp := p.TP()
			keep = &tp
		}
		s.apply(msg)
		if keep != nil && s.g != nil {
			for i := range s.g.Partitions {
				if s.g.Partitions[i].TP() == *keep {
					s.cursor = i
				}
			}
		}
		s.rebuild()
	case tea.KeyMsg:
		if s.g != nil {
			if c, ok := s.keys.moveCursor(msg, s.cursor, len(s.g.Partitions), s.tableHeight()); ok {
				s.cursor = c
				s.prepare()
				return s, nil
			}
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
			s.rebuild()
		case key.Matches(msg, s.keys.Report) && s.g != nil:
			req := reportRequestedMsg{groups: []string{s.name}, what: s.name}
			return s, func() tea.Msg { return req }
		case key.Matches(msg, s.keys.Plan):
			req := planRequestedMsg{group: s.name, marked: s.markedTPs()}
			if p := s.current(); p != nil {
				req.topic = p.Topic
			}
			return s, func() tea.Msg { return req }
		}
	}
	return s, nil
}

func (s *groupScreen) apply(msg dataAppliedMsg) {
	s.g, s.topics, s.axis = nil, map[string]*model.Topic{}, msg.axis
	if msg.snap == nil {
		return
	}
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
	_, s.detailed = msg.detailed[s.name]
	s.fetching = msg.fetching == s.name
	s.detailErr = msg.detailErr[s.name]
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

func (s *groupScreen) current() *model.GroupPartition {
	if s.g == nil || s.cursor < 0 || s.cursor >= len(s.g.Partitions) {
		return nil
	}
	return &s.g.Partitions[s.cursor]
}

// detailLines is the room of the detail under the table: the topic line and
// the explanation.
const detailLines = 1 + explainLines

// tableHeight is what the chrome leaves for rows.
func (s *groupScreen) tableHeight() int {
	return max(1, s.height-lipgloss.Height(s.above)-lipgloss.Height(s.below))
}

// rebuild renders everything derived from data and size.
func (s *groupScreen) rebuild() {
	s.info = s.infoLines()
	s.lines = nil
	if s.g == nil {
		s.cols, s.header = nil, ""
		s.above = strings.Join(s.info, "\n")
		s.prepare()
		return
	}
	var wTopic, wLow, wCom, wHigh, wLag, wCons, wP int
	for i := range s.g.Partitions {
		p := &s.g.Partitions[i]
		wTopic = max(wTopic, ansi.StringWidth(p.Topic))
		wP = max(wP, len(fmt.Sprint(p.Partition)))
		wLow, wCom = max(wLow, len(fmtOptInt(p.Low))), max(wCom, len(fmtOptInt(p.Committed)))
		wHigh, wLag = max(wHigh, len(fmtOptInt(p.High))), max(wLag, len(fmtOptInt(p.Lag)))
		if p.Member != nil {
			wCons = max(wCons, ansi.StringWidth(clientName(p.Member)))
		}
	}
	cols := []column{
		{id: pcTopic, title: "TOPIC", width: 8, flex: true, maxW: max(8, min(wTopic, 40))},
		{id: pcP, title: "P", width: textWidth("P", wP, 0), right: true},
		{id: pcLow, title: "LOW", width: textWidth("LOW", wLow, 0), right: true},
		{id: pcCommitted, title: "COMMITTED", width: textWidth("COMMITTED", wCom, 0), right: true},
		{id: pcHigh, title: "HIGH", width: textWidth("HIGH", wHigh, 0), right: true},
		{id: pcLag, title: "LAG", width: textWidth("LAG", wLag, 0), right: true},
		{id: pcTimeLag, title: "TIME-LAG", width: textWidth("TIME-LAG", 0, 0), right: true, drop: 2},
		{id: pcExpires, title: "EXPIRES-IN", width: textWidth("EXPIRES-IN", 0, 0), right: true, drop: 1},
		{id: pcStatus, title: "STATUS", width: textWidth("STATUS", len("AT-RISK"), 0)},
		{id: pcPosition, title: "POSITION", width: 8, flex: true, maxW: gaugeWidth, drop: 3},
		{id: pcConsumer, title: "CONSUMER", width: textWidth("CONSUMER", 0, 0), flex: true, maxW: max(9, min(wCons, 32)), drop: 4},
	}
	if s.g.Time != nil { // one snapshot alone shows no rates
		cols = append(cols, partitionTimeColumns()...)
	}
	if s.keys.Mark.Enabled() {
		cols = append([]column{{id: pcMark, width: 1}}, cols...)
	}
	s.cols = layoutColumns(cols, s.width)
	for i := range s.g.Partitions {
		s.lines = append(s.lines, renderRow(s.cols, s.width, noGlyph, s.cells(&s.g.Partitions[i])))
	}
	s.header = renderHeader(s.cols, s.width, s.c.styles.colHeader, -1, "")
	s.above = strings.Join(s.info, "\n") + "\n\n" + s.header
	s.prepare()
}

// prepare renders what depends on the cursor, then scrolls it into view.
func (s *groupScreen) prepare() {
	n := 0
	if s.g != nil {
		n = len(s.g.Partitions)
	}
	s.cursor = max(0, min(s.cursor, n-1))
	s.selLine, s.detail = s.cursorLines()
	for len(s.detail) < detailLines {
		s.detail = append(s.detail, "")
	}
	s.below = "\n" + strings.Join(s.detail, "\n")
	s.offset = scrollTo(s.cursor, s.offset, s.tableHeight(), n)
}

// cursorLines renders the cursor row and its detail: the topic line and the
// explanation, within explainLines lines.
func (s *groupScreen) cursorLines() (selLine string, detail []string) {
	p := s.current()
	if p == nil {
		return "", nil
	}
	st := s.c.styles
	plain := ansi.Strip(renderRow(s.cols, s.width, cursorGlyph, s.cells(p)))
	selLine = st.selected.Render(pad(plain, s.width, false))
	detail = []string{truncate(st.muted.Render(topicLine(p.Topic, s.topics[p.Topic])), s.width)}
	text := st.status(p.Status).Render(p.Status.Badge()) + "  " + explain(s.name, p, s.topics[p.Topic], s.c.riskWindow)
	wrapped := strings.Split(ansi.Wrap(text, max(1, s.width), ""), "\n")
	if len(wrapped) > explainLines {
		wrapped[explainLines-1] = truncate(wrapped[explainLines-1]+" "+strings.Join(wrapped[explainLines:], " "), s.width)
		wrapped = wrapped[:explainLines]
	}
	return selLine, append(detail, wrapped...)
}

func (s *groupScreen) cells(p *model.GroupPartition) []cell {
	st := s.c.styles
	status := st.status(p.Status)
	cells := make([]cell, pcCount)
	cells[pcTopic] = cell{text: p.Topic}
	cells[pcP] = cell{text: fmt.Sprint(p.Partition)}
	cells[pcLow] = cell{text: fmtOptInt(p.Low)}
	cells[pcCommitted] = cell{text: fmtOptInt(p.Committed)}
	cells[pcHigh] = cell{text: fmtOptInt(p.High)}
	lag := st.ok
	switch {
	case p.Status == model.StatusExpired || p.Status == model.StatusAhead:
		lag = status // a lag that cannot be read as a backlog
	case p.Lag != nil:
		lag = st.lag(*p.Lag)
	}
	cells[pcLag] = cell{text: fmtOptInt(p.Lag), style: &lag}
	cells[pcTimeLag] = cell{text: s.timed(p, p.TimeLagMs)}
	cells[pcExpires] = cell{text: s.expires(p)}
	cells[pcStatus] = cell{text: p.Status.Badge(), style: &status}
	cells[pcConsumer] = cell{text: "-"}
	if p.Member != nil {
		cells[pcConsumer] = cell{text: clientName(p.Member)}
	}
	cells[pcPosition] = cell{fitted: func(w int) string { return status.Render(gauge(p.Low, p.Committed, p.High, w)) }}
	cells[pcMark] = cell{text: " "}
	if s.marked[p.TP()] {
		cells[pcMark] = cell{text: markGlyph}
	}
	partitionTimeCells(st, p.Time, partitionLags(s.axis, s.name, p.TP()), cells)
	return cells
}

// needsTimestamp reports whether a value from the committed record's timestamp
// applies: the group has read up to somewhere strictly between low and high.
func needsTimestamp(p *model.GroupPartition) bool {
	return p.Committed != nil && p.Low != nil && p.High != nil && *p.Committed >= *p.Low && *p.Committed < *p.High
}

// timed shows a timestamp-derived value: "…" while it is being read, "?" when
// it could not be resolved, "-" when it does not apply.
func (s *groupScreen) timed(p *model.GroupPartition, v *int64) string {
	switch {
	case v != nil:
		return fmtMs(v)
	case !needsTimestamp(p):
		return "-"
	case s.fetching && !s.detailed:
		return ellipsis
	default:
		return "?"
	}
}

func (s *groupScreen) expires(p *model.GroupPartition) string {
	if t := s.topics[p.Topic]; t != nil && t.ConfigKnown() && (!t.Deletes() || (t.RetentionMs != nil && *t.RetentionMs < 0)) {
		return "never"
	}
	if p.ExpiresInMs != nil && *p.ExpiresInMs <= 0 {
		return "now"
	}
	return s.timed(p, p.ExpiresInMs)
}

// infoLines describe the group above the table.
func (s *groupScreen) infoLines() []string {
	st := s.c.styles
	if s.g == nil {
		return []string{st.err.Render("group " + s.name + " is not in the latest snapshot (deleted, or not readable); esc goes back")}
	}
	g := s.g
	protocol := model.OrDash(g.ProtocolType)
	if g.ProtocolType == "" {
		protocol = "none (offsets only)"
	}
	if g.Protocol != "" {
		protocol += " / " + g.Protocol
	}
	// Most important first: truncation at narrow widths cuts the end.
	lines := []string{strings.Join([]string{
		st.title.Render(g.Group),
		model.OrDash(g.Type),
		model.OrDash(g.State),
		plural(len(g.Members), "member"),
		"coordinator " + fmt.Sprint(g.Coordinator),
		"protocol " + protocol,
	}, st.muted.Render(" · "))}
	lines = append(lines, timeLines(st, g.Time, s.width)...)
	if g.OffsetsExpireAfterMs != nil {
		lines = append(lines, st.atRisk.Render("EMPTY")+"  the broker may delete these commits "+
			fmtMs(g.OffsetsExpireAfterMs)+" after the last member left (offsets.retention.minutes)")
	}
	for i, m := range g.Members {
		if i == maxMemberLines && len(g.Members) > maxMemberLines+1 {
			lines = append(lines, st.muted.Render(fmt.Sprintf("  … and %d more members", len(g.Members)-i)))
			break
		}
		host := strings.TrimPrefix(m.Host, "/")
		lines = append(lines, "  member "+clientName(&m.MemberRef)+st.muted.Render(" on "+model.OrDash(host)+"  ")+assignmentText(m.Assignments))
	}
	if g.Error != nil {
		lines = append(lines, st.err.Render("ERROR  "+g.Error.Error()+"; "+tryNext(g.Error.Kind)))
	}
	if len(s.marked) > 0 {
		lines = append(lines, st.section.Render(markGlyph+" "+plural(len(s.marked), "partition")+" marked")+
			" "+markedText(s.markedTPs())+st.muted.Render(" · R plans a reset of them · space unmarks"))
	}
	switch {
	case s.detailErr != nil:
		lines = append(lines, st.err.Render("committed-record timestamps could not be read: "+s.detailErr.Error()))
	case s.fetching && !s.detailed:
		lines = append(lines, st.muted.Render("reading committed-record timestamps for time lag and expires-in…"))
	}
	for i := range lines {
		lines[i] = truncate(lines[i], s.width)
	}
	return lines
}

// clientName is how the partitions table names a member: its client id.
func clientName(m *model.MemberRef) string {
	if m.ClientID != "" {
		return m.ClientID
	}
	return m.MemberID
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmtInt(int64(n)) + " " + what + "s"
}

// assignmentText writes "orders[0-5] outbox[0]".
func assignmentText(as []model.Assignment) string {
	if len(as) == 0 {
		return "no partitions assigned"
	}
	var parts []string
	for _, a := range as {
		parts = append(parts, a.Topic+"["+partitionRanges(a.Partitions)+"]")
	}
	return strings.Join(parts, " ")
}

// markedText writes marked partitions per topic: "orders[0,2] outbox[0]".
func markedText(tps []model.TP) string {
	var as []model.Assignment
	for _, tp := range tps {
		if n := len(as); n > 0 && as[n-1].Topic == tp.Topic {
			as[n-1].Partitions = append(as[n-1].Partitions, tp.Partition)
			continue
		}
		as = append(as, model.Assignment{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
	}
	return assignmentText(as)
}

// partitionRanges writes partitions as ranges: 0-3,7.
func partitionRanges(ps []int32) string {
	ps = slices.Clone(ps)
	slices.Sort(ps)
	var parts []string
	for i := 0; i < len(ps); {
		j := i
		for j+1 < len(ps) && ps[j+1] == ps[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ps[i], ps[j]))
		} else {
			parts = append(parts, fmt.Sprint(ps[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// View implements tea.Model.
func (s *groupScreen) View() string {
	var b strings.Builder
	b.WriteString(s.above)
	if s.g == nil {
		return b.String()
	}
	h := s.tableHeight()
	for i := s.offset; i < min(len(s.lines), s.offset+h); i++ {
		b.WriteByte('\n')
		if i == s.cursor {
			b.WriteString(s.selLine)
		} else {
			b.WriteString(s.lines[i])
		}
	}
	if len(s.lines) == 0 {
		b.WriteString("\n" + s.c.styles.muted.Render("  no partitions: the group has no commits and no assignments"))
	}
	b.WriteString("\n" + s.below)
	return b.String()
}

// ShortHelp implements help.KeyMap.
func (s *groupScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Up, s.keys.Down, s.keys.Mark, s.keys.Plan, s.keys.Report}
}

// FullHelp implements help.KeyMap.
func (s *groupScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.keys.all(), {
		described(s.keys.Plan, "plan a reset (marked partitions, or this topic)"),
		described(s.keys.Mark, "mark/unmark the partition for the plan"),
		described(s.keys.Report, "write this group's Markdown incident report"),
	}}
}
