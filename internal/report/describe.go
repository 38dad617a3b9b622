// Package report renders offsettui's command output as plain-text tables and
// Markdown: the forms that are read in a terminal and pasted into incident
// tickets. It is pure: model values in, text out.
package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// DescribeFit writes a snapshot the way kafka-consumer-groups --describe does, plus
// LOW, STATUS, TIME-LAG, EXPIRES-IN and COMMIT-TTL, one block per group, worst groups
// first.
// A snapshot with a time axis (docs/timeaxis.md) adds CONSUME, PRODUCE, LAG/S,
// ETA and EVALUATION, and one with a baseline adds what changed since.
// The columns are aligned per group, so each group's block leaves (through a
// buffer) as soon as it is written, before the next group is rendered.
// A width above 0 fits each group's rows to width runes, for a terminal that shows the
// table in place (describe --watch): columns are hidden by a written priority and long
// values shortened (fit.go), a header that lost columns ends in "…", and the last line
// names the columns hidden.
func DescribeFit(w io.Writer, s model.Snapshot, width int) error {
	tw := bufio.NewWriterSize(w, outputBuffer)
	fmt.Fprintln(tw, clusterLine(s))
	if h := display.CapabilitiesHeading(s.Cluster); h != "" {
		fmt.Fprintln(tw, h)
		for _, l := range display.CapabilityLines(s.Cluster) {
			fmt.Fprintf(tw, "  %s\n", l)
		}
	}
	if v := s.Cluster.AllTopicsVisible; v == nil || !*v {
		fmt.Fprintf(tw, "%s\n", HiddenTopicsNote(s))
	}
	if len(s.Groups) == 0 {
		fmt.Fprintln(tw, "\nno groups matched")
	}
	hidden := describeGroups(tw, s, width)
	if b := s.Baseline; b != nil && len(b.GoneGroups) > 0 {
		fmt.Fprintf(tw, "\ngone since the baseline: %s\n", strings.Join(b.GoneGroups, ", "))
	}
	sep := "\n"
	for i := range s.Topics {
		for _, line := range []string{display.NeverDeletedLine(&s.Topics[i]), display.LocalRetentionText(&s.Topics[i])} {
			if line != "" {
				fmt.Fprintf(tw, "%stopic %s: %s\n", sep, s.Topics[i].Topic, line)
				sep = ""
			}
		}
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(tw, "\n%s (items above marked UNKNOWN could not be read):\n", text.Plural(len(s.Errors), "error"))
		for _, e := range s.Errors {
			fmt.Fprintf(tw, "  %s\n", e.Error())
		}
	}
	if len(hidden) > 0 {
		fmt.Fprintf(tw, "\n%s hidden to fit %d columns (…): %s; a wider terminal shows them\n",
			text.Plural(len(hidden), "column"), width, strings.Join(hidden, ", "))
	}
	return tw.Flush() // a bufio.Writer keeps its first error and returns it here
}

// describeGroups writes each group's block, its rows fitted to width (0: whole), and
// returns the titles of the columns hidden in any; many groups are written in chunks on
// every core (inChunks).
func describeGroups(tw *bufio.Writer, s model.Snapshot, width int) []string {
	timed, based := s.Window != nil, s.Baseline != nil
	var (
		mu     sync.Mutex
		hidden []string
	)
	note := func(titles []string) {
		mu.Lock()
		defer mu.Unlock()
		for _, t := range titles {
			if !slices.Contains(hidden, t) {
				hidden = append(hidden, t)
			}
		}
	}
	if len(s.Groups) < 2*groupChunk {
		var rows aligned
		for i := range s.Groups {
			note(describeGroup(tw, &rows, &s.Groups[i], s.Cluster, timed, based, width))
		}
		return hidden
	}
	_ = inChunks(len(s.Groups), func(buf *bytes.Buffer, from, to int) error {
		var rows aligned
		for i := from; i < to; i++ {
			note(describeGroup(buf, &rows, &s.Groups[i], s.Cluster, timed, based, width))
		}
		return nil
	}, func(b []byte) error {
		_, err := tw.Write(b)
		return err // a bufio.Writer keeps its first error: DescribeFit's Flush returns it
	})
	return hidden
}

