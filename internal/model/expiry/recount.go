package expiry

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Recount sets the group's commit-expiry clock from its partitions' (Clock sets each
// partition's and the group's together): the earliest time, the time unknown and
// the commits that may go within the risk window. A group without a position has none.
func Recount(g *model.Group, takenAt time.Time, riskWindow time.Duration) {
	e := g.CommitsExpiry
	if e == nil {
		return
	}
	horizon := takenAt.Add(riskWindow)
	out := model.CommitExpiry{Rule: e.Rule, EmptySince: e.EmptySince, RetentionMs: e.RetentionMs, RetentionAssumed: e.RetentionAssumed,
		CheckIntervalMs: e.CheckIntervalMs, CommitLog: e.CommitLog, CommitLogReason: e.CommitLogReason}
	var (
		earliest  *model.Stamp
		positions int
	)
	expiring := func(at time.Time) {
		if at.After(horizon) {
			return
		}
		out.Expiring++
		in := max(0, at.Sub(takenAt).Milliseconds())
		if out.ExpiringInMs == nil || in < *out.ExpiringInMs {
			out.ExpiringInMs = &in
		}
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.Position() == nil {
			continue
		}
		positions++
		switch {
		case p.CommitsExpireBy == model.ExpiryNone || p.CommitsExpireBy == model.ExpiryNever || p.CommitsExpireBy == model.ExpiryUnknown:
		case p.CommitsExpireAt != nil:
			if earliest == nil || p.CommitsExpireAt.Before(earliest.Time) {
				earliest = p.CommitsExpireAt
			}
			expiring(p.CommitsExpireAt.Time)
		default:
			out.UnknownTime = p.CommitsExpireBy
			out.Latest = e.Latest
			if out.Latest != nil {
				expiring(out.Latest.Time)
			}
		}
	}
	if positions == 0 {
		g.CommitsExpiry, g.CommitsExpireAt = nil, nil
		return
	}
	g.CommitsExpiry, g.CommitsExpireAt = &out, earliest
}
