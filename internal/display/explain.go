package display

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Explain says in one line what a partition's status means for the operator,
// with its numbers (docs/statuses.md): the TUI's group screen and offsettui mcp's
// explain_status. It classifies nothing: the status and the derived numbers come from
// the snapshot.
func Explain(group string, p *model.GroupPartition, t *model.Topic, window time.Duration) string {
	switch p.Status {
	case model.StatusExpired:
		if p.Lost() != nil && p.Committed != nil {
			them := "them"
			if *p.Lost() == 1 {
				them = "it"
			}
			next := "on restart the consumer jumps to auto.offset.reset"
			if p.Member != nil { // a live consumer: there is no restart to wait for
				next = "its live consumer " + p.Member.Name() + " gets OFFSET_OUT_OF_RANGE when it fetches there and jumps to " +
					"auto.offset.reset (unless it already read past it without committing)"
			}
			return fmt.Sprintf("%s (%s..%s) %s deleted before %s read %s; %s",
				records(*p.Lost()), text.Thousands(*p.Committed), text.Thousands(*p.Committed+*p.Lost()-1), wereWas(*p.Lost()), group, them, next)
		}
	case model.StatusMissing:
		return explainMissing(group, p)
	case model.StatusAhead:
		if p.Committed != nil && p.High != nil && p.Beyond() != nil {
			return fmt.Sprintf("committed %s is %s past the end (high %s): topic recreated, truncated or an unclean leader election; the consumer will reset",
				text.Thousands(*p.Committed), text.Thousands(*p.Beyond()), text.Thousands(*p.High))
		}
	case model.StatusAtRisk:
		return explainAtRisk(group, p, t, window)
	case model.StatusOK:
		return explainOK(p, t)
	}
	if p.Error != nil {
		return "cannot tell: " + p.Error.Error()
	}
	return "cannot tell: an input needed to classify this partition could not be read (offsets, topic configs or the at-risk lookup)"
}

func explainMissing(group string, p *model.GroupPartition) string {
	lead := "no commit from " + group
	if p.Member != nil {
		lead = "assigned to " + p.Member.Name() + " but no commit from " + group
	}
	switch {
	case p.Low == nil || p.High == nil:
		return lead + ": the consumer starts where auto.offset.reset says"
	case *p.Low > 0:
		return fmt.Sprintf("%s: the consumer starts at auto.offset.reset; records before %s are deleted, so nobody can prove nothing was lost",
			lead, text.Thousands(*p.Low))
	default:
		return fmt.Sprintf("%s: earliest would read all %s; the client default (latest) skips them",
			lead, records(*p.High-*p.Low))
	}
}

func explainAtRisk(group string, p *model.GroupPartition, t *model.Topic, window time.Duration) string {
	if p.Committed == nil {
		return "at risk"
	}
	behind := ""
	if p.Lag != nil {
		behind = fmt.Sprintf("; %s behind", records(*p.Lag))
	}
	if p.ExpiresInMs != nil {
		return atRiskDeadline(group, p) + behind
	}
	ret := "retention.ms"
	if t != nil && t.RetentionMs != nil {
		ret = "retention.ms " + text.HumanMs(t.RetentionMs)
	}
	before := fmt.Sprintf(", before %s reads it", group)
	if t := p.Time; t != nil && t.ConsumeRate.OK && t.Loss == nil { // one deadline: it reads in time
		before = fmt.Sprintf("; at its rate %s reads it first", group)
	}
	return fmt.Sprintf("record %s can be deleted by retention (%s) within the %s risk window%s%s",
		text.Thousands(*p.Committed), ret, text.HumanDuration(window), before, behind)
}

// atRiskDeadline says an at-risk partition's deadline (model.GroupPartition.Deadline): with
// rates measured, the time to loss at them, and when its next record expires as context
// ("before G reads it" only when G does not reach it in time); without, when that record
// may be deleted, which assumes a stopped consumer.
func atRiskDeadline(group string, p *model.GroupPartition) string {
	rec, expires := text.Thousands(*p.Committed), ExpiresPhrase(*p.ExpiresInMs)
	ms, basis := p.Deadline()
	switch {
	case basis == model.DeadlineRates && p.ReadsBeforeExpiry():
		return fmt.Sprintf("at its rate retention deletes records %s has not read in %s (record %s, its next, can be deleted %s; it reads it before then)",
			group, text.HumanMs(&ms), rec, expires)
	case basis == model.DeadlineRates && p.Time.ConsumeRate.V <= 0:
		return fmt.Sprintf("record %s can be deleted by retention %s, before %s reads it (its committed offset does not move)", rec, expires, group)
	case basis == model.DeadlineRates:
		return fmt.Sprintf("record %s can be deleted by retention %s, before %s reads it at its rate (%s)",
			rec, expires, group, text.FormatRate(p.Time.ConsumeRate.V))
	case basis == model.DeadlineNone:
		return fmt.Sprintf("at its rate %s reads record %s before retention can delete it (%s) and is never overtaken; at-risk assumes a stopped consumer",
			group, rec, expires)
	}
	return fmt.Sprintf("record %s can be deleted by retention %s if %s does not read it first (no rates yet: this assumes a stopped consumer)",
		rec, expires, group)
}

func explainOK(p *model.GroupPartition, t *model.Topic) string {
	var b strings.Builder
	switch {
	case p.Committed == nil || p.Lag == nil:
		b.WriteString("ok")
	case p.TransactionMarkers() != nil && p.High != nil:
		fmt.Fprintf(&b, "caught up: only what no read_committed consumer receives lies between committed %s and high %s: %s",
			text.Thousands(*p.Committed), text.Thousands(*p.High), MarkersText(p.TransactionMarkers()))
	case *p.Lag == 0:
		fmt.Fprintf(&b, "caught up: committed %s is the high watermark", text.Thousands(*p.Committed))
	default:
		fmt.Fprintf(&b, "%s behind (committed %s, high %s)", records(*p.Lag), text.Thousands(*p.Committed), text.Thousands(*p.High))
		if p.TimeLagMs != nil {
			fmt.Fprintf(&b, ", %s behind in time", text.HumanMs(p.TimeLagMs))
		}
		if p.ExpiresInMs != nil {
			fmt.Fprintf(&b, "; retention can delete record %s %s", text.Thousands(*p.Committed), ExpiresPhrase(*p.ExpiresInMs))
		}
		if p.MarkersUnknown() != nil {
			b.WriteString("; whether only transaction markers lie before high could not be told: " + *p.MarkersUnknown())
		}
	}
	switch {
	case t != nil && t.Compacts() && !t.Deletes():
		b.WriteString("; compacted topic: never at risk by time")
	case t != nil && t.NeverDeleted():
		b.WriteString("; " + model.NeverDeletedText + ": never at risk")
	}
	return b.String()
}

func records(n int64) string { return text.Plural(n, "record") }

func wereWas(n int64) string {
	if n == 1 {
		return "was"
	}
	return "were"
}
