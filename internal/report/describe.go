// Package report renders offsettui's command output as plain-text tables: the
// form that is read in a terminal and pasted into incident tickets. It is pure:
// model values in, text out.
package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/offsettui/offsettui/internal/model"
)

// Describe writes a snapshot the way kafka-consumer-groups --describe does, plus
// LOW, STATUS, TIME-LAG and EXPIRES-IN, one block per group, worst groups first.
// The columns are aligned per group, so each group's block leaves (through a
// buffer) as soon as it is complete.
func Describe(w io.Writer, s model.Snapshot) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	if err := describe(bw, s); err != nil {
		return err
	}
	return bw.Flush()
}

func describe(w io.Writer, s model.Snapshot) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "cluster %s · %s · taken %s · %s\n", s.Cluster.Bootstrap, model.Plural(s.Cluster.Brokers, "broker"),
		s.Cluster.TakenAt.UTC().Format(model.StampLayout), model.Plural(len(s.Groups), "group"))
	if v := s.Cluster.AllTopicsVisible; v == nil || !*v {
		fmt.Fprintf(tw, "%s\n", HiddenTopicsNote(v))
	}
	if len(s.Groups) == 0 {
		fmt.Fprintln(tw, "\nno consumer groups matched")
	}
	topics := map[string]model.Topic{}
	for _, t := range s.Topics {
		topics[t.Topic] = t
	}
	for _, g := range s.Groups {
		fmt.Fprintf(tw, "\n%s\n", groupHeading(g))
		if g.Error != nil {
			fmt.Fprintf(tw, "  error: %s\n", g.Error.Error())
		}
		if len(g.Partitions) == 0 {
			fmt.Fprintln(tw, "  "+NoPartitionsText(g, s.Cluster.AllTopicsVisible))
			continue
		}
		fmt.Fprintln(tw, "GROUP\tTOPIC\tPARTITION\tLOW\tCURRENT-OFFSET\tLOG-END-OFFSET\tLAG\tSTATUS\tTIME-LAG\tEXPIRES-IN\tCONSUMER-ID\tHOST\tCLIENT-ID")
		for _, p := range g.Partitions {
			cid, host, client := "-", "-", "-"
			if p.Member != nil {
				cid, host, client = p.Member.MemberID, p.Member.Host, p.Member.ClientID
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				g.Group, p.Topic, p.Partition, model.Num(p.Low), model.Num(p.Committed), model.Num(p.High),
				model.Num(p.Lag), model.StatusText(p.Status, p.Lost, p.Beyond), model.HumanMs(p.TimeLagMs), model.HumanMs(p.ExpiresInMs), cid, host, client)
		}
		for _, p := range g.Partitions {
			if p.Error != nil {
				fmt.Fprintf(tw, "  %s-%d: %s\n", p.Topic, p.Partition, p.Error.Error())
			}
		}
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(tw, "\n%s (items above marked UNKNOWN could not be read):\n", model.Plural(len(s.Errors), "error"))
		for _, e := range s.Errors {
			fmt.Fprintf(tw, "  %s\n", e.Error())
		}
	}
	return tw.Flush()
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
