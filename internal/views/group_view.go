package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Drawing the group screen. rebuild runs at the end of every Update and
// SetSize; View only joins what it rendered.

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
	pcCommitTTL // when the broker may delete the commit (display.PartitionCommitTTL)
	pcLoss      // the deadline where rates exist (model.GroupPartition.Deadline), "now" when losing
	pcCount
)

// markGlyph flags a partition marked with space for the reset planner.
const markGlyph = "✓"

// positionTitle names the position column: a share group has start offsets
// (kafka-share-groups' START-OFFSET), every other type committed offsets.
func positionTitle(typ string) string {
	if typ == model.TypeShare {
		return "START"
	}
	return "COMMITTED"
}

// maxMemberLines caps the members list so the partitions table keeps its room.
const maxMemberLines = 3

// compactBelow is the body height under which the screen drops its blank
// lines and explains the cursor row in one line instead of two.
const compactBelow = 16

// partitionColumns is the partitions table, left to right; drop is the
// written priority of what goes when the terminal is narrow (highest first,
// 0 never): CONSUME, POSITION (the gauge repeats the numbers), COMMIT-TTL, TREND,
// CONSUMER, ETA, EVAL, EXPIRES-IN, LOSS-IN, TIME-LAG, HIGH, LOW. TOPIC, P, COMMITTED,
// LAG and STATUS stay. The time axis' columns (LOSS-IN after EXPIRES-IN; CONSUME, ETA,
// EVAL, TREND at the end) are there only when timed: one snapshot alone shows no rates.
// To add a column: an id above, an entry here, its cell in cells.
func partitionColumns(ps []model.GroupPartition, typ string, mark, timed bool) []column {
	var wTopic, wLow, wCom, wHigh, wLag, wCons, wP int
	wStatus := len("UNKNOWN")
	for i := range ps {
		p := &ps[i]
		if p.NotConsumed() {
			wStatus = max(wStatus, len(display.NotConsumedBadge))
		}
		wTopic = max(wTopic, ansi.StringWidth(p.Topic))
		wP = max(wP, len(fmt.Sprint(p.Partition)))
		wLow, wCom = max(wLow, len(text.OptThousands(p.Low))), max(wCom, len(text.OptThousands(p.Position())))
		wHigh, wLag = max(wHigh, len(text.OptThousands(p.High))), max(wLag, len(text.OptThousands(p.Lag)))
		if p.Member != nil {
			wCons = max(wCons, ansi.StringWidth(p.Member.Name()))
		}
	}
	cols := []column{
		{id: pcTopic, title: "TOPIC", width: max(textWidth("TOPIC", 0, 0), min(wTopic, 12)), flex: true, maxW: max(8, min(wTopic, 40)), middle: true},
		{id: pcP, title: "P", width: textWidth("P", wP, 0), right: true},
		{id: pcLow, title: "LOW", width: textWidth("LOW", wLow, 0), right: true, drop: 1},
		{id: pcCommitted, title: positionTitle(typ), width: textWidth(positionTitle(typ), wCom, 0), right: true},
		{id: pcHigh, title: "HIGH", width: textWidth("HIGH", wHigh, 0), right: true, drop: 2},
		{id: pcLag, title: "LAG", width: textWidth("LAG", wLag, 0), right: true},
		{id: pcTimeLag, title: "TIME-LAG", width: textWidth("TIME-LAG", 0, 0), right: true, drop: 3},
		{id: pcExpires, title: "EXPIRES-IN", width: textWidth("EXPIRES-IN", 0, 0), right: true, drop: 5},
		{id: pcStatus, title: "STATUS", width: textWidth("STATUS", wStatus, 0)},
		{id: pcPosition, title: "POSITION", width: 8, flex: true, maxW: gaugeWidth, drop: 11},
		{id: pcConsumer, title: "CONSUMER", width: textWidth("CONSUMER", 0, 0), flex: true, maxW: max(9, min(wCons, 32)), drop: 8, middle: true},
		{id: pcCommitTTL, title: "COMMIT-TTL", width: textWidth("COMMIT-TTL", 0, 0), right: true, drop: 10},
	}
	if timed {
		at := slices.IndexFunc(cols, func(c column) bool { return c.id == pcExpires }) + 1
		cols = slices.Insert(cols, at, column{id: pcLoss, title: "LOSS-IN", width: textWidth("LOSS-IN", len("23h59m"), 0), right: true, drop: 4})
		cols = append(cols, partitionTimeColumns()...)
	}
	if mark {
		cols = append([]column{{id: pcMark, width: 1}}, cols...)
	}
	return cols
}

