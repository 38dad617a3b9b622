package clustertest

// Judging one snapshot of the cluster world against the independent reads around it:
// every number shown equals the truth (the static groups, exactly) or lies between the
// reads taken just before the snapshot began and just after it was printed (the live
// topic only moves forward), or is marked unknown with its error; no group of the world
// is missing; nothing unknown is shown as whole.

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// verdict is what one snapshot showed.
type verdict struct {
	problems []string
	// missing counts the world's groups left out; unknown the world's groups and
	// partitions marked unknown; compared the numbers held against the truth.
	missing, unknown, compared int
	// trailing counts committed offsets a moment behind (a coordinator that has just moved).
	trailing int
}

func (v *verdict) bad(format string, a ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, a...))
}

// judge holds snap, taken from t0 and printed at t1, against the world and the truth.
// seen holds the groups earlier snapshots of the same watch showed (nil: a one-shot):
// one of those must never be missing; one not seen yet may be missing only when the
// snapshot says some broker's groups could not be listed.
func (w *clusterWorld) judge(tr *truth, snap model.Snapshot, t0, t1 time.Time, seen map[string]bool) verdict {
	var v verdict
	byName := map[string]*model.Group{}
	for i := range snap.Groups {
		byName[snap.Groups[i].Group] = &snap.Groups[i]
		if seen != nil {
			defer func(name string) { seen[name] = true }(snap.Groups[i].Group)
		}
	}
	for _, name := range append(append([]string{}, w.staticGroups...), w.liveGroups...) {
		g := byName[name]
		if g == nil {
			v.missing++
			if seen[name] || !listingFailed(snap) {
				v.bad("group %s missing from the snapshot (its errors: %v)", name, snapErrors(snap))
			}
			continue
		}
		w.judgeGroup(&v, tr, g, t0, t1)
	}
	return v
}

func (w *clusterWorld) judgeGroup(v *verdict, tr *truth, g *model.Group, t0, t1 time.Time) {
	static := w.staticCommits[g.Group] != nil
	if g.Error != nil {
		v.unknown++
		if g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
			v.bad("group %s: error %v but worst %s, total lag %v", g.Group, g.Error, g.WorstStatus, g.TotalLag)
		}
	}
	if static && g.Members != nil && len(g.Members) != 0 {
		v.bad("group %s: %d members; it has none", g.Group, len(g.Members))
	}
	if g.Members == nil && g.Error == nil {
		v.bad("group %s: members unknown without an error", g.Group)
	}
	// The total lag sums the positive lags; it is whole unless the group's commits or a
	// partition's lag could not be read (docs/statuses.md): a partition unknown only for
	// want of its topic's configs still has its lag.
	var sum int64
	whole := g.Error == nil
	for i := range g.Partitions {
		p := &g.Partitions[i]
		tp := tpOf(p.Topic, p.Partition)
		if p.Status == model.StatusUnknown {
			v.unknown++
			if p.Lag == nil {
				whole = false
			}
			if p.Error == nil && g.Error == nil {
				v.bad("group %s %s: unknown without an error", g.Group, tp)
			}
		} else if p.Committed == nil || p.Low == nil || p.High == nil || p.Lag == nil {
			v.bad("group %s %s: status %s with committed %v low %v high %v lag %v", g.Group, tp, p.Status,
				fmtInt(p.Committed), fmtInt(p.Low), fmtInt(p.High), fmtInt(p.Lag))
		}
		if p.Lag != nil {
			sum += max(*p.Lag, 0)
			if p.High == nil || p.Committed == nil || *p.Lag != *p.High-*p.Committed {
				v.bad("group %s %s: lag %d is not high %v − committed %v", g.Group, tp, *p.Lag, fmtInt(p.High), fmtInt(p.Committed))
			}
		}
		if static {
			w.judgeExact(v, g.Group, p)
			continue
		}
		group := g.Group
		v.within(tr, t0, t1, group+" "+tp.Topic+fmt.Sprintf("-%d", tp.Partition)+" committed", p.Committed, func(r truthRead) (int64, bool) {
			c, ok := r.committed[group][tp]
			return c, ok
		})
		v.within(tr, t0, t1, tp.Topic+fmt.Sprintf("-%d", tp.Partition)+" high", p.High, func(r truthRead) (int64, bool) { x, ok := r.high[tp]; return x, ok })
		v.within(tr, t0, t1, tp.Topic+fmt.Sprintf("-%d", tp.Partition)+" low", p.Low, func(r truthRead) (int64, bool) { x, ok := r.low[tp]; return x, ok })
	}
	switch {
	case g.TotalLag != nil && !whole:
		v.bad("group %s: total lag %d beside a lag that could not be read", g.Group, *g.TotalLag)
	case g.TotalLag != nil && *g.TotalLag != sum:
		v.bad("group %s: total lag %d, its partitions' lags sum to %d", g.Group, *g.TotalLag, sum)
	case g.TotalLag == nil && whole && len(g.Partitions) > 0:
		v.bad("group %s: no total lag though every partition was read", g.Group)
	}
	if whole && len(g.Partitions) != worldPartitions {
		v.bad("group %s: %d partitions shown, it has %d", g.Group, len(g.Partitions), worldPartitions)
	}
}

