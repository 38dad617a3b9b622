package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/text"
)

// Markdown writes the incident report (describe -o markdown): the cluster and
// the time, the groups with problems first, most urgent first (model.Urgency),
// with their rows, their evaluation and the time-to-loss sentence, then one line
// per group without problems, then the errors. It streams through a buffer, group by group.
func Markdown(w io.Writer, s model.Snapshot) error {
	bw := bufio.NewWriter(w)
	var problems, fine []int
	for _, i := range model.UrgencyOrder(s.Groups) {
		if s.Groups[i].HasProblem() {
			problems = append(problems, i)
		} else {
			fine = append(fine, i)
		}
	}
	markdownHeader(bw, s, len(problems))
	if len(problems) > 0 {
		fmt.Fprint(bw, "\n## Groups with problems\n")
		for _, i := range problems {
			markdownGroup(bw, &s.Groups[i], s.Cluster, s.Window != nil, s.Baseline != nil)
		}
	}
	if len(fine) > 0 {
		fmt.Fprint(bw, "\n## Groups with nothing to act on now\n\nIdle groups (no members) whose partitions are all ok are here whatever their lag or evaluation: nobody consumes, and nothing is being lost.\n\n| group | state | members | lag | ETA | evaluation | commit TTL |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, i := range fine {
			g := &s.Groups[i]
			eta, ev := "-", "-"
			if t := g.Time; t != nil {
				eta, ev = display.ETAText(t.ETA, t.ETAMs), t.Evaluation.Badge()
			}
			members := fmt.Sprint(len(g.Members))
			if c := g.Committer; c != nil {
				members += " + a committer outside the group: " + cell(plan.CommitterText(c))
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %s |\n", cell(code(g.Group)), cell(g.State), members, TotalLagText(g), eta, ev,
				display.CommitTTL(g, s.Cluster.TakenAt.Time))
		}
	}
	if b := s.Baseline; b != nil && len(b.GoneGroups) > 0 {
		fmt.Fprintf(bw, "\nGone since the baseline: %s\n", codes(b.GoneGroups))
	}
	if len(s.Errors) > 0 {
		fmt.Fprint(bw, "\n## Errors\n\n")
		for _, e := range s.Errors {
			fmt.Fprintf(bw, "- %s\n", e.Error())
		}
	}
	return bw.Flush()
}

func markdownHeader(w io.Writer, s model.Snapshot, problems int) {
	fmt.Fprintf(w, "# offsettui report: %s\n\n| | |\n| --- | --- |\n", code(s.Cluster.Bootstrap))
	fmt.Fprintf(w, "| cluster | %s, %d brokers |\n", cell(code(s.Cluster.Bootstrap)), s.Cluster.Brokers)
	fmt.Fprintf(w, "| taken | %s |\n", s.Cluster.TakenAt.UTC().Format(model.StampLayout))
	if later := readLater(s.Groups); later != "" {
		fmt.Fprintf(w, "| read later | %s |\n", cell(later))
	}
	if win := s.Window; win != nil {
		fmt.Fprintf(w, "| rates | over %s (%s from %s) |\n", text.HumanDuration(win.To.Sub(win.From.Time)),
			WindowCount(win), win.From.UTC().Format(model.StampLayout))
	} else {
		fmt.Fprint(w, "| rates | none: one snapshot (describe --sample 30s measures them) |\n")
	}
	if b := s.Baseline; b != nil {
		fmt.Fprintf(w, "| baseline | %s, taken %s (%s earlier) of %s |\n", cell(code(b.File)), b.TakenAt.UTC().Format(model.StampLayout),
			text.HumanDuration(s.Cluster.TakenAt.Sub(b.TakenAt.Time)), cell(code(b.Bootstrap)))
	}
	fmt.Fprintf(w, "| groups | %d, %d with problems |\n", len(s.Groups), problems)
	if v := s.Cluster.AllTopicsVisible; v == nil || !*v {
		fmt.Fprintf(w, "\n> %s\n", HiddenTopicsNote(s))
	}
}

