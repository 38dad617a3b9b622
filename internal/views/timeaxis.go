package views

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/text"
)

// The time axis on screen (docs/timeaxis.md): rates, ETA, evaluation and time
// to loss come from the history the root keeps across refreshes; a snapshot
// without a window (the first one) shows none of their columns.

// evalStyle colours an evaluation like the status it is closest to.
func evalStyle(st *styles, ev model.Evaluation) lipgloss.Style {
	switch ev {
	case model.EvalOK:
		return st.ok
	case model.EvalWarn:
		return st.atRisk
	case model.EvalNone:
		return st.muted
	case model.EvalUnknown:
		return st.unknown
	}
	return st.expired // stalled, stopped, rewound: nobody is reading
}

// reportRequestedMsg asks the root to write the Markdown incident report of
// these groups (the group screen's one, or the list as filtered).
type reportRequestedMsg struct {
	from   int // the screen that asked: the flash is its
	groups []string
	// what names the report in the file name and the flash: a group or "groups".
	what string
}

// reportWrittenMsg says where the report went, or why it could not.
type reportWrittenMsg struct {
	from int
	path string
	n    int
	err  error
}

// reportSnapshot narrows s to the named groups and their topics, stamped with
// when their numbers were read (stampReport); the cluster, baseline and errors
// stay. readAt holds the groups read on their own since s was taken.
func reportSnapshot(s *model.Snapshot, groups []string, readAt map[string]time.Time) model.Snapshot {
	out := *s
	out.Groups = make([]model.Group, 0, len(groups))
	used, want := map[string]bool{}, make(map[string]bool, len(groups))
	for _, g := range groups {
		want[g] = true
	}
	for _, g := range s.Groups {
		if want[g.Group] {
			out.Groups = append(out.Groups, g)
			for _, t := range g.Topics() {
				used[t] = true
			}
		}
	}
	out.Topics = slices.DeleteFunc(slices.Clone(s.Topics), func(t model.Topic) bool { return !used[t.Topic] })
	stampReport(&out, readAt)
	return out
}

// stampReport makes a report say when its numbers were read, never when the
// screen was opened: a group read on its own (its screen is open) has its own
// time, so the report's taken time is the one its groups share, else the
// snapshot's with each later group's ReadAt; the rates' window is measured over
// the groups reported, each group's ending when it was read.
func stampReport(s *model.Snapshot, readAt map[string]time.Time) {
	times := map[time.Time]bool{}
	at := func(g *model.Group) time.Time {
		if t, ok := readAt[g.Group]; ok {
			return t
		}
		return s.Cluster.TakenAt.Time
	}
	for i := range s.Groups {
		times[at(&s.Groups[i])] = true
	}
	if len(times) == 1 {
		for t := range times {
			s.Cluster.TakenAt = model.Stamp{Time: t}
		}
	}
	s.Window = nil
	for i := range s.Groups {
		g := &s.Groups[i]
		t := at(g)
		if !t.Equal(s.Cluster.TakenAt.Time) {
			g.ReadAt = model.StampOf(t)
		}
		if g.Time == nil {
			continue
		}
		from := t.Add(-time.Duration(g.Time.WindowMs) * time.Millisecond)
		if s.Window == nil {
			s.Window = &model.Window{Samples: g.Time.Samples, From: model.Stamp{Time: from}, To: model.Stamp{Time: t}}
			continue
		}
		s.Window.Samples = max(s.Window.Samples, g.Time.Samples)
		if from.Before(s.Window.From.Time) {
			s.Window.From = model.Stamp{Time: from}
		}
		if t.After(s.Window.To.Time) {
			s.Window.To = model.Stamp{Time: t}
		}
	}
}

// reportPath is dir/offsettui-report-<what>-<UTC time>.md, with what made safe for any
// file system as a backup's name is (model.FileNamePart: cut, with a hash when changed).
func reportPath(dir, what string, at time.Time) string {
	what = model.FileNamePart(what, 60)
	return filepath.Join(dir, "offsettui-report-"+what+"-"+at.UTC().Format("20060102-150405")+".md")
}

