package display

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// OperationTitle names what a plan of kind k does, in plan headings and the
// planner's crumb: "Reset", "Restore", "Delete-offsets", "Delete-group".
func OperationTitle(k plan.StrategyKind) string {
	switch k {
	case plan.Restore:
		return "Restore"
	case plan.DeleteOffsets:
		return "Delete-offsets"
	case plan.DeleteGroup:
		return "Delete-group"
	}
	return "Reset"
}

// Effect renders what a row does to the group: "re-reads 3", "SKIPS 18",
// "18 already lost", "no change".
func Effect(r plan.Row) string {
	var parts []string
	if r.Duplicates > 0 {
		parts = append(parts, "re-reads "+text.Thousands(r.Duplicates))
	}
	if r.Skipped > 0 {
		parts = append(parts, "SKIPS "+text.Thousands(r.Skipped))
	}
	if r.AlreadyLost > 0 {
		parts = append(parts, text.Thousands(r.AlreadyLost)+" already lost")
	}
	if len(parts) == 0 {
		if r.Target == nil && !(r.Reason == plan.ReasonRestore || r.Reason == plan.ReasonDelete) {
			return "-"
		}
		return "no change"
	}
	return strings.Join(parts, ", ")
}

// TargetText is a row's new offset; a restore row without one deletes the commit.
func TargetText(r plan.Row) string {
	switch {
	case r.Target == nil && (r.Reason == plan.ReasonRestore || r.Reason == plan.ReasonDelete):
		return "(delete)"
	case r.Reason == plan.ReasonNoSourceCommit:
		return "(keep)"
	}
	return text.Num(r.Target)
}

// ReasonText is a row's reason; a row a blocker stopped has none.
func ReasonText(r plan.Row) string {
	if r.Reason == "" {
		return "blocked"
	}
	return string(r.Reason)
}

// TotalsText is the plan's one-line banner: "re-delivers 3 records · skips 0 · 0
// already lost · 1 partition". When its counts depend on auto.offset.reset, the line
// under it says so (AssumptionText).
func TotalsText(t plan.Totals) string {
	return fmt.Sprintf("re-delivers %s · skips %s · %s already lost · %s",
		text.Plural(t.Duplicates, "record"), text.Thousands(t.Skipped), text.Thousands(t.AlreadyLost), text.Plural(t.Partitions, "partition"))
}

// AssumptionText names the auto.offset.reset a plan's counts assume and what the other of
// latest and earliest would count where that differs: "assuming auto.offset.reset=latest,
// the Kafka client default; with earliest: re-delivers 560 · skips 0". "" when no count
// depends on it.
func AssumptionText(p plan.Plan) string {
	if !p.AssumptionMatters() {
		return ""
	}
	s := "assuming auto.offset.reset=" + p.AssumeReset
	other := model.ResetEarliest
	switch p.AssumeReset {
	case model.ResetLatest:
		s += ", the Kafka client default"
	case model.ResetEarliest:
		other = model.ResetLatest
	case model.ResetNone:
		s += " (without a commit the consumer refuses to start: counted from the log start)"
		other = model.ResetLatest
	}
	if t := p.WithAssumeReset(other).Totals; t != p.Totals {
		s += fmt.Sprintf("; with %s: re-delivers %s · skips %s", other, text.Thousands(t.Duplicates), text.Thousands(t.Skipped))
	}
	return s
}

// Note explains in words what the counts of a row cannot say, or "" when they say
// it all; assume is the plan's auto.offset.reset. Views show it next to the row.
func Note(r plan.Row, assume string) string {
	switch {
	case r.Reason == plan.ReasonRestore && r.Target == nil:
		return "restore deletes the commit: the group will start where the consumer's auto.offset.reset says" + assumedStart(r, assume)
	case r.Reason == plan.ReasonDelete:
		return deleteNote(r, assume)
	case r.Reason == plan.ReasonNoSourceCommit:
		return "the source group has no commit here: not written, the group keeps what it has"
	case r.Target != nil && r.Low != nil && r.High != nil && (*r.Target < *r.Low || *r.Target > *r.High):
		return "the target is outside the stored records: the consumer will get OFFSET_OUT_OF_RANGE and follow auto.offset.reset"
	case r.Committed == nil && r.Target != nil && r.Low != nil && r.High != nil:
		return noCommitNote(r, assume)
	}
	return ""
}

// assumedStart says where auto.offset.reset assume starts a consumer without a commit, as
// the row's counts assume it.
func assumedStart(r plan.Row, assume string) string {
	if r.ResetStart == nil {
		return "; with auto.offset.reset=none it refuses to start (counted from the log start)"
	}
	return fmt.Sprintf(" (auto.offset.reset=%s: %d)", assume, *r.ResetStart)
}

