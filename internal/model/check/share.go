package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// The check of a share group (docs/cli.md, check): the same proof, on the share-partition
// start offsets, with the group's real share.auto.offset.reset (a group config read from
// the broker) in place of --assume-reset, which describes a consumer's client config.

// CodeShareResetUnknown marks a share group whose share.auto.offset.reset could not be read.
const CodeShareResetUnknown = "share-reset-unknown"

// shareReset is a share group's share.auto.offset.reset, parsed: earliest, latest, or
// by_duration:<ISO-8601 duration> (start at the first record of the last Duration).
type shareReset struct {
	raw      string
	kind     string // ResetEarliest, ResetLatest or "by_duration"
	duration string
}

func parseShareReset(v *string) (shareReset, bool) {
	if v == nil {
		return shareReset{}, false
	}
	const byDuration = "by_duration:"
	raw := strings.TrimSpace(*v)
	switch {
	case strings.EqualFold(raw, model.ResetEarliest):
		return shareReset{raw: raw, kind: model.ResetEarliest}, true
	case strings.EqualFold(raw, model.ResetLatest):
		return shareReset{raw: raw, kind: model.ResetLatest}, true
	case len(raw) > len(byDuration) && strings.EqualFold(raw[:len(byDuration)], byDuration):
		return shareReset{raw: raw, kind: "by_duration", duration: raw[len(byDuration):]}, true
	}
	return shareReset{raw: raw}, false
}

// checkShareStatus judges one share partition's start offset (or its absence).
func checkShareStatus(p *Partition, gp model.GroupPartition, cfg *string, opts Options, now time.Time) {
	p.StartOffset, p.Committed = gp.StartOffset(), nil
	if gp.Status == model.StatusUnknown || gp.Error != nil || gp.Low == nil || gp.High == nil {
		checkStatus(p, gp, opts, now) // the same incomplete reasons
		return
	}
	low, high := *gp.Low, *gp.High
	switch gp.Status {
	case model.StatusExpired:
		s := *gp.StartOffset()
		p.add(VerdictFail, CodeExpired, fmt.Sprintf("%s deleted before the share group delivered them", recordRange(low-s, s, low)), nil)
		p.note(CodeOnRestart, fmt.Sprintf("the share partition continues from the log start %d; the deleted records are never delivered", low))
	case model.StatusAhead:
		s := *gp.StartOffset()
		p.add(VerdictFail, CodeAhead, fmt.Sprintf(
			"start offset %d is %d beyond the high watermark %d (topic recreated or truncated, or an unclean leader election)", s, s-high, high), nil)
	case model.StatusMissing:
		checkShareMissing(p, cfg, low, high)
	case model.StatusAtRisk:
		gp.Committed = gp.StartOffset()
		checkStatus(p, gp, opts, now)
		p.Committed = nil
	}
}

// checkShareMissing judges a share partition without a start offset: the broker starts it
// where share.auto.offset.reset says when a member first fetches it.
func checkShareMissing(p *Partition, cfg *string, low, high int64) {
	r, ok := parseShareReset(cfg)
	if !ok {
		msg := "no start offset, and the group's share.auto.offset.reset could not be read: where the partition starts is unknown"
		if cfg != nil {
			msg = fmt.Sprintf("no start offset, and share.auto.offset.reset=%q is not a value offsettui knows", *cfg)
		}
		p.add(VerdictIncomplete, CodeShareResetUnknown, msg, nil)
		return
	}
	setting := "share.auto.offset.reset=" + r.raw + " (the group's config on the broker)"
	if low > 0 {
		p.add(VerdictFail, CodeMissing, fmt.Sprintf(
			"no start offset and the log starts at %d: records 0..%d were deleted, so loss cannot be ruled out; %s", low, low-1, setting), nil)
		return
	}
	switch r.kind {
	case model.ResetEarliest:
		p.note(CodeStartsAtLow, "no start offset: "+setting+" starts at 0, the log start, so nothing is skipped")
	case model.ResetLatest:
		msg := "no start offset: " + setting + " starts at the end, skipping every record written before a member first fetches it"
		if high > 0 {
			msg += fmt.Sprintf(": the %d stored records 0..%d", high, high-1)
		}
		p.add(VerdictFail, CodeMissing, msg, nil)
	default:
		p.add(VerdictFail, CodeMissing, fmt.Sprintf(
			"no start offset: %s starts at the first record of the last %s, skipping older stored records", setting, r.duration), nil)
	}
}

// shareCheckNote says which reset the check used for a share group.
func shareCheckNote(g model.Group) Reason {
	v := "unknown (it could not be read)"
	if g.ShareAutoOffsetReset != nil {
		v = *g.ShareAutoOffsetReset
	}
	return Reason{Code: "share-auto-offset-reset", Result: VerdictPass, Message: fmt.Sprintf(
		"share group: judged with its share.auto.offset.reset=%s (a group config on the broker); --assume-reset is a consumer's setting and does not apply, and share-group start offsets do not expire", v)}
}
