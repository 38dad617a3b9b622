package views

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// infoLines describe the group above the table, most important first (a
// narrow terminal cuts the ends of lines): what the group is, its totals and
// the filter, the Empty-group warning, members, errors, marks.
func (s *groupScreen) infoLines() []string {
	st := s.c.styles
	if s.g == nil {
		return []string{st.err.Render("group " + s.name + " is not in the latest snapshot (deleted, or not readable); esc goes back")}
	}
	g := s.g
	lines := []string{groupHeadline(st, g)}
	// The loss happening now, else the time-to-loss sentence, is the headline when it
	// applies (docs/timeaxis.md), then the totals, then the group's rates and ETA.
	loss, summary := timeLines(st, g, s.width, s.compact())
	lines = append(append(lines, loss...), s.totalsLine())
	if summary != "" {
		lines = append(lines, summary)
	}
	lines = append(lines, s.warningLines()...)
	lines = append(lines, typeInfo(st, g)...)
	lines = append(lines, memberLines(st, g)...)
	switch {
	case g.Gone():
		lines = append(lines, st.muted.Render(goneBadge)+"  "+g.Error.Message)
	case g.Error != nil:
		lines = append(lines, st.err.Render("ERROR  "+g.Error.Error()+"; "+TryNext(g.Error.Kind)))
	}
	if len(s.marked) > 0 {
		lines = append(lines, st.section.Render(markGlyph+" "+text.Plural(len(s.marked), "partition")+" marked")+
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

// groupHeadline says what the group is: its name, type, state, members,
// coordinator and protocol.
func groupHeadline(st *styles, g *model.Group) string {
	protocol := text.OrDash(g.ProtocolType)
	if g.ProtocolType == "" {
		protocol = "none (offsets only)"
	}
	if g.Protocol != "" {
		protocol += " / " + g.Protocol
	}
	return strings.Join([]string{
		st.title.Render(g.Group),
		text.OrDash(g.Type),
		display.StateText(g),
		display.MembersText(g),
		"coordinator " + fmt.Sprint(g.Coordinator),
		"protocol " + protocol,
	}, st.muted.Render(" · "))
}

// warningLines are the group's labelled warnings: its commits' expiry, topics no
// member consumes, a committer from outside the group, deletes it may have missed.
func (s *groupScreen) warningLines() []string {
	st := s.c.styles
	g := s.g
	var lines []string
	if c := display.CommitExpiryText(g, s.takenAt); c != "" {
		label := st.muted.Render("COMMITS")
		if g.CommitsExpiring() {
			label = st.err.Render("COMMITS EXPIRING")
		}
		lines = append(lines, label+"  "+c)
	}
	if t := display.NotConsumedText(g, s.retentionMinutes); t != "" {
		lines = append(lines, st.notice.Render("NOT CONSUMED")+"  "+t)
	}
	if c := g.Committer; c != nil {
		lines = append(lines, st.notice.Render("COMMITTER")+"  a client outside the group commits for it: "+plan.CommitterText(c)+
			st.muted.Render(" · resets refused while it runs"))
	}
	if n := g.MayMissDeletes(); n > 0 {
		lines = append(lines, st.notice.Render("DELETES")+"  "+text.Plural(n, "partition")+" of compacted topics: "+missedDeletesLead(g)+
			st.muted.Render(" · the row's detail says why"))
	}
	return lines
}

// memberLines list the group's members with their hosts and assignments, the
// first maxMemberLines of them when there are more.
func memberLines(st *styles, g *model.Group) []string {
	var lines []string
	for i, m := range g.Members {
		if i == maxMemberLines && len(g.Members) > maxMemberLines+1 {
			lines = append(lines, st.muted.Render("  … "+text.Plural(len(g.Members)-i, "more member")))
			break
		}
		host := strings.TrimPrefix(m.Host, "/")
		line := "  member " + m.Name() + st.muted.Render(" on "+text.OrDash(host)+"  ") + assignmentText(m.Assignments)
		if m.Tasks != nil {
			line += st.muted.Render("  tasks " + text.OrDash(display.TasksText(m.Tasks)))
		}
		if r := display.RestoreText(&m); r != "" {
			line += "  " + r
		}
		lines = append(lines, line)
	}
	return lines
}

// typeInfo is what a group's type adds to its description: a share group's
// share.auto.offset.reset and that its start offsets never expire; a streams
// group's restore and topology.
func typeInfo(st *styles, g *model.Group) []string {
	switch g.Type {
	case model.TypeShare:
		reset := "unknown (could not be read)"
		if g.ShareAutoOffsetReset != nil {
			reset = *g.ShareAutoOffsetReset
		}
		return []string{st.section.Render("SHARE") + "  share.auto.offset.reset=" + reset +
			st.muted.Render(" (group config) · start offsets never expire · lag is the broker's")}
	case model.TypeStreams:
		if g.Topology == nil {
			return []string{st.section.Render("STREAMS") + st.muted.Render("  no topology reported")}
		}
		var out []string
		if r := display.GroupRestoreText(g); r != "" {
			out = append(out, st.notice.Render("RESTORING")+"  "+r)
		}
		for _, sub := range g.Topology.Subtopologies {
			reads := append(append([]string{}, sub.SourceTopics...), sub.RepartitionSourceTopics...)
			out = append(out, st.section.Render("STREAMS")+fmt.Sprintf("  subtopology %s reads %s", sub.ID, text.OrDash(strings.Join(reads, ", ")))+
				st.muted.Render(fmt.Sprintf(" (topology epoch %d)", g.Topology.Epoch)))
		}
		return out
	case model.TypeUnknown:
		return []string{st.err.Render("UNKNOWN TYPE") + "  offsettui does not know this group type: not described, not reset"}
	}
	return nil
}

// totalsLine sums the group up: partitions (and how many the filter shows),
// total lag, the count of each status; then the filter and the sort.
func (s *groupScreen) totalsLine() string {
	st := s.c.styles
	g := s.g
	var parts []string
	switch {
	case s.input.Focused():
		parts = append(parts, s.input.View())
	case s.filter.text != "":
		parts = append(parts, st.prompt.Render("/"+s.filter.text))
	}
	if s.problemsOnly {
		parts = append(parts, st.notice.Render("PROBLEMS ONLY"))
	}
	if s.loading {
		return strings.Join(append(parts, st.muted.Render(loadingNote)), st.muted.Render(" · "))
	}
	n := text.Plural(len(g.Partitions), "partition")
	if len(s.visible) != len(g.Partitions) {
		n = text.Thousands(len(s.visible)) + " of " + n
	}
	lag := "total lag " + display.FormatTotalLag(g, text.Thousands[int64], "unknown")
	if g.NoCommit() {
		lag = "no commit"
	}
	parts = append(parts, st.title.Render(n), lag)
	var counts []string
	for _, status := range model.AllStatuses {
		if c := g.Counts[status]; c > 0 {
			counts = append(counts, st.status(status).Render(status.Badge()+" "+text.Thousands(c)))
		}
	}
	if len(counts) > 0 {
		parts = append(parts, strings.Join(counts, "  "))
	}
	if h := hiddenNote(s.cols); h != "" {
		parts = append(parts, st.notice.Render(h))
	}
	parts = append(parts, "sort: "+partitionSortNames[s.sortCol]+reversed(s.reverse))
	return strings.Join(parts, st.muted.Render(" · "))
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

// missedDeletesLead names the first partition that may have missed deletes.
func missedDeletesLead(g *model.Group) string {
	for i := range g.Partitions {
		if p := &g.Partitions[i]; p.Compaction() != nil && p.Compaction().MayMissDeletes {
			return p.TP().String() + " " + display.MissedDeletesText(p)
		}
	}
	return ""
}
