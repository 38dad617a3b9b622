package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// Plan writes a plan (a reset, restore or delete, headed by its operation): Kafka's
// GROUP TOPIC PARTITION NEW-OFFSET columns plus what the move does, then totals,
// blockers and, once executed, the result.
func Plan(w io.Writer, p plan.Plan, notes []string) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	if err := writePlan(bw, p, notes); err != nil {
		return err
	}
	return bw.Flush()
}

func writePlan(w io.Writer, p plan.Plan, notes []string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	state := text.OrDash(p.State)
	if p.GroupMissing() {
		state = "does not exist"
	}
	fmt.Fprintf(tw, "%s plan for %s '%s' (%s) · %s\n", display.OperationTitle(p.Strategy.Kind), planNoun(p.Type), p.Group, state, p.Strategy)
	if p.ReadAt != nil {
		fmt.Fprintf(tw, "read at %s (the commits and offsets below)\n", p.ReadAt.UTC().Format(model.StampLayout))
	}
	for _, line := range planTypeLines(p.Type, p.Strategy.Kind) {
		fmt.Fprintln(tw, line)
	}
	fmt.Fprintf(tw, "\nGROUP\tTOPIC\tPARTITION\t%s\tLOW\tHIGH\tNEW-OFFSET\tREASON\tEFFECT\n", display.PositionColumn(p.Type))
	for _, r := range p.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Group, r.Topic, r.Partition,
			text.Num(r.Committed), text.Num(r.Low), text.Num(r.High), display.TargetText(r), display.ReasonText(r), display.Effect(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range p.Rows {
		if n := display.NoteFor(r, p.Type, p.AssumeReset); n != "" {
			fmt.Fprintf(w, "  %s-%d: %s\n", r.Topic, r.Partition, n)
		}
	}
	fmt.Fprintf(w, "\n%s\n", display.TotalsText(p.Totals))
	if a := display.AssumptionText(p); a != "" {
		fmt.Fprintf(w, "%s\n", a)
	}
	if f := display.MovesForwardText(p); f != "" {
		fmt.Fprintf(w, "%s\n", f)
	}
	writeEquivalent(w, p.KafkaEquivalent)
	if p.AllowCommitter && p.Committer != nil {
		fmt.Fprintf(w, "\nCOMMITTER (guard overridden): a client outside the group commits for it: %s; its next commit may overwrite this write\n",
			plan.CommitterText(p.Committer))
	}
	if len(p.Blockers) > 0 {
		fmt.Fprintf(w, "\nBLOCKED: %s this plan cannot be executed:\n", text.Plural(len(p.Blockers), "reason"))
		for _, b := range p.Blockers {
			fmt.Fprintf(w, "  [%s] %s\n", b.Kind, b.Message)
		}
	}
	if lines := display.NoteLines(p.Notes); len(lines) > 0 {
		fmt.Fprintln(w)
		for _, n := range lines {
			fmt.Fprintf(w, "NOTE [%s] %s\n", n.Kind, n.Text)
		}
	}
	if p.Executed {
		fmt.Fprintln(w)
		if p.Backup != nil {
			fmt.Fprintf(w, "backup:   %s\n", *p.Backup)
		}
		verdict, why := display.VerifiedText(p)
		fmt.Fprintf(w, "verified: %s: %s\n", verdict, why)
		if p.ReadBackAt != nil {
			fmt.Fprintf(w, "read back at %s\n", p.ReadBackAt.UTC().Format(model.StampLayout))
		}
		if len(p.Rejected) > 0 {
			fmt.Fprintf(w, "rejected by the broker (%s, not written):\n", text.Plural(len(p.Rejected), "partition"))
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

// planNoun names the group in a plan's heading: "group" for consumer groups, as before
// share and streams groups existed, else "share group" or "streams group".
func planNoun(typ string) string {
	switch typ {
	case model.TypeShare, model.TypeStreams, model.TypeUnknown:
		return strings.ToLower(display.Noun(typ))
	}
	return "group"
}

// planTypeLines says whose semantics a share or streams plan of kind k follows and what it
// does not do.
func planTypeLines(typ string, k plan.StrategyKind) []string {
	const noInternal = "offsettui deletes no internal topic and no local state (kafka-streams-groups.sh --delete-all-internal-topics and the application's state directories do)"
	switch {
	case typ == model.TypeShare && k == plan.DeleteOffsets:
		return []string{"as kafka-share-groups.sh --delete-offsets: share-partition start offsets, deleted a whole topic at a time with DeleteShareGroupOffsets"}
	case typ == model.TypeShare && k == plan.DeleteGroup:
		return []string{"as kafka-share-groups.sh --delete: DeleteGroups, with every share-partition start offset"}
	case typ == model.TypeShare:
		return []string{"as kafka-share-groups.sh --reset-offsets: share-partition start offsets, written with AlterShareGroupOffsets"}
	case typ == model.TypeStreams && k == plan.DeleteOffsets:
		return []string{"as kafka-streams-groups.sh --delete-offsets: committed offsets, deleted with OffsetDelete; " + noInternal}
	case typ == model.TypeStreams && k == plan.DeleteGroup:
		return []string{"as kafka-streams-groups.sh --delete: DeleteGroups, with every commit; " + noInternal}
	case typ == model.TypeStreams:
		return []string{"as kafka-streams-groups.sh --reset-offsets: committed offsets of the input topics; " + noInternal}
	}
	return nil
}

// OutcomeLine is the last line of an executed reset's table: the outcome's word
// and what it means ("outcome:  applied: every offset was written and read back
// equal to the plan").
func OutcomeLine(o plan.ResetOutcome) string {
	return fmt.Sprintf("outcome:  %s: %s", o, display.OutcomeMeaning(o))
}

// writeEquivalent writes the Kafka command that does what the plan does, its file and
// where Kafka's tool differs.
func writeEquivalent(w io.Writer, e *plan.Equivalent) {
	if e == nil {
		return
	}
	fmt.Fprintf(w, "\n%s\n  %s\n", display.EquivalentHeading, e.Command)
	if e.CSV != "" {
		fmt.Fprintf(w, "  %s\n", display.EquivalentFileHeading)
		for _, l := range strings.Split(strings.TrimSuffix(e.CSV, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	for _, d := range e.Differs {
		fmt.Fprintf(w, "  %s%s\n", display.DiffersLabel, d)
	}
}
