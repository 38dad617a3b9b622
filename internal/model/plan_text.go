package model

import (
	"fmt"
	"strings"
)

// Effect renders what a row does to the group: "re-reads 3", "SKIPS 18",
// "18 already lost", "no change".
func (r PlanRow) Effect() string {
	var parts []string
	if r.Duplicates > 0 {
		parts = append(parts, "re-reads "+Thousands(r.Duplicates))
	}
	if r.Skipped > 0 {
		parts = append(parts, "SKIPS "+Thousands(r.Skipped))
	}
	if r.AlreadyLost > 0 {
		parts = append(parts, Thousands(r.AlreadyLost)+" already lost")
	}
	if len(parts) == 0 {
		switch {
		case r.Target == nil:
			return "-"
		case r.Committed == nil:
			return "no commit (see note)"
		}
		return "no change"
	}
	return strings.Join(parts, ", ")
}

// TargetText is a row's new offset; a restore row without one deletes the commit.
func (r PlanRow) TargetText() string {
	if r.Target == nil && r.Reason == ReasonRestore {
		return "(delete)"
	}
	return Num(r.Target)
}

// ReasonText is a row's reason; a row a blocker stopped has none.
func (r PlanRow) ReasonText() string {
	if r.Reason == "" {
		return "blocked"
	}
	return string(r.Reason)
}

// String is the plan's one-line banner: "re-delivers 3 records · skips 0 · 0
// already lost · 1 partition".
func (t Totals) String() string {
	return fmt.Sprintf("re-delivers %s · skips %s · %s already lost · %s",
		Plural(t.Duplicates, "record"), Thousands(t.Skipped), Thousands(t.AlreadyLost), Plural(t.Partitions, "partition"))
}

// Note explains in words what the counts of a row cannot say, or "" when they say
// it all. Views show it next to the row.
func (r PlanRow) Note() string {
	switch {
	case r.Reason == ReasonNoCommitToLatest && r.Low != nil && r.High != nil:
		n := *r.High - *r.Low
		return "no commit: --to-current falls back to the latest offset, so the " + Plural(n, "stored record") + " " + areIs(n) + " never read"
	case r.Reason == ReasonRestore && r.Target == nil:
		return "restore deletes the commit: the group will start where the consumer's auto.offset.reset says"
	case r.Target != nil && r.Low != nil && r.High != nil && (*r.Target < *r.Low || *r.Target > *r.High):
		return "the target is outside the stored records: the consumer will get OFFSET_OUT_OF_RANGE and follow auto.offset.reset"
	case r.Committed == nil && r.Target != nil:
		return "no commit today: where the group would start depends on the consumer's auto.offset.reset, so the effect is not counted"
	}
	return ""
}

// areIs agrees a verb with a count.
func areIs[N ~int | ~int64](n N) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
