package views

import (
	"cmp"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Column ids of the groups table; also the sort keys.
const (
	gcGroup = iota
	gcType
	gcState
	gcMembers
	gcTopics
	gcPartitions
	gcLag
	gcTimeLag
	gcStatus
	gcTrend
	gcConsume // the time axis (docs/timeaxis.md): shown once a window exists
	gcETA
	gcEval
	gcLoss
	gcCommitTTL // when the broker may delete the group's commits (display.CommitTTL)
	gcCount
)

// sortCycle is the order `s` walks the sort keys in, starting from the default.
var sortCycle = []int{gcStatus, gcLoss, gcETA, gcTrend, gcGroup, gcType, gcState, gcMembers, gcTopics, gcPartitions, gcLag, gcTimeLag, gcCommitTTL}

// sortNames names the sort keys in the title line.
var sortNames = [gcCount]string{"group", "type", "state", "members", "topics", "partitions", "lag", "time lag", "urgency",
	"trend", "consume rate", "ETA", "evaluation", "time to loss", "commit TTL"}

// groupRow is one group with what sorting, filtering and drawing need,
// computed once per snapshot so that a keystroke costs no more than a scan.
type groupRow struct {
	g      *model.Group
	target filterTarget // what the filter matches: names, statuses, state, type
	topics int
	// timeLag is the largest time lag of the group's partitions; nil when a
	// partition that is behind has none (timestamps are read lazily, per group).
	timeLag    *int64
	timeLagAny bool // some partition is between low and high: a time lag applies
	lags       []int64
	delta      int64 // last change of total lag, for sorting by trend
	problems   bool
	// ttl is the COMMIT-TTL cell, counted from the snapshot's time.
	ttl string
	// loading: the group is listed, its offsets are still being read
	// (model.Snapshot.Loading). Nothing but its name, type, state and members
	// is known, and a problem cannot be ruled out.
	loading bool
}

// buildRows turns a snapshot into rows, most urgent first (model.Urgency: the
// default sort).
func buildRows(snap *model.Snapshot, hist *lagHistory) []groupRow {
	if snap == nil {
		return nil
	}
	groups := slices.Clone(snap.Groups)
	model.SortGroupsByUrgency(groups)
	rows := make([]groupRow, len(groups))
	for i := range groups {
		g := &groups[i]
		topics := g.Topics()
		r := groupRow{
			g:        g,
			target:   filterTarget{names: filterNames(append([]string{g.Group}, topics...)...), tags: groupTags(g)},
			topics:   len(topics),
			problems: g.HasProblem() || snap.Loading,
			loading:  snap.Loading,
			ttl:      display.CommitTTL(g, snap.Cluster.TakenAt.Time),
		}
		r.timeLag, r.timeLagAny = groupTimeLag(g)
		if hist != nil {
			r.lags = hist.lags(g.Group)
		}
		if n := len(r.lags); n >= 2 {
			r.delta = r.lags[n-1] - r.lags[n-2]
		}
		rows[i] = r
	}
	return rows
}

// groupTimeLag is the largest time lag of a group, or nil when one of its
// partitions behind has no known time lag; any says whether one applies.
func groupTimeLag(g *model.Group) (lag *int64, any bool) {
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if !needsTimestamp(p) && p.TimeLagMs == nil {
			continue
		}
		if p.TimeLagMs == nil {
			return nil, true
		}
		if lag == nil || *p.TimeLagMs > *lag {
			lag = p.TimeLagMs
		}
		any = true
	}
	return lag, any
}

// sortOrder returns row indexes sorted by column col (gcStatus: the urgency
// order, the rows' own). Numbers and statuses sort biggest/worst first, text
// A→Z; reverse flips that. Ties keep the urgency order.
func sortOrder(rows []groupRow, col int, reverse bool) []int {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	if col == gcStatus && !reverse {
		return order
	}
	optMs := func(p *int64) int64 {
		if p == nil {
			return -1
		}
		return *p
	}
	key := func(a, b *groupRow) int {
		switch col {
		case gcGroup:
			return cmp.Compare(a.g.Group, b.g.Group)
		case gcType:
			return cmp.Compare(a.g.Type, b.g.Type)
		case gcState:
			return cmp.Compare(a.g.State, b.g.State)
		case gcMembers:
			return -cmp.Compare(len(a.g.Members), len(b.g.Members))
		case gcTopics:
			return -cmp.Compare(a.topics, b.topics)
		case gcPartitions:
			return -cmp.Compare(len(a.g.Partitions), len(b.g.Partitions))
		case gcLag:
			la, wa := a.g.LagSortKey()
			lb, wb := b.g.LagSortKey()
			if wa != wb { // partial totals first: their missing part may be the largest
				if !wa {
					return -1
				}
				return 1
			}
			return -cmp.Compare(la, lb)
		case gcTimeLag:
			return -cmp.Compare(optMs(a.timeLag), optMs(b.timeLag))
		case gcTrend:
			return -cmp.Compare(a.delta, b.delta)
		case gcETA:
			return compareETA(a.g.Time, b.g.Time)
		case gcLoss:
			return model.CompareLoss(a.g, b.g)
		case gcCommitTTL: // soonest first; never and unknown last
			return compareExpiry(a.g, b.g)
		}
		return 0
	}
	slices.SortStableFunc(order, func(i, j int) int {
		c := key(&rows[i], &rows[j])
		if reverse {
			c = -c
		}
		if c == 0 && col == gcStatus {
			return cmp.Compare(j, i)
		}
		return c
	})
	return order
}