// judgeExact holds a static group's partition to the numbers it was built with.
func (w *clusterWorld) judgeExact(v *verdict, group string, p *model.GroupPartition) {
	want, ok := w.staticCommits[group][tpOf(p.Topic, p.Partition)]
	if !ok {
		v.bad("group %s: partition %s-%d it never committed on", group, p.Topic, p.Partition)
		return
	}
	for _, c := range []struct {
		what      string
		got       *int64
		wantValue int64
	}{{"committed", p.Committed, want}, {"low", p.Low, 0}, {"high", p.High, staticRecords}, {"lag", p.Lag, staticRecords - want}} {
		if c.got == nil {
			continue
		}
		v.compared++
		if *c.got != c.wantValue {
			v.bad("group %s %s-%d: %s %d, truth %d", group, p.Topic, p.Partition, c.what, *c.got, c.wantValue)
		}
	}
}

// within holds a shown number to the truth read around it: not below the highest read
// before t0, not above the highest read just after t1. A committed offset below that but
// not below the lowest read of the 2 s before the last read before t0 is counted apart (trailing): what a
// coordinator that has just moved answers (docs/kafka.md). A number shown null is not
// judged.
func (v *verdict) within(tr *truth, t0, t1 time.Time, what string, got *int64, val func(truthRead) (int64, bool)) {
	if got == nil {
		return
	}
	b := tr.bounds(t0, t1, val)
	if !b.ok {
		return
	}
	v.compared++
	switch {
	case *got < b.lo && b.trail >= 0 && *got >= b.trail && strings.HasSuffix(what, "committed"):
		v.trailing++
	case *got < b.lo || *got > b.hi:
		v.bad("%s: %d, the independent reads around it %d and %d; the reads from 5 s before to 3 s after: %s",
			what, *got, b.lo, b.hi, tr.history(t0.Add(-5*time.Second), t1.Add(3*time.Second), val))
	}
}

func fmtInt(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// snapErrors are the messages of a snapshot's errors, for a failure's message.
func snapErrors(s model.Snapshot) []string {
	var out []string
	for _, e := range s.Errors {
		out = append(out, e.Error())
	}
	return out
}

// listingFailed reports whether the snapshot says some broker's groups could not be
// listed (its ListGroups failed, or it was dropped after a failure).
func listingFailed(s model.Snapshot) bool {
	for _, e := range s.Errors {
		if strings.HasPrefix(e.Message, "list groups:") || strings.Contains(e.Message, "broker dropped after a failure") {
			return true
		}
	}
	return false
}