// clusterLine is the first line: the cluster, when, and over which window.
func clusterLine(s model.Snapshot) string {
	line := fmt.Sprintf("cluster %s · %s · taken %s · %s", s.Cluster.Bootstrap, text.Plural(s.Cluster.Brokers, "broker"),
		s.Cluster.TakenAt.UTC().Format(model.StampLayout), text.Plural(len(s.Groups), "group"))
	if v := s.Cluster.KafkaVersion; v != nil {
		line += " · Kafka " + *v
	}
	if w := s.Window; w != nil {
		line += fmt.Sprintf(" · rates over %s (%s)", text.HumanDuration(w.To.Sub(w.From.Time)), WindowCount(w))
	}
	if b := s.Baseline; b != nil {
		line += fmt.Sprintf(" · baseline %s taken %s (%s earlier)", b.File, b.TakenAt.UTC().Format(model.StampLayout),
			text.HumanDuration(s.Cluster.TakenAt.Sub(b.TakenAt.Time)))
		if b.Bootstrap != s.Cluster.Bootstrap {
			line += " of " + b.Bootstrap
		}
	}
	return line
}

// notFoundWhy says why a group named with --group is said not to exist.
const notFoundWhy = "no broker lists it, and it has no committed offsets"

// describeGroup writes one group's heading, its rows (fitted to width, 0: whole) and its
// errors, and returns the titles of the columns the width hid.
func describeGroup(tw sink, rows *aligned, g *model.Group, cl model.Cluster, timed, based bool, width int) (hidden []string) {
	fmt.Fprintf(tw, "\n%s\n", groupHeading(*g))
	if g.Error.IsGroupNotFound() {
		return nil // the heading says it all; the errors at the end name it again
	}
	describeNotes(tw, g, cl)
	if len(g.Partitions) == 0 {
		fmt.Fprintln(tw, "  "+NoPartitionsText(*g, cl.AllTopicsVisible))
		return nil
	}
	head := describeHead(g.Type, timed, based)
	rows.start(len(head))
	for _, h := range head {
		rows.add(h)
	}
	for i := range g.Partitions {
		addDescribeRow(rows, g, &g.Partitions[i], cl.TakenAt.Time, timed, based)
	}
	hidden = rows.fit(head, width)
	_ = rows.writeTo(tw) // an error stays in tw
	describePartitionNotes(tw, g)
	return hidden
}

// describeNotes are the labelled lines under a group's heading: its error, the loss
// now or to come, a committer from outside it, partitions gone since the baseline,
// what its type adds, its commits' expiry and topics no member consumes.
func describeNotes(tw sink, g *model.Group, cl model.Cluster) {
	if g.Error != nil {
		fmt.Fprintf(tw, "  error: %s\n", g.Error.Error())
	}
	if h := display.LosingText(g); h != "" {
		fmt.Fprintf(tw, "  LOSING NOW: %s\n", h)
	}
	if g.Time != nil && g.Time.Loss != nil {
		fmt.Fprintf(tw, "  LOSS: %s\n", g.Time.Loss.Sentence)
	}
	if c := g.Committer; c != nil {
		fmt.Fprintf(tw, "  COMMITTER: %s\n", CommitterLine(c))
	}
	if g.Change != nil && len(g.Change.GonePartitions) > 0 {
		fmt.Fprintf(tw, "  gone since the baseline: %s\n", partitionList(g.Change.GonePartitions))
	}
	for _, line := range typeLines(*g) {
		fmt.Fprintf(tw, "  %s\n", line)
	}
	if c := display.CommitExpiryText(g, cl.TakenAt.Time); c != "" {
		fmt.Fprintf(tw, "  %s%s\n", commitsLabel(g), c)
	}
	if t := display.NotConsumedText(g, cl.OffsetsRetentionMinutes); t != "" {
		fmt.Fprintf(tw, "  NOT CONSUMED: %s\n", t)
	}
}