// groupColumns is the groups table, left to right. drop is the written
// priority of what goes when the terminal is narrow (highest first; 0 never):
// GROUP and STATUS stay, then LOSS-IN (the urgency itself), LAG, TIME-LAG,
// STATE, EVAL, ETA, COMMIT-TTL, TREND, MEMBERS, PARTITIONS, TOPICS, TYPE, CONSUME. STATUS is as wide as its
// widest value and is never cut; GROUP takes what is left and is shortened in
// the middle. The time axis' columns (LOSS-IN, EVAL, ETA, CONSUME) are there
// only when timed: one snapshot alone shows no rates (but LOSS-IN shows a group losing now). To add a column: an id
// above, an entry here, its cell in groupCells.
// groupWant is the longest group name the table keeps whole by dropping columns:
// a longer one is shortened anyway, and nothing is dropped for it.
const groupWant = 32

// groupWanted is the GROUP column's want for the longest name, wName cells.
func groupWanted(wName int) int {
	if wName > groupWant {
		return 0
	}
	return wName
}

func groupColumns(rows []groupRow, timed bool) []column {
	var wName, wType, wState, wLag, wStatus int
	for i := range rows {
		g := rows[i].g
		wName = max(wName, ansi.StringWidth(g.Group))
		wType = max(wType, len(g.Type))
		wState = max(wState, len(g.State))
		wLag = max(wLag, ansi.StringWidth(lagCellText(g)))
		wStatus = max(wStatus, statusCountsWidth(g))
		if rows[i].loading {
			wStatus = max(wStatus, len("LOADING"))
		}
	}
	cols := []column{
		// A whole name tells groups apart: the descriptive columns (TYPE, TOPICS,
		// PARTITIONS, MEMBERS, TREND, CONSUME) give way before it is shortened.
		{id: gcGroup, title: "GROUP", width: max(textWidth("GROUP", 0, 0), min(wName, 20)), flex: true, maxW: max(14, min(wName, 60)), middle: true,
			want: groupWanted(wName), yieldFrom: 8},
		{id: gcType, title: "TYPE", width: textWidth("TYPE", wType, 10), drop: 12},
		{id: gcState, title: "STATE", width: textWidth("STATE", wState, 12), drop: 4},
		{id: gcMembers, title: "MEMBERS", width: textWidth("MEMBERS", 0, 0), right: true, drop: 9},
		{id: gcTopics, title: "TOPICS", width: textWidth("TOPICS", 0, 0), right: true, drop: 11},
		{id: gcPartitions, title: "PARTITIONS", width: textWidth("PARTITIONS", 0, 0), right: true, drop: 10},
		{id: gcLag, title: "LAG", width: textWidth("LAG", wLag, 0), right: true, drop: 2},
		{id: gcTimeLag, title: "TIME-LAG", width: textWidth("TIME-LAG", 0, 0), right: true, drop: 3},
		{id: gcStatus, title: "STATUS", width: textWidth("STATUS", wStatus, 0)},
		{id: gcTrend, title: "TREND", width: trendSpark + 2, drop: 8},
		{id: gcCommitTTL, title: "COMMIT-TTL", width: textWidth("COMMIT-TTL", 0, 0), right: true, drop: 7},
	}
	switch {
	case timed:
		cols = append(cols, timeColumns()...)
	case slices.ContainsFunc(rows, func(r groupRow) bool { return r.g.LosingNow }):
		// Losing now needs no rates (a live consumer behind the log start): its LOSS-IN
		// "now" shows from the first snapshot.
		cols = append(cols, lossColumn())
	}
	return cols
}

// statusCountsWidth is the plain width statusCounts needs for a group.
func statusCountsWidth(g *model.Group) int {
	return ansi.StringWidth(ansi.Strip(statusCounts(plainStyles, g, 1<<20)))
}

// plainStyles renders without escapes, for measuring.
var plainStyles = newStyles(true)