// writeReportCmd renders and writes a report off the update loop. It takes
// everything as arguments: the snapshot is never mutated once sent.
func writeReportCmd(ctx context.Context, write ReportWriter, snap model.Snapshot, path string, from int) tea.Cmd {
	return func() tea.Msg {
		done := reportWrittenMsg{from: from, path: path, n: len(snap.Groups)}
		var b bytes.Buffer
		if done.err = write(&b, snap); done.err != nil {
			return done
		}
		if done.err = ctx.Err(); done.err != nil {
			return done
		}
		// O_EXCL: a report never overwrites a file, not even an earlier report.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			done.err = err
			return done
		}
		_, done.err = f.Write(b.Bytes())
		if cerr := f.Close(); done.err == nil {
			done.err = cerr
		}
		return done
	}
}

// reportFlash says where the report went, with its absolute path.
func reportFlash(msg reportWrittenMsg) string {
	path := msg.path
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if msg.err != nil {
		return fmt.Sprintf("report not written: %v", msg.err)
	}
	return fmt.Sprintf("report of %s written to %s", text.Plural(msg.n, "group"), path)
}

// timeCells fills the groups table's time-axis cells of a group: LOSS-IN says "now" for a
// group losing records now (model.Group.LosingNow).
func timeCells(st *styles, g *model.Group, cells []cell) {
	muted := st.muted
	for _, id := range []int{gcConsume, gcETA, gcEval, gcLoss} {
		cells[id] = cell{text: "-", style: &muted}
	}
	if g.LosingNow {
		cells[gcLoss] = cell{text: "now", style: &st.expired}
	}
	t := g.Time
	if t == nil {
		return
	}
	cells[gcConsume] = cell{text: display.RateText(t.ConsumeRate)}
	etaStyle := etaStyleOf(st, t.ETA)
	cells[gcETA] = cell{text: display.ETAText(t.ETA, t.ETAMs), style: &etaStyle}
	ev := evalStyle(st, t.Evaluation)
	cells[gcEval] = cell{text: t.Evaluation.Badge(), style: &ev}
	if t.Loss != nil && !g.LosingNow {
		cells[gcLoss] = cell{text: display.LossInMs(t.Loss.InMs), style: &st.expired}
	}
}

// etaStyleOf colours an ETA: caught up or catching up is fine, never is a
// warning, standing still or rewound is the worst.
func etaStyleOf(st *styles, e model.ETAState) lipgloss.Style {
	switch e {
	case model.ETACaughtUp, model.ETACatchingUp:
		return st.ok
	case model.ETANever:
		return st.atRisk
	case model.ETANone:
		return st.muted
	}
	return st.expired
}

// compareETA orders worst first: rewound, stalled, stopped, never, then the
// longest ETA, then caught up; no ETA last.
func compareETA(a, b *model.GroupTime) int {
	ea, eb := model.ETANone, model.ETANone
	var ma, mb int64
	if a != nil {
		ea, ma = a.ETA, a.ETAMs.V
	}
	if b != nil {
		eb, mb = b.ETA, b.ETAMs.V
	}
	if ea != eb {
		return -cmp.Compare(ea, eb)
	}
	return -cmp.Compare(ma, mb)
}

// timeColumns are the groups table's time-axis columns (their drop
// priorities are listed with groupColumns).
func timeColumns() []column {
	return []column{
		{id: gcConsume, title: "CONSUME", width: textWidth("CONSUME", len("999/s"), 0), right: true, drop: 13},
		{id: gcETA, title: "ETA", width: textWidth("ETA", len("caught up"), 0), drop: 6},
		{id: gcEval, title: "EVAL", width: textWidth("EVAL", len("STALLED"), 0), drop: 5},
		lossColumn(),
	}
}

