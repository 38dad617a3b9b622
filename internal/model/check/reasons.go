package check

import (
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// The reasons a partition passes or fails the check, in words an operator acts on.

// checkPartition judges one partition of g: its status, then its topic's retention.
func checkPartition(g model.Group, gp model.GroupPartition, t *model.Topic, opts Options, now time.Time) Partition {
	p := Partition{Topic: gp.Topic, Partition: gp.Partition, Low: gp.Low, High: gp.High, Committed: gp.Committed,
		Status: gp.Status, Lost: gp.Lost(), Beyond: gp.Beyond(), ExpiresInMs: gp.ExpiresInMs, Result: VerdictPass,
		Reasons: []Reason{}, Notes: []Reason{}, Error: gp.Error, Time: gp.Time,
		CommitsExpireAt: gp.CommitsExpireAt, CommitsExpireBy: gp.CommitsExpireBy}
	if ms, basis := gp.Deadline(); basis != model.DeadlineNone {
		p.DeadlineMs = model.Ptr(ms)
	}
	if g.Type == model.TypeShare {
		checkShareStatus(&p, gp, g.ShareAutoOffsetReset, opts, now)
	} else {
		checkStatus(&p, gp, opts, now)
		checkLoss(&p, gp, opts)
		checkCommitExpiry(&p, g, gp, opts, now)
		markersNote(&p, gp)
		checkCompaction(&p, &gp, opts.IgnoreMissedDeletes)
	}
	switch {
	case t == nil:
		p.add(VerdictIncomplete, CodeTopicConfig, fmt.Sprintf("the configs of topic %s were not read", gp.Topic), nil)
	case t.Error != nil || !t.ConfigKnown():
		msg := fmt.Sprintf("the configs of topic %s could not be read", gp.Topic)
		if t.Error != nil {
			msg += ": " + t.Error.Error()
		}
		p.add(VerdictIncomplete, CodeTopicConfig, msg, t.Error)
	default:
		checkRetention(&p, *t, opts.RecoveryWindow)
	}
	p.Pass = p.Result == VerdictPass
	return p
}

func checkStatus(p *Partition, gp model.GroupPartition, opts Options, now time.Time) {
	if gp.Status == model.StatusUnknown || gp.Error != nil {
		msg := "status unknown: an input needed to classify it could not be read"
		if gp.Error != nil {
			msg = "cannot read: " + gp.Error.Error()
		}
		p.add(VerdictIncomplete, CodeUnknown, msg, gp.Error)
		return
	}
	if gp.Low == nil || gp.High == nil {
		p.add(VerdictIncomplete, CodeUnknown, "the watermarks could not be read", nil)
		return
	}
	low, high := *gp.Low, *gp.High
	reset := opts.AssumeReset
	switch gp.Status {
	case model.StatusExpired:
		c := *gp.Committed
		p.add(VerdictFail, CodeExpired, fmt.Sprintf("%s deleted before the group read them", recordRange(low-c, c, low)), nil)
		p.note(CodeOnRestart, "on restart the consumer gets OFFSET_OUT_OF_RANGE and "+afterReset(reset, low, high))
	case model.StatusAhead:
		c := *gp.Committed
		p.add(VerdictFail, CodeAhead, fmt.Sprintf(
			"committed %d is %d beyond the high watermark %d (topic recreated or truncated, or an unclean leader election): %s",
			c, c-high, high, afterReset(reset, low, high)), nil)
	case model.StatusMissing:
		checkMissing(p, reset, low, high)
	case model.StatusAtRisk:
		p.add(VerdictFail, CodeAtRisk, atRiskMessage(gp, opts, now), nil)
	}
}

// atRiskMessage says why an at-risk partition fails, leading with its deadline
// (model.GroupPartition.Deadline), the one the summary line then carries too: with rates
// measured, the time to loss at them, and when the next record expires as context; without,
// when the next record may be deleted, which assumes a stopped consumer. At-risk itself
// always assumes a stopped consumer, as a start-up gate must.
func atRiskMessage(gp model.GroupPartition, opts Options, now time.Time) string {
	c, high := *gp.Committed, *gp.High
	unread := text.Plural(high-c, "record") + " " + text.AreIs(high-c) + " still unread"
	next := fmt.Sprintf("record %d, the next the group reads, can be deleted", c)
	switch {
	case gp.ExpiresInMs != nil && *gp.ExpiresInMs <= 0:
		next += " now (its retention ran out " + text.HumanMs(model.Ptr(-*gp.ExpiresInMs)) + " ago)"
	case gp.ExpiresInMs != nil:
		at := now.Add(time.Duration(*gp.ExpiresInMs) * time.Millisecond).UTC().Format(model.StampLayout)
		next += fmt.Sprintf(" as soon as %s (in %s)", at, text.HumanMs(gp.ExpiresInMs))
	}
	window := humanWindow(opts.RiskWindow)
	ms, basis := gp.Deadline()
	switch {
	case basis == model.DeadlineRates && gp.ReadsBeforeExpiry():
		return fmt.Sprintf("at its measured rate retention deletes records the group has not read in %s (%s, within the %s risk window, were the consumer stopped); %s",
			text.HumanMs(&ms), next, window, unread)
	case basis == model.DeadlineNone && gp.Time != nil && gp.Time.ConsumeRate.OK:
		return fmt.Sprintf("%s, within the %s risk window, were the consumer stopped; at its measured rate it reads it first and retention never overtakes it; %s",
			next, window, unread)
	case basis == model.DeadlineRates:
		return fmt.Sprintf("%s, within the %s risk window, before the group reads it at its measured rate; %s", next, window, unread)
	}
	return fmt.Sprintf("%s, within the %s risk window, assuming a stopped consumer (no rates: measure with --sample); %s", next, window, unread)
}

// markersNote says why a partition below high is caught up: only transaction markers and
// aborted records lie between its commit and high; or why that could not be told.
func markersNote(p *Partition, gp model.GroupPartition) {
	m := gp.TransactionMarkers()
	if gp.MarkersUnknown() != nil {
		p.note(CodeMarkersUnknown, "lag as Kafka's CLI counts it: whether only transaction markers lie before high could not be told: "+*gp.MarkersUnknown())
	}
	if m == nil || gp.Committed == nil || gp.High == nil {
		return
	}
	p.note(CodeMarkers, fmt.Sprintf("caught up: offsets %d..%d hold %s and %s, which no read_committed consumer receives (Kafka's CLI shows LAG %d)",
		*gp.Committed, *gp.High-1, text.Plural(m.ControlRecords, "transaction marker"), text.Plural(m.AbortedRecords, "aborted record"), m.KafkaLag))
}

func checkMissing(p *Partition, reset string, low, high int64) {
	const none = "no committed offset: auto.offset.reset=none makes the consumer refuse to start"
	if low > 0 {
		msg := fmt.Sprintf("no committed offset and the log starts at %d: records 0..%d were deleted, so loss cannot be ruled out", low, low-1)
		switch reset {
		case model.ResetLatest:
			if high > low {
				msg += fmt.Sprintf("; auto.offset.reset=latest (the client default) also skips the %s", stored(low, high))
			}
		case model.ResetNone:
			msg += "; auto.offset.reset=none refuses to start"
		}
		p.add(VerdictFail, CodeMissing, msg, nil)
		return
	}
	switch reset {
	case model.ResetEarliest:
		p.note(CodeStartsAtLow, "no committed offset: auto.offset.reset=earliest starts at 0, the log start, so nothing is skipped")
	case model.ResetNone:
		p.add(VerdictFail, CodeMissing, none, nil)
	default:
		msg := "no committed offset: auto.offset.reset=latest (the client default) starts at the end, skipping every record written before the consumer starts"
		if high > 0 {
			msg += fmt.Sprintf(": the %d stored records 0..%d", high, high-1)
		} else {
			msg += " (none stored yet)"
		}
		p.add(VerdictFail, CodeMissing, msg+"; pass --assume-reset earliest if the consumer sets it", nil)
	}
}

// afterReset says where auto.offset.reset takes a consumer whose position is out
// of range.
func afterReset(reset string, low, high int64) string {
	switch reset {
	case model.ResetEarliest:
		return fmt.Sprintf("auto.offset.reset=earliest resumes at the log start %d", low)
	case model.ResetNone:
		return "auto.offset.reset=none makes it refuse to start"
	}
	msg := fmt.Sprintf("auto.offset.reset=latest (the client default) jumps to %d", high)
	if high > low {
		msg += ", skipping the " + stored(low, high)
	}
	return msg
}

func stored(low, high int64) string {
	return fmt.Sprintf("%d stored records %d..%d", high-low, low, high-1)
}

// recordRange renders "18 records 12..29".
func recordRange(n, from, to int64) string {
	if n == 1 {
		return fmt.Sprintf("1 record %d", from)
	}
	return fmt.Sprintf("%d records %d..%d", n, from, to-1)
}

// checkRetention judges what the topic's retention can delete.
func checkRetention(p *Partition, t model.Topic, window time.Duration) {
	if t.NeverDeleted() {
		msg := model.NeverDeletedText + ": retention deletes nothing, whatever retention.ms and retention.bytes say, so any recovery window is covered"
		if t.Tiered() {
			msg += " (local segments still go by local.retention.*; the consumer reads them from remote storage)"
		}
		p.note(CodeInfinite, msg)
		return
	}
	compacted := "compacted (cleanup.policy=" + model.Deref(t.CleanupPolicy) + ")"
	if !t.Deletes() {
		p.note(CodeCompacted, compacted+": retention does not delete by time, so any recovery window is covered; compaction keeps only the latest record of each key")
		return
	}
	if t.Compacts() {
		p.note(CodeCompacted, compacted+": compaction also removes older records of each key")
	}
	if t.RetentionMs == nil || t.RetentionBytes == nil {
		p.add(VerdictIncomplete, CodeTopicConfig, fmt.Sprintf("retention.ms or retention.bytes of topic %s was not returned", t.Topic), nil)
		return
	}
	ms, bytes := *t.RetentionMs, *t.RetentionBytes
	if ms < 0 && bytes <= 0 {
		p.note(CodeInfinite, "infinite retention (retention.ms=-1, no retention.bytes): nothing is deleted by time or size")
		return
	}
	if ms >= 0 {
		ret := time.Duration(ms) * time.Millisecond
		if window > 0 && ret < window {
			p.add(VerdictFail, CodeRetentionShort, fmt.Sprintf("retention %s (retention.ms=%d) is shorter than the %s recovery window: a consumer down that long loses records",
				text.HumanDuration(ret), ms, humanWindow(window)), nil)
		} else {
			p.note(CodeRetentionCovers, retentionCovers(ret, window))
		}
	}
	if bytes > 0 {
		if window > 0 {
			p.add(VerdictFail, CodeSizeRetention, fmt.Sprintf("size-based retention (retention.bytes=%d): records are deleted when the partition outgrows it, so the %s recovery window cannot be proved by time",
				bytes, humanWindow(window)), nil)
		} else {
			p.note(CodeSizeNote, fmt.Sprintf("size-based retention (retention.bytes=%d) can also delete records; at-risk judges time only", bytes))
		}
	}
}

// retentionCovers is the note of a retention that covers the recovery window, or only the
// retention when no window was given (--recovery-window 0: there is nothing it covers).
func retentionCovers(ret, window time.Duration) string {
	if window <= 0 {
		return "retention " + text.HumanDuration(ret)
	}
	return fmt.Sprintf("retention %s covers the %s recovery window", text.HumanDuration(ret), humanWindow(window))
}

func humanWindow(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	return text.HumanDuration(d)
}

// checkCompaction fails a partition of a compacted topic whose group may have missed
// deletes, and leaves one whose reads could not tell incomplete, unless the consumer does
// not care about deletes (then each is a note).
func checkCompaction(p *Partition, gp *model.GroupPartition, ignore bool) {
	cp := gp.Compaction()
	if cp == nil || gp.Status == model.StatusUnknown {
		return // an unknown partition is incomplete already
	}
	const ignored = " (--ignore-missed-deletes: the consumer does not care about deletes)"
	switch {
	case cp.MayMissDeletes && ignore:
		p.note(CodeMissedDeletes, missedDeletes(gp)+ignored)
	case cp.MayMissDeletes:
		p.add(VerdictFail, CodeMissedDeletes, missedDeletes(gp)+
			"; pass --ignore-missed-deletes if the consumer does not care about deletes", nil)
	case cp.Unknown != nil && ignore:
		p.note(CodeDeletesUnknown, "whether the group missed deletes is unknown: "+*cp.Unknown+ignored)
	case cp.Unknown != nil:
		p.add(VerdictIncomplete, CodeDeletesUnknown, "whether the group missed deletes on this compacted partition is unknown: "+*cp.Unknown, nil)
	}
}

// missedDeletes says why the group may have missed deletes, with the numbers.
func missedDeletes(gp *model.GroupPartition) string {
	cp, c := gp.Compaction(), model.Deref(gp.Committed)
	msg := fmt.Sprintf("compacted topic: the group read up to %d and may have missed deletes (tombstones the cleaner removes before the group reads them)", c)
	for _, w := range cp.Why {
		switch {
		case w == model.CompactionWhyRemoved && cp.Removed != nil:
			msg += fmt.Sprintf("; offsets %d..%d hold no record (removed by the cleaner; the next stored is %d)", c, c+*cp.Removed-1, *cp.NextStored)
		case w == model.CompactionWhyRemoved:
			msg += fmt.Sprintf("; at least %s from %d on hold no record (removed by the cleaner)", text.Plural(model.Deref(cp.RemovedAtLeast), "offset"), c)
		case w == model.CompactionWhyOld:
			msg += fmt.Sprintf("; the next record it reads is %s old, past delete.retention.ms (%s)", text.HumanMs(gp.TimeLagMs), text.HumanMs(cp.DeleteRetentionMs))
		}
	}
	return msg
}
