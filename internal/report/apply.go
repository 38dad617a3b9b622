package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// PlanFileHeading says where a plan file's plan comes from: the file and its sha256, who
// planned it with what and when, on which cluster, and when it read the group.
func PlanFileHeading(w io.Writer, planned plan.Plan, appliedBy string) {
	r := planned.Reviewed
	if r == nil {
		return
	}
	fmt.Fprintf(w, "Plan file %s (sha256 %s)\n", r.File, r.SHA256)
	fmt.Fprintf(w, "planned by %s with %s at %s, on cluster %s (%s), from the group read at %s; applied by %s\n\n",
		text.OrDash(r.PlannedBy), text.OrDash(r.PlannedWith), stamp(r.PlannedAt), r.ClusterID, text.OrDash(r.Bootstrap),
		stampOf(planned.ReadAt), text.OrDash(appliedBy))
}

// Apply writes offsettui apply's dry run: the plan file's heading, then each row as planned
// beside the group now — its commit then and now, the watermarks now, the reviewed target,
// what the move does now, and what refuses the row now — the totals planned and now, and
// what refuses the plan now (docs/resets.md#plan-files).
func Apply(w io.Writer, d ApplyDocument) error {
	planned, now := d.Planned, d.Now
	committed := map[model.TP]*int64{}
	for _, c := range d.CommittedNow {
		committed[model.TP{Topic: c.Topic, Partition: c.Partition}] = c.Committed
	}
	bw := bufio.NewWriterSize(w, outputBuffer)
	PlanFileHeading(bw, planned, d.AppliedBy)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s plan for %s '%s' · %s, as reviewed, beside the group now (%s, read at %s)\n",
		display.OperationTitle(planned.Strategy.Kind), planNoun(planned.Type), planned.Group, planned.Strategy,
		text.OrDash(now.State), stampOf(now.ReadAt))
	pos := display.PositionColumn(planned.Type)
	fmt.Fprintf(tw, "\nGROUP\tTOPIC\tPARTITION\t%s-PLANNED\t%s-NOW\tLOW\tHIGH\tNEW-OFFSET\tEFFECT-NOW\tNOW\n", pos, pos)
	for i, r := range planned.Rows {
		n := r
		if i < len(now.Rows) && now.Rows[i].TP() == r.TP() {
			n = now.Rows[i]
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", planned.Group, r.Topic, r.Partition,
			text.Num(r.Committed), committedNow(committed, r), text.Num(n.Low), text.Num(n.High), display.TargetText(r), display.Effect(n), rowVerdict(now, r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(bw, "\nplanned: %s\nnow:     %s\n", display.TotalsText(planned.Totals), display.TotalsText(now.Totals))
	if a := display.AssumptionText(now); a != "" {
		fmt.Fprintf(bw, "%s\n", a)
	}
	if f := display.MovesForwardText(now); f != "" {
		fmt.Fprintf(bw, "%s\n", f)
	}
	if now.AllowCommitter && now.Committer != nil {
		fmt.Fprintf(bw, "\nCOMMITTER (guard overridden when planned): a client outside the group commits for it: %s; its next commit may overwrite this write\n",
			plan.CommitterText(now.Committer))
	}
	if len(now.Blockers) > 0 {
		fmt.Fprintf(bw, "\nREFUSED NOW: %s this plan cannot be applied now:\n", text.Plural(len(now.Blockers), "reason"))
		for _, b := range now.Blockers {
			fmt.Fprintf(bw, "  [%s] %s\n", b.Kind, b.Message)
		}
	}
	if lines := display.NoteLines(now.Notes); len(lines) > 0 {
		fmt.Fprintln(bw)
		for _, n := range lines {
			fmt.Fprintf(bw, "NOTE [%s] %s\n", n.Kind, n.Text)
		}
	}
	return bw.Flush()
}

// committedNow is the row's commit as read now: "-" for none.
func committedNow(committed map[model.TP]*int64, r plan.Row) string {
	return text.Num(committed[r.TP()])
}

// rowVerdict says what refuses the row now, by its blockers' kinds, or "as planned".
func rowVerdict(now plan.Plan, r plan.Row) string {
	var kinds []string
	for _, b := range now.Blockers {
		if rowOf(b, r) {
			kinds = append(kinds, strings.ToUpper(string(b.Kind)))
		}
	}
	if len(kinds) == 0 {
		return "as planned"
	}
	return strings.Join(kinds, ", ")
}

func rowOf(b plan.Blocker, r plan.Row) bool {
	return b.Topic != nil && b.Partition != nil && *b.Topic == r.Topic && *b.Partition == r.Partition
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(model.StampLayout)
}

func stampOf(s *model.Stamp) string {
	if s == nil {
		return "-"
	}
	return stamp(s.Time)
}

// ApplyDocument is `apply -o json`'s document (docs/json.md): the plan file, who applies it,
// the plan as reviewed, the plan now (a dry run: as re-read, its blockers what refuses it;
// executed: the plan as written, with each row's result) with the group's commits as read
// now, and the outcome (null for a dry run).
type ApplyDocument struct {
	PlanFile     PlanFileJSON       `json:"planFile"`
	AppliedBy    string             `json:"appliedBy"`
	Planned      plan.Plan          `json:"planned"`
	Now          plan.Plan          `json:"now"`
	CommittedNow []CommittedJSON    `json:"committedNow"`
	Outcome      *plan.ResetOutcome `json:"outcome"`
}

// PlanFileJSON is a plan file's own members but the plan.
type PlanFileJSON struct {
	Path        string      `json:"path"`
	SHA256      string      `json:"sha256"`
	ClusterID   string      `json:"clusterId"`
	Bootstrap   string      `json:"bootstrap"`
	PlannedBy   string      `json:"plannedBy"`
	PlannedWith string      `json:"plannedWith"`
	PlannedAt   model.Stamp `json:"plannedAt"`
}

// CommittedJSON is a planned row's commit as read now (null: none).
type CommittedJSON struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Committed *int64 `json:"committed"`
}

// NewApplyDocument is the document of planned (a plan file's plan), now and the commits read.
func NewApplyDocument(planned, now plan.Plan, committed map[model.TP]int64, appliedBy string, outcome *plan.ResetOutcome) ApplyDocument {
	d := ApplyDocument{AppliedBy: appliedBy, Planned: planned, Now: now, CommittedNow: make([]CommittedJSON, 0, len(planned.Rows)), Outcome: outcome}
	if r := planned.Reviewed; r != nil {
		d.PlanFile = PlanFileJSON{Path: r.File, SHA256: r.SHA256, ClusterID: r.ClusterID, Bootstrap: r.Bootstrap,
			PlannedBy: r.PlannedBy, PlannedWith: r.PlannedWith, PlannedAt: model.Stamp{Time: r.PlannedAt}}
	}
	for _, r := range planned.Rows {
		c := CommittedJSON{Topic: r.Topic, Partition: r.Partition}
		if v, ok := committed[r.TP()]; ok {
			c.Committed = model.Ptr(v)
		}
		d.CommittedNow = append(d.CommittedNow, c)
	}
	return d
}