// lossColumn is the groups table's LOSS-IN: the soonest partition's deadline, or "now".
func lossColumn() column {
	return column{id: gcLoss, title: "LOSS-IN", width: textWidth("LOSS-IN", len("23h59m"), 0), right: true, drop: 1}
}

// lossLines is the room of the time-to-loss sentence: its end (the rate
// that avoids the loss) still fits at 80 columns.
const lossLines = 3

// sparkKeep is how many samples the partitions' TREND sparkline shows.
const sparkKeep = 8

// partitionTimeColumns are the group screen's time-axis columns (their drop
// priorities are listed with partitionColumns).
func partitionTimeColumns() []column {
	return []column{
		{id: pcConsume, title: "CONSUME", width: textWidth("CONSUME", len("999/s"), 0), right: true, drop: 12},
		{id: pcETA, title: "ETA", width: textWidth("ETA", len("caught up"), 0), drop: 7},
		{id: pcEval, title: "EVAL", width: textWidth("EVAL", len("STALLED"), 0), drop: 6},
		{id: pcSpark, title: "TREND", width: sparkKeep, drop: 9},
	}
}

// partitionTimeCells fills a partition's time-axis cells; lags is its lag
// history for the sparkline. LOSS-IN is its deadline at the measured rates
// (model.GroupPartition.Deadline), "now" where the group is losing it now.
func partitionTimeCells(st *styles, g *model.Group, p *model.GroupPartition, lags []int64, cells []cell) {
	muted := st.muted
	for _, id := range []int{pcConsume, pcETA, pcEval, pcLoss} {
		cells[id] = cell{text: "-", style: &muted}
	}
	cells[pcSpark] = cell{text: sparkline(lags, sparkKeep)}
	if g != nil {
		if t := display.LossIn(g, p); t != "-" {
			cells[pcLoss] = cell{text: t, style: &st.expired}
		}
	}
	pt := p.Time
	if pt == nil {
		return
	}
	cells[pcConsume] = cell{text: display.RateText(pt.ConsumeRate)}
	etaStyle := etaStyleOf(st, pt.ETA)
	cells[pcETA] = cell{text: display.ETAText(pt.ETA, pt.ETAMs), style: &etaStyle}
	ev := evalStyle(st, pt.Evaluation)
	cells[pcEval] = cell{text: pt.Evaluation.Badge(), style: &ev}
}

// timeLines are the group screen's time-axis lines above the table: the headline — the
// records being lost now (model.Group.LosingNow), else the time-to-loss sentence, wrapped on
// lossLines lines at most, one on a compact screen — and a summary of the group's
// evaluation, ETA and rates (not on a compact screen).
func timeLines(st *styles, g *model.Group, width int, compact bool) (loss []string, summary string) {
	room := lossLines
	if compact {
		room = 1 // a short screen keeps its rows: the sentence is cut, the summary left out
	}
	if h := display.LosingText(g); h != "" {
		loss = wrapLines(st.expired.Render("LOSING NOW")+"  "+h, width, "", room)
		room = 0
	}
	t := g.Time
	if t == nil {
		return loss, ""
	}
	if t.Loss != nil && room > 0 {
		sentence := t.Loss.Sentence
		if compact { // one line: the time and the rate that avoids the loss first (w writes the whole sentence)
			sentence = timeaxis.LossHeadline(*t.Loss)
		}
		loss = wrapLines(st.expired.Render("TIME TO LOSS")+"  "+sentence, width, "", room)
	}
	if compact {
		return loss, ""
	}
	ev := evalStyle(st, t.Evaluation)
	sep := st.muted.Render(" · ")
	return loss, strings.Join([]string{
		ev.Render(t.Evaluation.Badge()),
		"ETA " + display.ETAText(t.ETA, t.ETAMs),
		"consume " + display.RateText(t.ConsumeRate),
		"produce " + display.RateText(t.ProduceRate),
		"lag " + display.TrendText(t.LagRate),
		st.muted.Render("over " + text.HumanMs(&t.WindowMs) + ", " + text.Plural(t.Samples, "snapshot")),
	}, sep)
}
