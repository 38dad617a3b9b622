package views

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// fakeResetter plans with the real planner (plan.Make) over the fixture,
// as internal/reset does over a cluster, and records every call.
type fakeResetter struct {
	mu       sync.Mutex
	plans    []planCall
	executed []plan.Plan
	// readOnly adds the read-only blocker, as a read-only reset.Service does.
	readOnly bool
	// edit changes the state a plan is made from (a commit landing meanwhile).
	edit func(in *plan.Input)
	// result answers Execute; nil applies the plan.
	result func(p plan.Plan) plan.ResetResult
	// ctxErrs records the context's error at each Execute: nil unless the
	// program canceled a reset it was writing.
	ctxErrs []error
	// backups answers Backups.
	backups []plan.Backup
	// untilCancel makes Execute wait for its context's cancel, as reset.Service does while
	// it watches before the backup, and answer cancelled; cancelled records that it was.
	untilCancel bool
	cancelled   bool
}

type planCall struct {
	group string
	scope plan.Scope
	st    plan.Strategy
}

func (f *fakeResetter) Plan(_ context.Context, group string, scope plan.Scope, st plan.Strategy) (plan.Plan, error) {
	if st.Kind == plan.Restore { // the Resetter loads the backup (reset.LoadBackup)
		fh, err := os.Open(st.Raw)
		if err != nil {
			return plan.Plan{}, err
		}
		st, err = plan.FileStrategy(plan.Restore, st.Raw, fh)
		fh.Close()
		if err != nil {
			return plan.Plan{}, err
		}
	}
	if st.Kind == plan.FromGroup && st.Source == nil { // the Resetter reads the source (reset.Service)
		src := fixturePlanInput(st.Raw, plan.Strategy{})
		st = plan.FromGroupStrategy(plan.SourceGroup{Group: st.Raw, Exists: src.GroupExists, Type: model.TypeClassic, Committed: src.Committed})
	}
	f.mu.Lock()
	f.plans = append(f.plans, planCall{group, scope, st})
	edit := f.edit
	f.mu.Unlock()
	in := fixturePlanInput(group, st)
	in.ReadOnly = f.readOnly
	if edit != nil {
		edit(&in)
	}
	return plan.Make(scope, st, in), nil
}

func (f *fakeResetter) Execute(ctx context.Context, p plan.Plan) plan.ResetResult {
	f.mu.Lock()
	f.executed = append(f.executed, p)
	f.ctxErrs = append(f.ctxErrs, ctx.Err())
	result, untilCancel := f.result, f.untilCancel
	f.mu.Unlock()
	if untilCancel {
		<-ctx.Done()
		f.mu.Lock()
		f.cancelled = true
		f.mu.Unlock()
		return plan.ResetResult{Plan: p, Outcome: plan.OutcomeCancelled, Notes: []string{"cancelled: nothing written (no backup, no commit)"}}
	}
	if result != nil {
		return result(p)
	}
	return appliedResult(p)
}

func (f *fakeResetter) Backups(_ context.Context, group string) ([]plan.Backup, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.backups), nil
}

func (f *fakeResetter) calls() ([]planCall, []plan.Plan) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.plans), slices.Clone(f.executed)
}

// appliedResult is what reset.Service returns for a plan applied and verified.
func appliedResult(p plan.Plan) plan.ResetResult {
	backup := "/home/oncall/.local/state/offsettui/" + p.Group + "-20261129T085336.000Z.csv"
	undo := "offsettui reset --bootstrap-server 127.0.0.1:39092 --group " + p.Group + " --restore " + backup + " --execute"
	p.Executed, p.Backup, p.Undo, p.Verified = true, &backup, &undo, model.Ptr(true)
	return plan.ResetResult{Plan: p, Outcome: plan.OutcomeApplied}
}

