package views

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// tickEvery is how often the age text is recomputed and due refreshes start.
const tickEvery = time.Second

// backoffFactor: a refresh never starts sooner than this many times the
// duration of the previous snapshot after it ended, so a slow cluster is not
// hammered by the tool that is meant to diagnose it.
const backoffFactor = 3

// refresher decides when to read the cluster. One read at a time (request): a
// refresh that is due while another is in flight waits for it instead of
// piling up, and is started by the next tick.
type refresher struct {
	request
	interval time.Duration // 0 = only when asked
	flying   string        // group being read, "" for a full snapshot
	lastEnd  time.Time
	lastDur  time.Duration
	// started holds when the last read of each kind began ("" = full snapshot).
	started map[string]time.Time
	forced  bool
}

// earliest is the first moment a new read may start.
func (r *refresher) earliest() time.Time {
	return r.lastEnd.Add(backoffFactor * r.lastDur)
}

// due reports whether the read of kind (a group, or "" for all) should start.
func (r *refresher) due(kind string, now time.Time) bool {
	if r.inFlight || now.Before(r.earliest()) {
		return false
	}
	last, ok := r.started[kind]
	return r.forced || !ok || (r.interval > 0 && !now.Before(last.Add(r.interval)))
}

// begin records the start of a read and returns its generation; due has
// checked that none is in flight.
func (r *refresher) begin(kind string, now time.Time) uint64 {
	gen, _ := r.start()
	r.flying, r.forced = kind, false
	r.started[kind] = now
	return gen
}

// end records the reply of generation gen; false means it is stale.
func (r *refresher) end(gen uint64, started, ended time.Time) bool {
	if !r.done(gen) {
		return false
	}
	r.lastEnd, r.lastDur = ended, max(0, ended.Sub(started))
	return true
}

// tickCmd schedules the next clock tick.
func tickCmd(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return clockTickedMsg{} })
}

// maybeRefresh starts the read the top screen needs when it is due.
func (m *app) maybeRefresh() tea.Cmd {
	if m.src == nil {
		return nil
	}
	kind := m.openGroup()
	now := m.c.now()
	if !m.ref.due(kind, now) {
		return nil
	}
	q := queryAll(m.c.riskWindow)
	if kind != "" {
		q = queryGroup(kind, m.c.riskWindow)
	}
	// One client, many refreshes: a long first read of __consumer_offsets goes on at the next.
	q.CommitLog, q.CommitLogBudget, q.CommitLogCatchUp = m.c.commitLog.CommitLog, m.c.commitLog.CommitLogBudget, true
	gen := m.ref.begin(kind, now)
	if kind != "" {
		m.broadcastData() // the group screen says it is reading timestamps
	}
	// Until a whole snapshot is in, the groups are shown as soon as they are
	// listed; later refreshes keep the last snapshot on screen instead.
	staged := kind == "" && (m.snap == nil || m.snap.Loading)
	return loadSnapshotCmd(m.ctx, m.src, q, kind, gen, m.c.now, staged, m.axis)
}

// refreshNow is `r`: the read of the top screen, as soon as the backoff allows.
func (m *app) refreshNow() tea.Cmd {
	if m.ref.inFlight {
		m.setFlash("a refresh is already running")
		return nil
	}
	m.ref.forced = true
	if wait := m.ref.earliest().Sub(m.c.now()); wait > 0 {
		m.setFlash("refresh in " + text.HumanDuration(wait.Round(time.Second)) + " (waiting 3× the last snapshot's duration)")
	}
	return m.maybeRefresh()
}

// snapshotListed shows the groups of the read in flight while the rest is
// read, unless a whole snapshot is already on screen. The time axis and the
// lag history never see it: it holds no offsets.
func (m *app) snapshotListed(msg snapshotListedMsg) {
	if !m.ref.inFlight || msg.gen != m.ref.gen || (m.snap != nil && !m.snap.Loading) {
		return
	}
	m.snap = &msg.snap
	m.broadcastData()
}

// snapshotLoaded applies a reply: a full snapshot replaces the data, a group
// snapshot is merged into it. A failure keeps the last good data; the groups
// alone of a staged read are not good data, and go.
func (m *app) snapshotLoaded(msg snapshotLoadedMsg) {
	if !m.ref.end(msg.gen, msg.started, msg.ended) {
		return // stale: an older generation
	}
	if msg.err != nil {
		m.lastErr, m.lastErrAt = msg.err, msg.ended
		if m.snap != nil && m.snap.Loading {
			m.snap = nil
			m.broadcastData()
		}
		if msg.group != "" {
			m.detailErr[msg.group] = msg.err
			m.broadcastData()
		}
		return
	}
	m.lastErr, m.everRead = nil, true
	snap := msg.snap // recorded on the time axis and annotated by the command that read it
	if msg.group == "" {
		m.snap = &snap
		m.hist.add(&snap)
		m.detailed = map[string]time.Time{}
		m.detailErr = map[string]error{}
	} else {
		m.snap = mergeGroup(m.snap, &snap, msg.group)
		m.detailed[msg.group] = snap.Cluster.TakenAt.Time
		delete(m.detailErr, msg.group)
	}
	m.broadcastData()
}

// mergeGroup returns a copy of base with group g (and its topics) taken from
// detail. base is never mutated: screens may still hold it.
func mergeGroup(base, detail *model.Snapshot, g string) *model.Snapshot {
	if base == nil {
		return detail
	}
	out := *base
	out.Groups = slices.Clone(base.Groups)
	out.Topics = slices.Clone(base.Topics)
	for _, dg := range detail.Groups {
		if dg.Group != g {
			continue
		}
		i := slices.IndexFunc(out.Groups, func(x model.Group) bool { return x.Group == g })
		if i < 0 {
			out.Groups = append(out.Groups, dg)
		} else {
			out.Groups[i] = dg
		}
	}
	for _, dt := range detail.Topics {
		i := slices.IndexFunc(out.Topics, func(x model.Topic) bool { return x.Topic == dt.Topic })
		if i < 0 {
			out.Topics = append(out.Topics, dt)
		} else {
			out.Topics[i] = dt
		}
	}
	return &out
}

// lagHistory keeps each group's total lag over the full snapshots seen in this
// session, for the sparkline and trend arrow.
type lagHistory struct {
	keep int
	byGr map[string][]int64
}

func newLagHistory(keep int) *lagHistory {
	return &lagHistory{keep: keep, byGr: map[string][]int64{}}
}

// add appends every group's whole total lag. Groups that could not be read, or
// whose total is only a lower bound, get no point rather than a false one;
// groups that disappeared are forgotten.
func (h *lagHistory) add(s *model.Snapshot) {
	next := make(map[string][]int64, len(s.Groups))
	for i := range s.Groups {
		g := &s.Groups[i]
		vals := h.byGr[g.Group]
		if g.TotalLag != nil {
			vals = append(vals, *g.TotalLag)
			if len(vals) > h.keep {
				vals = slices.Clone(vals[len(vals)-h.keep:])
			}
		}
		next[g.Group] = vals
	}
	h.byGr = next
}

// lags returns the history of one group, oldest first. Callers must not modify it.
func (h *lagHistory) lags(group string) []int64 { return h.byGr[group] }

// cancelable returns a context for the reads that is canceled on quit.
func cancelable() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}
