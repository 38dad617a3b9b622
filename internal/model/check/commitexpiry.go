package check

import (
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// checkCommitExpiry fails a partition whose commit the broker may delete within the risk
// window (model's commit-expiry clock): the consumer would then restart by
// auto.offset.reset, wherever it had got to.
func checkCommitExpiry(p *Partition, g model.Group, gp model.GroupPartition, opts Options, now time.Time) {
	e := g.CommitsExpiry
	if e == nil || gp.CommitsExpireBy == model.ExpiryNever {
		return
	}
	if opts.RequireCommitTimes && gp.CommitsExpireAt == nil {
		p.add(VerdictFail, CodeCommitsExpire, "when the broker may delete this commit is not known ("+unknownWhy(e, gp)+
			"), and --commit-log=on requires it", nil)
		return
	}
	if gp.CommitsExpireBy == model.ExpiryNone {
		return
	}
	horizon := now.Add(opts.RiskWindow)
	retention := text.HumanDuration(time.Duration(e.RetentionMs) * time.Millisecond)
	if e.RetentionAssumed {
		retention += ", Kafka's default: the broker's offsets.retention.minutes could not be read"
	}
	var msg string
	switch at := gp.CommitsExpireAt; {
	case at != nil && !at.After(horizon):
		when := "at " + at.UTC().Format(model.StampLayout)
		if d := at.Sub(now); d > 0 {
			when += " (in " + text.HumanDuration(d) + ")"
		} else {
			when += " (due: at the broker's next sweep)"
		}
		msg = fmt.Sprintf("the broker may delete this commit %s, %s", when, expiryBasis(gp.CommitsExpireBy, retention))
	case at == nil && e.Latest != nil && !e.Latest.After(horizon):
		msg = fmt.Sprintf("the broker deletes this commit by %s at the latest, %s; that time could not be read (%s)",
			e.Latest.UTC().Format(model.StampLayout), expiryBasis(gp.CommitsExpireBy, retention), commitLogWhy(e))
	default:
		return
	}
	p.add(VerdictFail, CodeCommitsExpire, fmt.Sprintf("%s, within the %s risk window; the consumer then restarts by auto.offset.reset",
		msg, humanWindow(opts.RiskWindow)), nil)
}

// expiryBasis says what the deletion time counts from.
func expiryBasis(rule model.ExpiryRule, retention string) string {
	switch rule {
	case model.ExpiryEmptyTime:
		return "offsets.retention.minutes (" + retention + ") after the group became Empty"
	case model.ExpiryExpireTimestamp:
		return "at the expire timestamp its commit carries (OffsetCommit v1)"
	}
	return "offsets.retention.minutes (" + retention + ") after the commit"
}

// commitLogWhy says why the times in __consumer_offsets are not known.
func commitLogWhy(e *model.CommitExpiry) string {
	switch {
	case e.CommitLog == model.CommitLogOff:
		return "__consumer_offsets was not read: --commit-log=off"
	case e.CommitLogReason != nil:
		return *e.CommitLogReason
	}
	return "__consumer_offsets does not hold it"
}

// unknownWhy says what the clock of a partition could not know, and why.
func unknownWhy(e *model.CommitExpiry, gp model.GroupPartition) string {
	switch {
	case gp.CommitsExpireBy == model.ExpiryNone || e.Rule == model.ExpiryUnknown:
		return "the group's state or its members' subscriptions could not be read"
	case gp.CommitsExpireBy == model.ExpiryEmptyTime:
		return "the time the group became Empty could not be read: " + commitLogWhy(e)
	}
	return "its commit time could not be read: " + commitLogWhy(e)
}
