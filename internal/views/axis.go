package views

import (
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
)

// timeAxis is the root's time axis (docs/timeaxis.md): the history of every
// group partition across refreshes, and the evaluation of each snapshot
// against it. A snapshot is recorded and annotated by the command that read
// it, off the program's loop: at 10,000 groups × 50 partitions that is a
// third of a second that keys would otherwise wait for. Reads come one at a
// time (request), so recordings keep their order; the lock only keeps a
// screen's look at a series apart from a recording.
type timeAxis struct {
	mu  sync.Mutex
	h   *timeaxis.History
	opt timeaxis.Options
}

func newTimeAxis(opt timeaxis.Options) *timeAxis {
	return &timeAxis{h: timeaxis.NewWatchHistory(opt.StallAfter), opt: opt}
}

// record adds s to the history (complete: s holds every group, see
// timeaxis.History.Add) and annotates s in place; s must be nobody else's yet.
func (a *timeAxis) record(s *model.Snapshot, complete bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.h.Add(s, complete)
	a.h.Annotate(s, a.opt)
}

// lags returns the lags kept for one group partition, oldest first, for its
// sparkline; samples without a position are left out.
func (a *timeAxis) lags(group string, tp model.TP) []int64 {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []int64
	for _, s := range a.h.Series(group, tp) {
		if s.Committed >= 0 && s.High >= 0 {
			out = append(out, s.High-s.Committed)
		}
	}
	return out
}

// recordWrite tells the history what a reset executed from this session may
// have written (every row but those the broker rejected), so the jump is not
// read as consumption (timeaxis.History.RecordWrite). at is when its result
// came in: every snapshot taken before then is forgotten for those partitions.
func (a *timeAxis) recordWrite(p plan.Plan, at time.Time) {
	var tps []model.TP
	for _, r := range p.Rows {
		if r.Result != "" && r.Result != plan.WriteRejected && r.Result != plan.WriteUntouched {
			tps = append(tps, r.TP())
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.h.RecordWrite(p.Group, tps, at)
}