// describeHead is the partition table's column titles for a group of type typ:
// the time axis' columns when timed, the baseline's when based.
func describeHead(typ string, timed, based bool) []string {
	head := []string{"GROUP", "TOPIC", "PARTITION", "LOW", display.PositionColumn(typ), "LOG-END-OFFSET", "LAG", "STATUS", "TIME-LAG", "EXPIRES-IN", "COMMIT-TTL"}
	if timed {
		head = append(head, "LOSS-IN", "CONSUME", "PRODUCE", "LAG/S", "ETA", "EVALUATION")
	}
	if based {
		head = append(head, "COMMITTED-Δ", "LAG-Δ", "WAS")
	}
	return append(head, "CONSUMER-ID", "HOST", "CLIENT-ID")
}

// addDescribeRow adds partition p's row, in describeHead's columns.
func addDescribeRow(rows *aligned, g *model.Group, p *model.GroupPartition, at time.Time, timed, based bool) {
	rows.add(g.Group)
	rows.add(p.Topic)
	rows.text = strconv.AppendInt(rows.text, int64(p.Partition), 10)
	rows.endCell()
	rows.num(p.Low)
	rows.num(p.Position())
	rows.num(p.High)
	rows.num(p.Lag)
	rows.add(PartitionStatusText(p))
	rows.add(text.HumanMs(p.TimeLagMs))
	rows.add(display.ExpiresCell(p.ExpiresInMs))
	rows.add(text.OrDash(display.PartitionCommitTTL(g, p, at)))
	if timed {
		rows.add(display.LossIn(g, p))
		rows.addAll(timeCells(p.Time))
	}
	if based {
		rows.addAll(changeCells(p.Change(), p.Status))
	}
	if m := p.Member; m != nil {
		rows.addAll([]string{m.MemberID, m.Host, m.ClientID})
	} else {
		rows.addAll([]string{"-", "-", "-"})
	}
}

// describePartitionNotes are the lines under the table about single partitions: their
// errors, and what tiered storage or compaction means for them.
func describePartitionNotes(tw sink, g *model.Group) {
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.Error != nil {
			fmt.Fprintf(tw, "  %s-%d: %s\n", p.Topic, p.Partition, p.Error.Error())
		}
		for _, line := range []string{display.TieredLine(p), display.CompactionLine(p)} {
			if line != "" {
				fmt.Fprintf(tw, "  %s-%d: %s\n", p.Topic, p.Partition, line)
			}
		}
	}
}

// timeCells are CONSUME, PRODUCE, LAG/S, ETA and EVALUATION.
func timeCells(pt *model.PartitionTime) []string {
	if pt == nil {
		return []string{"-", "-", "-", "-", "-"}
	}
	return []string{display.RateText(pt.ConsumeRate), display.RateText(pt.ProduceRate), display.TrendText(pt.LagRate),
		display.ETAText(pt.ETA, pt.ETAMs), pt.Evaluation.Badge()}
}

// changeCells are COMMITTED-Δ, LAG-Δ and WAS (the status at the baseline when
// it differs, "new" for a partition the baseline did not have).
func changeCells(ch *model.PartitionChange, now model.Status) []string {
	if ch == nil {
		return []string{"-", "-", "-"}
	}
	if ch.New {
		return []string{"-", "-", "new"}
	}
	was := "-"
	if ch.StatusWas != nil && *ch.StatusWas != now {
		was = ch.StatusWas.Badge()
	}
	return []string{SignedNum(ch.CommittedBy), SignedNum(ch.LagBy), was}
}