func markdownGroup(w io.Writer, g *model.Group, cl model.Cluster, timed, based bool) {
	at := cl.TakenAt.Time
	if g.Error.IsGroupNotFound() {
		fmt.Fprintf(w, "\n### %s: does not exist\n\n%s.\n", code(g.Group), strings.ToUpper(notFoundWhy[:1])+notFoundWhy[1:])
		return
	}
	fmt.Fprintf(w, "\n### %s: %s, %s, %s\n\n", code(g.Group), g.Type, g.State, text.Plural(len(g.Members), "member"))
	if h := timeaxis.LosingHeadline(g); h != "" {
		fmt.Fprintf(w, "> **Losing now:** %s\n\n", strings.TrimPrefix(h, "LOSING NOW: "))
	}
	if l := g.PredictedLoss(); l != nil {
		fmt.Fprintf(w, "> **Time to loss:** %s\n\n", l.Sentence)
	}
	status := "OK"
	if c := countsText(g.Counts); c != "" {
		status = c
	}
	lag := "total lag " + TotalLagText(g)
	if g.NoCommit() {
		lag = "no commit"
	}
	fmt.Fprintf(w, "- status: %s; %s\n", status, lag)
	if t := g.Time; t != nil {
		fmt.Fprintf(w, "- evaluation: %s; ETA %s; consume %s, produce %s, lag %s\n", t.Evaluation.Badge(), display.ETAText(t.ETA, t.ETAMs),
			display.RateText(t.ConsumeRate), display.RateText(t.ProduceRate), display.TrendText(t.LagRate))
	}
	if ch := g.Change; ch != nil {
		fmt.Fprintf(w, "- %s\n", changeText(ch, *g))
		if len(ch.GonePartitions) > 0 {
			fmt.Fprintf(w, "- gone since the baseline: %s\n", partitionList(ch.GonePartitions))
		}
	}
	if c := display.CommitExpiryText(g, at); c != "" {
		fmt.Fprintf(w, "- %s%s\n", commitsLabel(g), cell(c))
	}
	if c := g.Committer; c != nil {
		fmt.Fprintf(w, "- committer: %s\n", cell(CommitterLine(c)))
	}
	for _, line := range typeLines(*g) {
		fmt.Fprintf(w, "- %s\n", cell(line))
	}
	if t := display.NotConsumedText(g, cl.OffsetsRetentionMinutes); t != "" {
		fmt.Fprintf(w, "- not consumed: %s\n", cell(t))
	}
	if g.Error != nil {
		fmt.Fprintf(w, "- error: %s\n", g.Error.Error())
	}
	if len(g.Partitions) == 0 {
		fmt.Fprintf(w, "\n%s.\n", NoPartitionsText(*g, cl.AllTopicsVisible))
		return
	}
	markdownRows(w, g, at, timed, based)
}

func markdownRows(w io.Writer, g *model.Group, at time.Time, timed, based bool) {
	// The group's position: the committed offset, or a share group's start offset.
	position := strings.ToLower(strings.ReplaceAll(display.PositionColumn(g.Type), "-", " "))
	head := []string{"topic", "partition", "low", position, "high", "lag", "status", "time lag", "expires in", "commit TTL"}
	if timed {
		head = append(head, "consume", "produce", "lag/s", "ETA", "evaluation")
	}
	if based {
		head = append(head, position+" Δ", "lag Δ", "was")
	}
	head = append(head, "member")
	fmt.Fprintf(w, "\n| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for _, p := range g.Partitions {
		cells := []string{cell(code(p.Topic)), fmt.Sprint(p.Partition), text.Num(p.Low), text.Num(p.Position()), text.Num(p.High),
			text.Num(p.Lag), PartitionStatusText(&p), text.HumanMs(p.TimeLagMs), display.ExpiresCell(p.ExpiresInMs),
			text.OrDash(display.PartitionCommitTTL(g, &p, at))}
		if timed {
			cells = append(cells, timeCells(p.Time)...)
		}
		if based {
			cells = append(cells, changeCells(p.Change(), p.Status)...)
		}
		member := "-"
		if p.Member != nil {
			member = cell(p.Member.ClientID + " " + p.Member.Host)
		}
		fmt.Fprintf(w, "| %s | %s |\n", strings.Join(cells, " | "), member)
	}
	sep := "\n"
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.Error != nil {
			fmt.Fprintf(w, "%s- %s-%d: %s\n", sep, p.Topic, p.Partition, p.Error.Error())
			sep = ""
		}
		for _, line := range []string{display.TieredLine(p), display.CompactionLine(p)} {
			if line != "" {
				fmt.Fprintf(w, "%s- %s-%d: %s\n", sep, p.Topic, p.Partition, line)
				sep = ""
			}
		}
	}
}

// code renders a name as inline code that survives any character in it,
// backticks included; inside a table row, pass it through cell too.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.NewReplacer("\n", " ", "\r", " ").Replace(s) + pad + fence
}

func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}

// cell escapes what would break a Markdown table row.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// readLater names the groups read after the snapshot's time, with when (the TUI
// reads an open group on its own), or "".
func readLater(gs []model.Group) string {
	var parts []string
	for i := range gs {
		if at := gs[i].ReadAt; at != nil {
			parts = append(parts, code(gs[i].Group)+" at "+at.UTC().Format(model.StampLayout))
		}
	}
	return strings.Join(parts, ", ")
}