// fixturePlanInput is the state internal/kafka would read for a plan of group
// on the demo cluster the fixture mirrors.
func fixturePlanInput(group string, st plan.Strategy) plan.Input {
	snap := fixtureSnapshot(fixtureNow, false)
	in := plan.Input{Group: group, Committed: map[model.TP]int64{}, Partitions: map[string]int{}, AllTopicsVisible: model.Ptr(true),
		Offsets: map[model.TP]model.PartitionOffsets{}, TimeOffsets: map[model.TP]int64{}}
	for _, t := range snap.Topics {
		in.Partitions[t.Topic] = t.Partitions
	}
	for _, g := range snap.Groups {
		for _, p := range g.Partitions {
			in.Offsets[p.TP()] = model.PartitionOffsets{Low: p.Low, High: p.High}
		}
		if g.Group != group {
			continue
		}
		in.State, in.GroupExists, in.Members = g.State, true, g.Members
		in.Subscriptions = g.Subscriptions() // as internal/kafka reads them for a plan
		for _, p := range g.Partitions {
			if p.Committed != nil {
				in.Committed[p.TP()] = *p.Committed
			}
		}
	}
	start := fixtureNow.Add(-snapshot - uptime)
	topics := fixtureTopics()
	in.TargetTimestamps = map[model.TPO]time.Time{}
	for tp, o := range in.Offsets {
		for k := *o.Low; k < *o.High; k++ {
			in.TargetTimestamps[model.TPO{TP: tp, Offset: k}] = topics[tp.Topic].at(start, k)
		}
	}
	if !st.Time.IsZero() {
		for tp, o := range in.Offsets {
			in.TimeOffsets[tp] = -1
			for k := *o.Low; k < *o.High; k++ {
				if !topics[tp.Topic].at(start, k).Before(st.Time) {
					in.TimeOffsets[tp] = k
					break
				}
			}
		}
	}
	return in
}

// plannerHarness shows the groups screen with a Resetter wired in.
func plannerHarness(t testing.TB, w, h int, rs Resetter, readOnly bool) (*harness, *clock) {
	clk := newClock()
	opts := optsWith(&fakeSource{now: clk.now}, clk)
	opts.Resetter, opts.ReadOnly = rs, readOnly
	return newHarness(t, opts, w, h), clk
}

// openGroup filters the groups to name and opens it.
func (h *harness) openGroup(name string) *harness {
	return h.send(keyRunes("/")).typeText(name).send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
}

// planner returns the planner on top of the stack, or nil.
func (h *harness) planner() *plannerScreen {
	p, _ := h.m.top().(*plannerScreen)
	return p
}

// rewindShipSvc opens ship-svc's planner and plans --to-offset 1 on its topic.
func (h *harness) rewindShipSvc() *harness {
	return h.openGroup("ship-svc").send(keyRunes("R"), keyRunes("l"), keyType(tea.KeyTab)).typeText("1")
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// chooseKind moves the strategy field to kind k (the planner opens on it).
func (h *harness) chooseKind(k plan.StrategyKind) *harness {
	h.t.Helper()
	for range plannerKinds {
		if h.planner().kindNow() == k {
			return h
		}
		h.send(keyRunes("l"))
	}
	h.t.Fatalf("the planner does not offer %s", k)
	return h
}

// writtenResult is what reset.Service returns for a plan written and read back at its
// targets (a deleted commit reads back as none): each row's result from
// plan.ApplyResults, with the backup and the undo.
func writtenResult(p plan.Plan) plan.ResetResult {
	read := map[model.TP]int64{}
	for _, r := range p.Rows {
		switch {
		case r.Target != nil:
			read[r.TP()] = *r.Target
		case r.Reason == plan.ReasonNoSourceCommit && r.Committed != nil:
			read[r.TP()] = *r.Committed
		}
	}
	outcome := p.ApplyResults(plan.CommitAnswer{Rejected: map[model.TP]model.Error{}}, read)
	res := appliedResult(p)
	res.Outcome = outcome
	return res
}

// subscribedRefusal is what reset.Service returns when the broker refuses deleting every
// commit of a plan: a live group's subscribed topic (GROUP_SUBSCRIBED_TO_TOPIC, as
// internal/kafka words it). Nothing written: no backup, no undo.
func subscribedRefusal(p plan.Plan) plan.ResetResult {
	ans := plan.CommitAnswer{Rejected: map[model.TP]model.Error{}}
	read := map[model.TP]int64{}
	for _, r := range p.Rows {
		e := model.Error{Kind: model.KindBroker, Code: model.Ptr("GROUP_SUBSCRIBED_TO_TOPIC"),
			Message: "delete rejected: the consumer group is actively subscribed to the topic"}
		ans.Rejected[r.TP()] = *e.WithPartition(r.TP()).WithGroup(p.Group)
		read[r.TP()] = *r.Committed
	}
	outcome := p.ApplyResults(ans, read)
	return plan.ResetResult{Plan: p, Outcome: outcome, Notes: []string{"nothing written: the broker refused every partition"}}
}
