package report

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/offsettui/offsettui/internal/model"
)

// Plan writes a reset plan: Kafka's GROUP TOPIC PARTITION NEW-OFFSET columns plus
// what the move does, then totals, blockers and, once executed, the result.
func Plan(w io.Writer, p model.Plan, notes []string) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	if err := plan(bw, p, notes); err != nil {
		return err
	}
	return bw.Flush()
}

func plan(w io.Writer, p model.Plan, notes []string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Reset plan for group '%s' (%s) · %s\n\n", p.Group, model.OrDash(p.State), p.Strategy)
	fmt.Fprintln(tw, "GROUP\tTOPIC\tPARTITION\tCURRENT-OFFSET\tLOW\tHIGH\tNEW-OFFSET\tREASON\tEFFECT")
	for _, r := range p.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Group, r.Topic, r.Partition,
			model.Num(r.Committed), model.Num(r.Low), model.Num(r.High), r.TargetText(), r.ReasonText(), r.Effect())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range p.Rows {
		if n := r.Note(); n != "" {
			fmt.Fprintf(w, "  %s-%d: %s\n", r.Topic, r.Partition, n)
		}
	}
	fmt.Fprintf(w, "\n%s\n", p.Totals)
	if len(p.Blockers) > 0 {
		fmt.Fprintf(w, "\nBLOCKED: %s this plan cannot be executed:\n", model.Plural(len(p.Blockers), "reason"))
		for _, b := range p.Blockers {
			fmt.Fprintf(w, "  [%s] %s\n", b.Kind, b.Message)
		}
	}
	if p.Executed {
		fmt.Fprintln(w)
		if p.Backup != nil {
			fmt.Fprintf(w, "backup:   %s\n", *p.Backup)
		}
		if p.Verified != nil {
			v := "NO: the offsets read back differ from the plan"
			if *p.Verified {
				v = "yes: the offsets read back equal the plan"
			}
			fmt.Fprintf(w, "verified: %s\n", v)
		}
		if len(p.Rejected) > 0 {
			fmt.Fprintf(w, "rejected by the broker (%s, not written):\n", model.Plural(len(p.Rejected), "partition"))
			for _, e := range p.Rejected {
				fmt.Fprintf(w, "  %s\n", e.Error())
			}
		}
		if p.Undo != nil {
			fmt.Fprintf(w, "undo:     %s\n", *p.Undo)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}