// compact reports whether the screen is short enough to drop its blank lines.
func (s *groupScreen) compact() bool { return s.height < compactBelow }

// explainLines is the room of the explanation of the cursor row: two lines,
// or one on a short screen.
func (s *groupScreen) explainLines() int {
	if s.compact() {
		return 1
	}
	return 2
}

// tableHeight is what the chrome leaves for rows.
func (s *groupScreen) tableHeight() int {
	return max(1, s.height-lipgloss.Height(s.above)-lipgloss.Height(s.below))
}

// rowsShown is how many rows fit, less the "… more" line when needed.
func (s *groupScreen) rowsShown() int { return listRows(len(s.visible), s.tableHeight()) }

// rebuild renders everything derived from data, filter, cursor and size.
func (s *groupScreen) rebuild() {
	s.cols = nil
	if s.g != nil {
		s.cols = layoutColumns(partitionColumns(s.g.Partitions, s.g.Type, s.keys.Mark.Enabled(), s.g.Time != nil), s.width)
	}
	s.info = s.infoLines() // its totals line says how many columns the width hides
	gap := "\n\n"
	if s.compact() {
		gap = "\n"
	}
	if s.g == nil {
		s.header = ""
		s.above, s.below = strings.Join(s.info, "\n"), ""
		return
	}
	s.header = renderHeader(s.cols, s.width, s.c.styles.colHeader, s.sortCol, s.sortArrow())
	s.above = strings.Join(s.info, "\n") + gap + s.header
	s.cursor = max(0, min(s.cursor, len(s.visible)-1))
	s.selLine, s.detail = s.cursorLines()
	for len(s.detail) < 1+s.explainLines() {
		s.detail = append(s.detail, "")
	}
	s.below = strings.Join(s.detail, "\n")
	if !s.compact() {
		s.below = "\n" + s.below
	}
	h := s.rowsShown()
	s.offset = scrollTo(s.cursor, s.offset, h, len(s.visible))
	for i := s.offset; i < min(len(s.visible), s.offset+h); i++ {
		idx := s.visible[i]
		if _, ok := s.lines[idx]; !ok {
			s.lines[idx] = renderRow(s.cols, s.width, noGlyph, s.cells(&s.g.Partitions[idx]))
		}
	}
}

func (s *groupScreen) sortArrow() string {
	if s.sortCol == pcTopic && !s.reverse {
		return "" // the natural order needs no arrow
	}
	if s.reverse {
		return "↑"
	}
	return "↓"
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
	detail = []string{truncate(st.muted.Render(TopicLine(p.Topic, s.topics[p.Topic])), s.width)}
	typ := ""
	if s.g != nil {
		typ = s.g.Type
	}
	text := st.status(p.Status).Render(p.Status.Badge()) + "  " + explainFor(typ, s.name, p, s.topics[p.Topic], s.c.riskWindow)
	if p.NotConsumed() && s.g != nil {
		text = st.muted.Render(display.NotConsumedBadge) + "  no member subscribes to " + p.Topic + " (" + display.SubscribedText(s.g) +
			"): not in the group's total or status. As a commit it is " + text
	}
	for _, line := range []string{display.TieredLine(p), display.CompactionLine(p)} {
		if line != "" {
			text += "; " + line
		}
	}
	return selLine, append(detail, wrapLines(text, s.width, "", s.explainLines())...)
}

