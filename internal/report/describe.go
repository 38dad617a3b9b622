// Package report renders offsettui's command output as plain-text tables: the
// form that is read in a terminal and pasted into incident tickets. It is pure:
// model values in, text out.
package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// Describe writes a snapshot the way kafka-consumer-groups --describe does, plus
// LOW, STATUS, TIME-LAG and EXPIRES-IN, one block per group, worst groups first.
// The columns are aligned per group, so each group's block leaves (through a
// buffer) as soon as it is written, before the next group is rendered.
func Describe(w io.Writer, s model.Snapshot) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	fmt.Fprintf(bw, "cluster %s · %s · taken %s · %s\n", s.Cluster.Bootstrap, model.Plural(s.Cluster.Brokers, "broker"),
		s.Cluster.TakenAt.UTC().Format(model.StampLayout), model.Plural(len(s.Groups), "group"))
	if v := s.Cluster.AllTopicsVisible; v == nil || !*v {
		fmt.Fprintf(bw, "%s\n", HiddenTopicsNote(v))
	}
	if len(s.Groups) == 0 {
		fmt.Fprintln(bw, "\nno consumer groups matched")
	}
	var rows aligned
	for i := range s.Groups {
		describeGroup(bw, &rows, &s.Groups[i], s.Cluster.AllTopicsVisible)
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(bw, "\n%s (items above marked UNKNOWN could not be read):\n", model.Plural(len(s.Errors), "error"))
		for _, e := range s.Errors {
			fmt.Fprintf(bw, "  %s\n", e.Error())
		}
	}
	return bw.Flush() // a bufio.Writer keeps its first error and returns it here
}

// describeColumns are the table's columns: Kafka's, plus LOW, STATUS,
// TIME-LAG and EXPIRES-IN.
var describeColumns = []string{"GROUP", "TOPIC", "PARTITION", "LOW", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "STATUS",
	"TIME-LAG", "EXPIRES-IN", "CONSUMER-ID", "HOST", "CLIENT-ID"}

// describeGroup writes one group's heading, its rows and its errors.
func describeGroup(w *bufio.Writer, rows *aligned, g *model.Group, allVisible *bool) {
	fmt.Fprintf(w, "\n%s\n", groupHeading(*g))
	if g.Error != nil {
		fmt.Fprintf(w, "  error: %s\n", g.Error.Error())
	}
	if len(g.Partitions) == 0 {
		fmt.Fprintln(w, "  "+NoPartitionsText(*g, allVisible))
		return
	}
	rows.start(len(describeColumns))
	for _, c := range describeColumns {
		rows.add(c)
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		rows.add(g.Group)
		rows.add(p.Topic)
		rows.text = strconv.AppendInt(rows.text, int64(p.Partition), 10)
		rows.endCell()
		rows.num(p.Low)
		rows.num(p.Committed)
		rows.num(p.High)
		rows.num(p.Lag)
		rows.add(model.StatusText(p.Status, p.Lost, p.Beyond))
		rows.add(model.HumanMs(p.TimeLagMs))
		rows.add(model.HumanMs(p.ExpiresInMs))
		if m := p.Member; m != nil {
			rows.add(m.MemberID)
			rows.add(m.Host)
			rows.add(m.ClientID)
		} else {
			rows.add("-")
			rows.add("-")
			rows.add("-")
		}
	}
	_ = rows.writeTo(w) // an error stays in w
	for i := range g.Partitions {
		if p := &g.Partitions[i]; p.Error != nil {
			fmt.Fprintf(w, "  %s-%d: %s\n", p.Topic, p.Partition, p.Error.Error())
		}
	}
}

func groupHeading(g model.Group) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Consumer group '%s' · %s · %s · %s", g.Group, g.Type, g.State, model.Plural(len(g.Members), "member"))
	if l := model.TotalLagText(&g); l != "0" {
		b.WriteString(" · lag " + l)
	}
	if c := g.Counts.Text(); c != "" {
		b.WriteString(" · " + c)
	}
	if g.OffsetsExpireAfterMs != nil {
		fmt.Fprintf(&b, " · commits deletable after %s without members (offsets.retention.minutes)", model.HumanMs(g.OffsetsExpireAfterMs))
	}
	return b.String()
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

// HiddenTopicsNote is the warning shown when ACLs may hide topics (v false) or
// when that could not be determined (v nil).
func HiddenTopicsNote(v *bool) string {
	if v == nil {
		return "WARNING: could not determine whether this principal can see every topic; totals are lower bounds (≥)"
	}
	return "WARNING: this principal cannot describe every topic: Kafka leaves commits on topics it cannot see out of every group; totals are lower bounds (≥). Grant Describe on all topics, or check with --topic."
}