func groupHeading(g model.Group) string {
	if g.Error.IsGroupNotFound() { // no type, no state: nothing of it exists
		return fmt.Sprintf("Group '%s' does not exist: %s", g.Group, notFoundWhy)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s '%s' · %s · %s · %s", display.Noun(g.Type), g.Group, g.Type, display.StateText(&g), display.MembersText(&g))
	switch l := TotalLagText(&g); {
	case g.NoCommit():
		b.WriteString(" · no commit")
	case l != "0":
		b.WriteString(" · lag " + l)
	}
	if c := countsText(g.Counts); c != "" {
		b.WriteString(" · " + c)
	}
	if t := g.Time; t != nil {
		fmt.Fprintf(&b, " · consume %s · produce %s · ETA %s · %s", display.RateText(t.ConsumeRate), display.RateText(t.ProduceRate),
			display.ETAText(t.ETA, t.ETAMs), t.Evaluation.Badge())
	}
	if ch := g.Change; ch != nil {
		b.WriteString(" · " + changeText(ch, g))
	}
	return b.String()
}

// typeLines says what a group's type adds: a share group's reset config and that its start
// offsets never expire; a streams group's topology, its restore and each member's tasks.
func typeLines(g model.Group) []string {
	var out []string
	switch g.Type {
	case model.TypeShare:
		reset := "unknown (could not be read; see the errors)"
		if g.ShareAutoOffsetReset != nil {
			reset = *g.ShareAutoOffsetReset
		}
		out = append(out, "share.auto.offset.reset="+reset+" (a group config on the broker: where a partition without a start offset begins); share-group start offsets do not expire")
	case model.TypeStreams:
		if g.Topology == nil {
			out = append(out, "topology: none reported")
			break
		}
		if r := display.GroupRestoreText(&g); r != "" {
			out = append(out, "RESTORING: "+r)
		}
		for _, st := range g.Topology.Subtopologies {
			out = append(out, fmt.Sprintf("subtopology %s (topology epoch %d): reads %s", st.ID, g.Topology.Epoch,
				text.OrDash(strings.Join(append(append([]string{}, st.SourceTopics...), st.RepartitionSourceTopics...), ","))))
		}
		for i := range g.Members {
			m := &g.Members[i]
			line := fmt.Sprintf("member %s process %s: %s", m.MemberID, text.OrDash(model.Deref(m.ProcessID)), text.OrDash(display.TasksText(m.Tasks)))
			if r := display.RestoreText(m); r != "" {
				line += " · " + r
			}
			out = append(out, line)
		}
	}
	return out
}

// changeText says what changed in a group since the baseline.
func changeText(ch *model.GroupChange, g model.Group) string {
	if ch.New {
		return "new since the baseline"
	}
	parts := []string{"lag " + SignedNum(ch.TotalLagBy)}
	if ch.StateWas != nil && *ch.StateWas != g.State {
		parts = append(parts, "was "+*ch.StateWas)
	}
	if ch.WorstStatusWas != nil && *ch.WorstStatusWas != g.WorstStatus {
		parts = append(parts, "worst was "+ch.WorstStatusWas.Badge())
	}
	return "since the baseline: " + strings.Join(parts, ", ")
}

func partitionList(ps []model.PartitionRef) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = model.TP(p).String()
	}
	return strings.Join(out, ", ")
}

// NoPartitionsText says why a group shows no partition rows, without claiming
// more than offsettui could see.
func NoPartitionsText(g model.Group, allVisible *bool) string {
	switch {
	case g.Error != nil:
		return "committed offsets could not be read (see the error above); lag unknown"
	case allVisible == nil || !*allVisible:
		return "no committed offsets on topics this principal can see, and no assigned partitions"
	}
	return "no committed offsets and no assigned partitions"
}

// HiddenTopicsNote is the warning shown when topics may be hidden from the principal or
// when that could not be determined: the snapshot's own visibility note, in its words
// (a denied probe, ACLs that may hide topics, or not known).
func HiddenTopicsNote(s model.Snapshot) string {
	for _, e := range s.Errors {
		if e.IsVisibilityNote() {
			return "WARNING: " + e.Message
		}
	}
	return "WARNING: " + model.VisibilityError(s.Cluster.AllTopicsVisible, false).Message
}

// commitsLabel starts the line of the commit-expiry clock: EXPIRING when the broker may
// delete commits within the risk window.
func commitsLabel(g *model.Group) string {
	if g.CommitsExpiring() {
		return "COMMITS EXPIRING: "
	}
	return "commits: "
}