func (s *groupScreen) cells(p *model.GroupPartition) []cell {
	st := s.c.styles
	status := st.status(p.Status)
	cells := make([]cell, pcCount)
	cells[pcTopic] = cell{text: p.Topic}
	cells[pcP] = cell{text: fmt.Sprint(p.Partition)}
	cells[pcLow] = cell{text: text.OptThousands(p.Low)}
	cells[pcCommitted] = cell{text: text.OptThousands(p.Position())}
	cells[pcHigh] = cell{text: text.OptThousands(p.High)}
	lag := st.lag(p.Lag)
	if p.Status == model.StatusExpired || p.Status == model.StatusAhead {
		lag = status // a lag that cannot be read as a backlog
	}
	badge := p.Status.Badge()
	if p.NotConsumed() { // shown, not counted: no member subscribes to the topic
		badge, status, lag = display.NotConsumedBadge, st.muted, st.muted
	}
	cells[pcLag] = cell{text: text.OptThousands(p.Lag), style: &lag}
	cells[pcTimeLag] = cell{text: s.timed(p, p.TimeLagMs)}
	cells[pcExpires] = cell{text: s.expires(p)}
	if p.ReadsBeforeExpiry() { // context: the consumer reads that record before it expires
		cells[pcExpires].style = &st.muted
	}
	cells[pcCommitTTL] = cell{text: text.OrDash(display.PartitionCommitTTL(s.g, p, s.takenAt))}
	cells[pcStatus] = cell{text: badge, style: &status}
	cells[pcConsumer] = cell{text: "-"}
	if p.Member != nil {
		cells[pcConsumer] = cell{text: p.Member.Name()}
	}
	cells[pcPosition] = cell{fitted: func(w int) string { return status.Render(gauge(p.Low, p.Position(), p.High, w)) }}
	cells[pcMark] = cell{text: " "}
	if s.marked[p.TP()] {
		cells[pcMark] = cell{text: markGlyph}
	}
	partitionTimeCells(st, s.g, p, s.axis.lags(s.name, p.TP()), cells)
	return cells
}

// needsTimestamp reports whether a value from the committed record's timestamp
// applies: the group has read up to somewhere strictly between low and high.
func needsTimestamp(p *model.GroupPartition) bool {
	c := p.Position()
	return c != nil && p.Low != nil && p.High != nil && *c >= *p.Low && *c < *p.High
}

// timed shows a timestamp-derived value: "…" while it is being read, "?" when
// it could not be resolved, "-" when it does not apply.
func (s *groupScreen) timed(p *model.GroupPartition, v *int64) string {
	switch {
	case v != nil:
		return text.HumanMs(v)
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

// View implements tea.Model.
func (s *groupScreen) View() string {
	var b strings.Builder
	b.WriteString(s.above)
	if s.g == nil {
		return b.String()
	}
	h := s.rowsShown()
	end := min(len(s.visible), s.offset+h)
	for i := s.offset; i < end; i++ {
		b.WriteByte('\n')
		if i == s.cursor {
			b.WriteString(s.selLine)
		} else {
			b.WriteString(s.lines[s.visible[i]])
		}
	}
	switch {
	case s.loading:
		b.WriteString("\n" + s.c.styles.muted.Render("  "+loadingNote))
	case len(s.g.Partitions) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  no partitions: the group has no commits and no assignments"))
	case len(s.visible) == 0:
		b.WriteString("\n" + s.c.styles.muted.Render("  no partition matches (esc clears the filter, p shows all)"))
	}
	if more := moreLine(s.offset, end-s.offset, len(s.visible)); more != "" {
		b.WriteString("\n" + s.c.styles.muted.Render(more))
	}
	// The detail stays at the bottom of the body.
	used := lipgloss.Height(b.String())
	for range s.height - used - lipgloss.Height(s.below) {
		b.WriteByte('\n')
	}
	b.WriteString("\n" + s.below)
	return b.String()
}

// wrapLines wraps text to width, indenting the following lines, within at
// most maxLines lines (the last one cut with …).
func wrapLines(text string, width int, indent string, maxLines int) []string {
	lines := strings.Split(ansi.Wrap(text, max(1, width-len(indent)), ""), "\n")
	if len(lines) > maxLines {
		last := strings.Join(lines[maxLines-1:], " ")
		if maxLines > 1 {
			last = indent + last
		}
		lines = append(lines[:maxLines-1], truncate(last, width))
		for i := 1; i < maxLines-1; i++ {
			lines[i] = indent + lines[i]
		}
		return lines
	}
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return lines
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
