package display

import (
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// The commit-expiry clock (model.CommitExpiry) as a countdown cell and as a sentence,
// counted from the snapshot's time (docs/statuses.md).

// CommitTTL is a group's countdown: the time until the broker may delete its first
// commits ("due" when that time has passed: at its next sweep), "never" when none
// expires in the group's state, "≤7d" when the time it counts from is unknown, "?" when
// the rule is, "-" when the group has no commit.
func CommitTTL(g *model.Group, at time.Time) string {
	e := g.CommitsExpiry
	switch {
	case e == nil:
		return "-"
	case g.CommitsExpireAt != nil:
		return countdown(g.CommitsExpireAt.Time, at)
	case e.Latest != nil:
		return "≤" + text.HumanDuration(e.Latest.Sub(at))
	case e.Rule == model.ExpiryUnknown:
		return "?"
	}
	return "never"
}

// PartitionCommitTTL is one partition's countdown, as CommitTTL; "" without a commit.
func PartitionCommitTTL(g *model.Group, p *model.GroupPartition, at time.Time) string {
	switch {
	case p.CommitsExpireBy == model.ExpiryNone:
		if p.Position() != nil && g.CommitsExpiry != nil && g.CommitsExpiry.Rule == model.ExpiryUnknown {
			return "?"
		}
		return ""
	case p.CommitsExpireBy == model.ExpiryNever:
		return "never"
	case p.CommitsExpireAt != nil:
		return countdown(p.CommitsExpireAt.Time, at)
	case g.CommitsExpiry != nil && g.CommitsExpiry.Latest != nil:
		return "≤" + text.HumanDuration(g.CommitsExpiry.Latest.Sub(at))
	}
	return "?"
}

func countdown(due, at time.Time) string {
	if d := due.Sub(at); d > 0 {
		return text.HumanDuration(d.Truncate(time.Second))
	}
	return "due"
}

// CommitExpiryText says when the broker may delete the group's commits, by which rule,
// and what could not be known; "" for a group without commits, and for a share group
// (its type's own lines say that start offsets do not expire).
func CommitExpiryText(g *model.Group, at time.Time) string {
	e := g.CommitsExpiry
	if e == nil || g.Type == model.TypeShare {
		return ""
	}
	retention := text.HumanDuration(time.Duration(e.RetentionMs) * time.Millisecond)
	if e.RetentionAssumed {
		retention += " (Kafka's default: offsets.retention.minutes not readable)"
	}
	switch e.Rule {
	case model.ExpiryNever:
		return neverText(g)
	case model.ExpiryUnknown:
		return "when the broker deletes the commits is unknown: the group's state or its members' subscriptions could not be read"
	}
	if e.Rule == model.ExpiryUnsubscribed && g.CommitsExpireAt == nil && e.UnknownTime == model.ExpiryNone {
		if g.Type == model.TypeClassic {
			return "every commit is on a topic a member subscribes to: kept while one does; once the group is Empty, all go " +
				retention + " after that"
		}
		return "every commit is on a topic a member subscribes to: kept while one does; then each goes " + retention +
			" after it was made, at once if it is older"
	}
	var parts []string
	if g.CommitsExpireAt != nil || e.UnknownTime == model.ExpiryNone {
		parts = append(parts, ruleText(e, retention))
	}
	if g.CommitsExpireAt != nil {
		parts = append(parts, "the first "+when(g.CommitsExpireAt.Time, at)+sweep(e))
	}
	if e.UnknownTime != model.ExpiryNone {
		parts = append(parts, unknownText(e, retention))
	}
	return strings.Join(parts, "; ")
}

// ruleText is the rule of a group's clock.
func ruleText(e *model.CommitExpiry, retention string) string {
	switch e.Rule {
	case model.ExpiryEmptyTime:
		s := "the broker deletes every commit " + retention + " after the group became Empty"
		if e.EmptySince != nil {
			s += " (" + e.EmptySince.UTC().Format(model.StampLayout) + ")"
		}
		return s
	case model.ExpiryUnsubscribed:
		return "the broker deletes each commit on a topic no member subscribes to " + retention +
			" after it was made; the others are kept while a member subscribes"
	}
	return "the broker deletes each commit " + retention + " after it was made"
}

// when is "at T (in 3h)" or "due at the broker's next sweep (since T)".
func when(due, at time.Time) string {
	stamp := due.UTC().Format(model.StampLayout)
	if d := due.Sub(at); d > 0 {
		return "at " + stamp + " (in " + text.HumanDuration(d.Truncate(time.Second)) + ")"
	}
	return "due since " + stamp + ": at the broker's next sweep"
}

// sweep says how late after its time a deletion can come.
func sweep(e *model.CommitExpiry) string {
	if e.CheckIntervalMs == nil {
		return ", within one offsets.retention.check.interval.ms after (10m by default; not readable)"
	}
	return ", within " + text.HumanMs(e.CheckIntervalMs) + " after (offsets.retention.check.interval.ms)"
}

// unknownText is the sentence of a clock whose base time could not be read: "at most 7d
// after the last commit; commit times unknown (why)".
func unknownText(e *model.CommitExpiry, retention string) string {
	what, which := "the last commit", "commit times unknown"
	switch {
	case e.UnknownTime == model.ExpiryEmptyTime:
		what, which = "the group became Empty", "the time it became Empty unknown"
	case e.Rule == model.ExpiryUnsubscribed:
		what = "the last commit on a topic no member subscribes to"
	}
	why := "__consumer_offsets not read"
	if e.CommitLogReason != nil {
		why = *e.CommitLogReason
	}
	return "at most " + retention + " after " + what + "; " + which + " (" + why + ")"
}

// neverText says why a group's commits do not expire in its state.
func neverText(g *model.Group) string {
	switch {
	case g.State == "Stable":
		return "kept while the group is Stable: Kafka cannot read its members' subscriptions, so it expires none"
	}
	return "kept while the group is " + g.State + ": Kafka expires no commit of a classic group in this state"
}