// NoteFor is Note for a group of type typ. A share group has start offsets, not commits,
// and a partition without one starts where the group's share.auto.offset.reset config
// says (docs/kafka.md), not a consumer's auto.offset.reset: the note says so. A target
// below a tiered topic's local log start adds that the consumer will read from remote storage.
func NoteFor(r plan.Row, typ, assume string) string {
	n := Note(r, assume)
	if typ == model.TypeShare && n != "" {
		n = strings.NewReplacer("the consumer's auto.offset.reset", "the group's share.auto.offset.reset",
			"auto.offset.reset", "share.auto.offset.reset", "the commit", "the start offset",
			"no commit today: committing", "no start offset today: setting").Replace(n)
		n = strings.ReplaceAll(n, "share.share.", "share.")
	}
	if r.ReadsRemote && r.Target != nil && r.LocalLow != nil {
		remote := fmt.Sprintf("the target %d lies below the local log start %d: the consumer will read from remote storage (tiered topic)", *r.Target, *r.LocalLow)
		if n == "" {
			return remote
		}
		n += "; " + remote
	}
	return n
}

// noCommitNote says where a first commit starts a partition the group never committed on,
// against where auto.offset.reset assume starts it without one: the row's counts are the
// difference.
func noCommitNote(r plan.Row, assume string) string {
	t := *r.Target
	switch {
	case r.ResetStart == nil:
		return fmt.Sprintf("no commit today: auto.offset.reset=none refuses to start without one; committing %d starts the group there (counted from the log start, %d)", t, *r.Low)
	case *r.ResetStart == t:
		return fmt.Sprintf("no commit today: auto.offset.reset=%s would start at %d too", assume, t)
	}
	return fmt.Sprintf("no commit today: auto.offset.reset=%s would start at %d; committing %d starts the group there instead", assume, *r.ResetStart, t)
}

// VerifiedText words Verified for a reset's result: "yes", "NO" with its causes (rows
// rejected, changed since, or of unknown fate), or "not checked" when the offsets were
// never read back.
func VerifiedText(p plan.Plan) (verdict, why string) {
	switch {
	case p.Verified == nil:
		return "not checked", "the offsets could not be read back"
	case *p.Verified:
		return "yes", "the offsets read back equal the plan"
	}
	count := map[plan.WriteResult]int{}
	for _, r := range p.Rows {
		count[r.Result]++
	}
	var causes []string
	for _, c := range []struct {
		result plan.WriteResult
		words  string
	}{
		{plan.WriteRejected, "rejected by the broker (not written)"},
		{plan.WriteChanged, "changed by another client since the write"},
		{plan.WriteOverwritten, "overwritten by another client while the read-back watched"},
		{plan.WriteUnknown, "not at the target, and the request got no answer"},
	} {
		if n := count[c.result]; n > 0 {
			causes = append(causes, text.Plural(n, "partition")+" "+c.words)
		}
	}
	return "NO", strings.Join(causes, "; ")
}

// OutcomeMeaning says what a reset's outcome means for the group, in a line.
func OutcomeMeaning(o plan.ResetOutcome) string {
	switch o {
	case plan.OutcomeApplied:
		return "every offset was written and read back equal to the plan"
	case plan.OutcomeRefused:
		return "nothing was written"
	case plan.OutcomeCancelled:
		return "cancelled before the backup: nothing was written, no backup was kept"
	case plan.OutcomePartlyApplied:
		return "some partitions were written, others refused by the broker or changed since"
	case plan.OutcomeFailed:
		return "what was written cannot be told for some partition: compare with the backup"
	case plan.OutcomeOverwritten:
		return "written, then another client committed over it: stop the consumer that commits for this group, then reset again"
	}
	return "unknown outcome"
}

// deleteNote says where the consumer starts once its commit is deleted: where
// auto.offset.reset assume puts it (ResetStart), or nowhere when it is none.
func deleteNote(r plan.Row, assume string) string {
	if r.ResetStart == nil {
		return "deleting the commit: with auto.offset.reset=none the consumer refuses to start here (counted from the log start)"
	}
	what := fmt.Sprintf("deleting the commit: the consumer starts at %d (auto.offset.reset=%s)", *r.ResetStart, assume)
	switch {
	case r.Duplicates > 0:
		return what + fmt.Sprintf(" and reads %s again", text.Plural(r.Duplicates, "record"))
	case r.Skipped > 0:
		return what + fmt.Sprintf(" and never reads %s", text.Plural(r.Skipped, "record"))
	}
	return what + ", where it is now"
}

// The words around a plan's equivalent Kafka command (plan.Equivalent), the same in the
// CLI's plan and the TUI's planner: the heading, the heading of its --from-file file's
// lines, and the label of each way Kafka's tool differs.
const (
	EquivalentHeading     = "Kafka's tool (" + plan.BootstrapPlaceholder + " = the cluster's address):"
	EquivalentFileHeading = "with " + plan.EquivalentFile + ":"
	DiffersLabel          = "differs: "
)