// groupCells returns the cells of one row.
func groupCells(st *styles, r *groupRow) []cell {
	g := r.g
	cells := make([]cell, gcCount)
	cells[gcGroup] = cell{text: g.Group}
	cells[gcType] = cell{text: text.OrDash(g.Type)}
	cells[gcState] = cell{text: text.OrDash(g.State)}
	cells[gcMembers] = cell{text: text.Thousands(len(g.Members))}
	if g.Members == nil { // not described: unknown, never 0
		cells[gcMembers] = cell{text: "?"}
	}
	if g.Committer != nil { // none, yet a client outside the group commits for it
		cells[gcMembers] = cell{text: "0+ext", style: &st.notice}
	}
	cells[gcTopics] = cell{text: text.Thousands(r.topics)}
	cells[gcPartitions] = cell{text: text.Thousands(len(g.Partitions))}
	lagStyle := st.lag(g.TotalLag)
	if g.TotalLag == nil {
		lagStyle = st.unknown // a lower bound, or nothing known: never a lag colour
	}
	cells[gcLag] = cell{text: lagCellText(g), style: &lagStyle}
	cells[gcTimeLag] = cell{text: text.HumanMs(r.timeLag)}
	if r.timeLag == nil && r.timeLagAny {
		cells[gcTimeLag] = cell{text: "?"} // not read yet: opening the group reads it
	}
	cells[gcStatus] = cell{fitted: func(w int) string { return statusCounts(st, g, w) }}
	trend := sparkline(r.lags, trendSpark) + " " + trendArrow(r.lags)
	cells[gcTrend] = cell{text: trend, style: &lagStyle}
	cells[gcCommitTTL] = cell{text: r.ttl}
	if g.CommitsExpiring() {
		cells[gcCommitTTL].style = &st.err
	}
	timeCells(st, g, cells)
	if r.loading {
		loadingCells(st, g, cells)
	}
	return cells
}

// loadingText marks a cell whose value is still being read; loadingNote says
// what is being read.
const (
	loadingText = "…"
	loadingNote = "groups listed; reading offsets and watermarks…"
)

// loadingCells marks what a listed group does not know yet: every number
// and the status read from offsets say so, never a zero or OK.
func loadingCells(st *styles, g *model.Group, cells []cell) {
	muted := st.muted
	for _, id := range []int{gcTopics, gcPartitions, gcLag, gcTimeLag, gcTrend, gcCommitTTL} {
		cells[id] = cell{text: loadingText, style: &muted}
	}
	if g.Error == nil {
		cells[gcStatus] = cell{text: "LOADING", style: &muted}
	}
}

// goneBadge is the status of a group that does not exist (model.Group.Gone).
const goneBadge = "GONE"

// trendSpark is how many refreshes the sparkline shows.
const trendSpark = 6

// statusCounts writes "EXPIRED 1  MISSING 2" worst first within w cells,
// dropping whole badges that do not fit (and saying so with …). OK is only
// listed when nothing is wrong. A group that could not be read says ERROR; one that
// does not exist (deleted since it was listed) GONE.
func statusCounts(st *styles, g *model.Group, w int) string {
	if g.Gone() {
		return st.muted.Render(goneBadge)
	}
	var parts []string
	if g.Error != nil {
		parts = append(parts, st.err.Render("ERROR "+string(g.Error.Kind)))
	}
	for _, sc := range g.Counts.Ordered() {
		if sc.Status == model.StatusOK && g.Error != nil {
			continue
		}
		parts = append(parts, st.status(sc.Status).Render(sc.Status.Badge()+" "+text.Thousands(sc.N)))
	}
	if n := notConsumed(g); n > 0 { // shown after the counts, outside them
		parts = append(parts, st.muted.Render(display.NotConsumedBadge+" "+text.Thousands(n)))
	}
	if len(parts) == 0 {
		return st.muted.Render("-")
	}
	out, used := "", 0
	for i, p := range parts {
		add := ansi.StringWidth(p)
		if i > 0 {
			add += 2
		}
		if used+add > w {
			if i == 0 {
				return truncate(p, w)
			}
			return out + " " + ellipsis
		}
		if i > 0 {
			out += "  "
		}
		out += p
		used += add
	}
	return out
}

// notConsumed counts the partitions of a group no member subscribes to.
func notConsumed(g *model.Group) int {
	if len(g.UnsubscribedTopics) == 0 {
		return 0
	}
	n := 0
	for i := range g.Partitions {
		if g.Partitions[i].NotConsumed() {
			n++
		}
	}
	return n
}

// lagCellText is the LAG cell: the total with thousands separators when it is
// whole, "≥ N" when only a lower bound is known, "?" when nothing is.
func lagCellText(g *model.Group) string {
	return display.FormatTotalLag(g, text.Thousands[int64], "?")
}

// compareExpiry orders groups whose commits the broker may delete soonest first; groups
// without a known time (never, unknown, no commits) last.
func compareExpiry(a, b *model.Group) int {
	switch ta, tb := a.CommitsExpireAt, b.CommitsExpireAt; {
	case ta == nil && tb == nil:
		return 0
	case ta == nil:
		return 1
	case tb == nil:
		return -1
	default:
		return ta.Compare(tb.Time)
	}
}
