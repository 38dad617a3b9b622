package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/text"
)

// Check writes a check result for a terminal or a log: one line per partition
// that does not pass, with its numbers and why; then what kept the proof
// incomplete and the group notes; and last the one-line verdict, so that
// `tail -1` of the output is always the verdict.
func Check(w io.Writer, r check.Result) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	if err := writeCheck(bw, r); err != nil {
		return err
	}
	return bw.Flush()
}

func writeCheck(w io.Writer, r check.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, p := range r.Partitions {
		if p.Pass {
			continue
		}
		if !header {
			fmt.Fprintf(tw, "TOPIC\tPARTITION\tLOW\t%s\tHIGH\tSTATUS\tRESULT\tWHY\n", display.PositionColumn(r.Type))
			header = true
		}
		why := make([]string, 0, len(p.Reasons))
		for _, rs := range p.Reasons {
			why = append(why, check.Label(rs.Code)+": "+rs.Message)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Topic, p.Partition, text.Num(p.Low),
			text.Num(p.Position()), text.Num(p.High), StatusText(p.Status, p.Lost, p.Beyond), strings.ToUpper(string(p.Result)), strings.Join(why, "; "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, pr := range r.Problems {
		if _, err := fmt.Fprintf(w, "incomplete: %s\n", pr.Message); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n.Message); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Summary)
	return err
}
