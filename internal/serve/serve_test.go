package serve

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// scripted is a Source that answers with what the test set last.
type scripted struct {
	snap model.Snapshot
	err  error
}

func (s *scripted) Snapshot(context.Context, model.Query) (model.Snapshot, error) {
	if s.err != nil {
		return model.Snapshot{}, s.err
	}
	snap := s.snap
	snap.Groups = slices.Clone(s.snap.Groups) // Annotate writes into the groups
	for i := range snap.Groups {
		snap.Groups[i].Partitions = slices.Clone(snap.Groups[i].Partitions)
	}
	return snap, nil
}

// fixedClock is a clock the test moves by hand.
type fixedClock struct{ now time.Time }

func (c *fixedClock) clock() sampler.Clock {
	return sampler.Clock{Now: func() time.Time { return c.now }, Sleep: func(context.Context, time.Duration) error { return nil }}
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newTestExporter(t *testing.T, src Source, clk *fixedClock, maxParts int) *Exporter {
	t.Helper()
	e, err := New(Options{Targets: []Target{{Cluster: "prod", Source: src}}, Interval: 30 * time.Second,
		Deadline: 20 * time.Second, MaxPartitionSeries: maxParts, Clock: clk.clock()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// get returns the status and body of path.
func get(t *testing.T, e *Exporter, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}

// lines returns the series lines of /metrics that start with prefix.
func lines(t *testing.T, e *Exporter, prefix string) []string {
	t.Helper()
	code, body := get(t, e, "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	var out []string
	for l := range strings.SplitSeq(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func has(ls []string, want string) bool { return slices.Contains(ls, want) }

func part(topic string, p int32, committed, high int64, st model.Status) model.GroupPartition {
	gp := model.GroupPartition{Topic: topic, Partition: p, Committed: model.Ptr(committed), High: model.Ptr(high),
		Low: model.Ptr(int64(0)), Lag: model.Ptr(high - committed), Status: st}
	if committed == high {
		gp.TimeLagMs = model.Ptr(int64(0))
	}
	return gp
}

func snapshotAt(at time.Time, groups ...model.Group) model.Snapshot {
	return model.Snapshot{Cluster: model.Cluster{Bootstrap: "k:9092", TakenAt: model.Stamp{Time: at}}, Groups: groups}
}

func group(name string, members int, parts ...model.GroupPartition) model.Group {
	g := model.Group{Group: name, Type: model.TypeClassic, State: "Stable", Members: make([]model.Member, members), Partitions: parts}
	var lag int64
	for _, p := range parts {
		lag += max(0, model.Deref(p.Lag))
	}
	g.TotalLag = &lag
	return g
}

// A cluster that cannot be read shows offsettui_up 0 and none of its group
// or partition series — never the last good values — and its series come
// back with the next snapshot that is read, from the same exporter.
func TestFailedSnapshotDropsSeries(t *testing.T) {
	clk := &fixedClock{now: t0}
	src := &scripted{snap: snapshotAt(t0, group("billing", 1, part("orders", 0, 90, 100, model.StatusExpired)))}
	e := newTestExporter(t, src, clk, 0)
	p := e.pollers[0]

	p.take(t.Context())
	if got := lines(t, e, "offsettui_"); !has(got, `offsettui_up{cluster="prod"} 1`) ||
		!has(got, `offsettui_group_lag{cluster="prod",group="billing",type="classic"} 10`) ||
		!has(got, `offsettui_partition_status{cluster="prod",group="billing",partition="0",status="expired",topic="orders",type="classic"} 1`) {
		t.Fatalf("after a snapshot read:\n%s", strings.Join(got, "\n"))
	}

	clk.now = t0.Add(30 * time.Second)
	src.err = errors.New("no broker answered ListGroups: broker 1 (unreachable): connection refused")
	p.take(t.Context())
	got := lines(t, e, "offsettui_")
	if !has(got, `offsettui_up{cluster="prod"} 0`) || !has(got, `offsettui_snapshot_failures_total{cluster="prod",reason="read"} 1`) ||
		!has(got, `offsettui_snapshots_total{cluster="prod"} 2`) {
		t.Errorf("after a failed snapshot, want up 0 and the failure counted:\n%s", strings.Join(got, "\n"))
	}
	for _, l := range got {
		if strings.HasPrefix(l, "offsettui_group_") || strings.HasPrefix(l, "offsettui_partition_") || strings.HasPrefix(l, "offsettui_snapshot_errors") {
			t.Errorf("a series of the last good snapshot is still served: %s", l)
		}
	}
	if !has(got, `offsettui_last_success_timestamp_seconds{cluster="prod"} 1.79604e+09`) {
		t.Errorf("the last success's time is kept:\n%s", strings.Join(got, "\n"))
	}

	clk.now = t0.Add(60 * time.Second)
	src.err, src.snap = nil, snapshotAt(clk.now, group("billing", 1, part("orders", 0, 95, 100, model.StatusOK)))
	p.take(t.Context())
	if got := lines(t, e, "offsettui_"); !has(got, `offsettui_up{cluster="prod"} 1`) ||
		!has(got, `offsettui_group_lag{cluster="prod",group="billing",type="classic"} 5`) {
		t.Errorf("after the cluster came back:\n%s", strings.Join(got, "\n"))
	}
}

// A deadline that ran out is a timeout; a connection that could not be made
// is connect.
func TestFailureReasons(t *testing.T) {
	expired, cancel := context.WithDeadline(t.Context(), t0)
	defer cancel()
	for _, c := range []struct {
		err  error
		ctx  context.Context
		want string
	}{
		{context.DeadlineExceeded, t.Context(), reasonTimeout},
		{errors.New("list groups: i/o"), expired, reasonTimeout},
		{errors.Join(ErrNotConnected, errors.New("connect to k:9092: refused")), t.Context(), reasonConnect},
		{errors.New("no broker answered ListGroups"), t.Context(), reasonRead},
	} {
		if got := failureReason(c.ctx, c.err); got != c.want {
			t.Errorf("%v: reason %q, want %q", c.err, got, c.want)
		}
	}
}

// A lag that cannot be read whole is absent, never 0, and says so in
// offsettui_group_lag_known; so are the records lost and the lag in seconds.
func TestUnknownLagIsAbsent(t *testing.T) {
	clk := &fixedClock{now: t0}
	g := group("audit", 0, part("orders", 0, 10, 100, model.StatusOK), model.GroupPartition{Topic: "orders", Partition: 1,
		Committed: model.Ptr(int64(5)), Status: model.StatusUnknown})
	g.TotalLag, g.TotalLagAtLeast = nil, model.Ptr(int64(90))
	e := newTestExporter(t, &scripted{snap: snapshotAt(t0, g)}, clk, 0)
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_group_")
	if !has(got, `offsettui_group_lag_known{cluster="prod",group="audit",type="classic"} 0`) {
		t.Errorf("want lag_known 0:\n%s", strings.Join(got, "\n"))
	}
	for _, l := range got {
		for _, absent := range []string{"offsettui_group_lag{", "offsettui_group_lost_records{", "offsettui_group_lag_seconds{"} {
			if strings.HasPrefix(l, absent) {
				t.Errorf("unknown, so absent: %s", l)
			}
		}
	}
	if !has(got, `offsettui_group_partitions{cluster="prod",group="audit",status="unknown",type="classic"} 1`) {
		t.Errorf("the unknown partition is counted:\n%s", strings.Join(got, "\n"))
	}
}

// The group's lag in seconds is its oldest unread record's age; unknown when
// a lagging partition's time lag is.
func TestGroupLagSeconds(t *testing.T) {
	a, b := part("t", 0, 90, 100, model.StatusOK), part("t", 1, 50, 100, model.StatusOK)
	a.TimeLagMs = model.Ptr(int64(2000))
	b.TimeLagMs = model.Ptr(int64(7500))
	caughtUp := part("t", 2, 100, 100, model.StatusOK)
	missing := model.GroupPartition{Topic: "t", Partition: 3, High: model.Ptr(int64(100)), Status: model.StatusMissing}
	g := group("g", 1, a, b, caughtUp, missing)
	if got := groupLagSeconds(&g); !got.OK || got.V != 7.5 {
		t.Errorf("got %+v, want 7.5", got)
	}
	g.Partitions[0].TimeLagMs = nil
	if got := groupLagSeconds(&g); got.OK {
		t.Errorf("a lagging partition's time lag unknown: got %+v, want absent", got)
	}
}

// Time to caught up: the number when known, +Inf when the group does not catch
// up at this rate, absent when unknown.
func TestETASeconds(t *testing.T) {
	for _, c := range []struct {
		state model.ETAState
		ms    model.Opt[int64]
		want  model.Opt[float64]
	}{
		{model.ETACatchingUp, model.Some(int64(1500)), model.Some(1.5)},
		{model.ETACaughtUp, model.Some(int64(0)), model.Some(0.0)},
		{model.ETANever, model.Opt[int64]{}, model.Some(math.Inf(1))},
		{model.ETAStalled, model.Opt[int64]{}, model.Some(math.Inf(1))},
		{model.ETARewound, model.Opt[int64]{}, model.Opt[float64]{}},
		{model.ETANone, model.Opt[int64]{}, model.Opt[float64]{}},
	} {
		if got := etaSeconds(c.state, c.ms); got != c.want {
			t.Errorf("%v %+v: got %+v, want %+v", c.state, c.ms, got, c.want)
		}
	}
}

// Partitions get series of their own only when they are not ok, at most
// --max-partition-series of them per cluster, the most severe first; those
// left out are counted.
func TestPartitionSeriesBounded(t *testing.T) {
	clk := &fixedClock{now: t0}
	snap := snapshotAt(t0,
		group("a", 1, part("t", 0, 100, 100, model.StatusOK), part("t", 1, 90, 100, model.StatusAtRisk)),
		group("b", 0, part("t", 0, 5, 100, model.StatusExpired), part("t", 1, 100, 100, model.StatusOK)))
	snap.Groups[1].Partitions[0].SetLost(model.Ptr(int64(20)))
	e := newTestExporter(t, &scripted{snap: snap}, clk, 1)
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_partition_")
	want := []string{
		`offsettui_partition_lag{cluster="prod",group="b",partition="0",topic="t",type="classic"} 95`,
		`offsettui_partition_lost_records{cluster="prod",group="b",partition="0",topic="t",type="classic"} 20`,
		`offsettui_partition_series_left_out{cluster="prod"} 1`,
		`offsettui_partition_status{cluster="prod",group="b",partition="0",status="expired",topic="t",type="classic"} 1`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The time axis is the project's own: rates from the second snapshot on,
// none from the first.
func TestRatesFromTheSecondSnapshot(t *testing.T) {
	clk := &fixedClock{now: t0}
	src := &scripted{snap: snapshotAt(t0, group("g", 1, part("t", 0, 100, 200, model.StatusOK)))}
	e := newTestExporter(t, src, clk, 0)
	e.pollers[0].take(t.Context())
	if got := lines(t, e, "offsettui_group_consume_rate"); len(got) != 0 {
		t.Errorf("one snapshot shows no rate: %v", got)
	}
	clk.now = t0.Add(10 * time.Second)
	src.snap = snapshotAt(clk.now, group("g", 1, part("t", 0, 150, 230, model.StatusOK)))
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_group_")
	for _, w := range []string{
		`offsettui_group_consume_rate{cluster="prod",group="g",type="classic"} 5`,
		`offsettui_group_produce_rate{cluster="prod",group="g",type="classic"} 3`,
		`offsettui_group_lag_rate{cluster="prod",group="g",type="classic"} -2`,
		`offsettui_group_eta_seconds{cluster="prod",group="g",type="classic"} 40`,
		`offsettui_group_evaluation{cluster="prod",evaluation="ok",group="g",type="classic"} 1`,
	} {
		if !has(got, w) {
			t.Errorf("missing %s in\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// /readyz turns ready when every cluster's first snapshot has ended, read or
// failed; /healthz fails only when snapshots stop ending.
func TestProbes(t *testing.T) {
	clk := &fixedClock{now: t0}
	src := &scripted{err: errors.New("connect to k:9092: connection refused")}
	e := newTestExporter(t, src, clk, 0)
	if code, body := get(t, e, "/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "prod") {
		t.Errorf("before the first snapshot: %d %q", code, body)
	}
	if got := lines(t, e, "offsettui_up"); len(got) != 0 {
		t.Errorf("up is not known before the first snapshot: %v", got)
	}
	e.pollers[0].take(t.Context())
	if code, _ := get(t, e, "/readyz"); code != http.StatusOK {
		t.Errorf("after a failed first snapshot: %d, want 200 (offsettui_up 0 is the truth to serve)", code)
	}
	if code, _ := get(t, e, "/healthz"); code != http.StatusOK {
		t.Errorf("healthz: %d", code)
	}
	clk.now = t0.Add(3*(30*time.Second+20*time.Second) + time.Second)
	if code, body := get(t, e, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "prod") {
		t.Errorf("no snapshot ended for too long: %d %q", code, body)
	}
}

// The metric names and help pass Prometheus' own linter.
func TestMetricsLint(t *testing.T) {
	clk := &fixedClock{now: t0}
	e := newTestExporter(t, &scripted{snap: snapshotAt(t0, group("g", 1, part("t", 0, 1, 2, model.StatusAtRisk)))}, clk, 0)
	e.pollers[0].take(t.Context())
	problems, err := testutil.GatherAndLint(&gatherer{pollers: e.pollers, runtime: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// The commit-expiry clock's series: the time until the first commit may go, known when its
// base time was read, the latest it can come when not, 0 when due; absent when no commit
// expires in the group's state.
func TestCommitsExpireSeconds(t *testing.T) {
	known, latest, due, never := group("known", 0, part("t", 0, 1, 5, model.StatusOK)), group("latest", 0, part("t", 0, 1, 5, model.StatusOK)),
		group("due", 0, part("t", 0, 1, 5, model.StatusOK)), group("never", 0, part("t", 0, 1, 5, model.StatusOK))
	known.CommitsExpireAt, known.CommitsExpiry = &model.Stamp{Time: t0.Add(90 * time.Minute)}, &model.CommitExpiry{Rule: model.ExpiryCommitTime}
	latest.CommitsExpiry = &model.CommitExpiry{Rule: model.ExpiryEmptyTime, UnknownTime: model.ExpiryEmptyTime, Latest: &model.Stamp{Time: t0.Add(7 * 24 * time.Hour)}}
	due.CommitsExpireAt, due.CommitsExpiry = &model.Stamp{Time: t0.Add(-time.Minute)}, &model.CommitExpiry{Rule: model.ExpiryCommitTime}
	never.CommitsExpiry = &model.CommitExpiry{Rule: model.ExpiryNever}
	e := newTestExporter(t, &scripted{snap: snapshotAt(t0, known, latest, due, never)}, &fixedClock{now: t0}, 0)
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_group_commits_expire_seconds")
	want := []string{ // in the snapshot's order
		`offsettui_group_commits_expire_seconds{basis="known",cluster="prod",group="known",type="classic"} 5400`,
		`offsettui_group_commits_expire_seconds{basis="latest",cluster="prod",group="latest",type="classic"} 604800`,
		`offsettui_group_commits_expire_seconds{basis="known",cluster="prod",group="due",type="classic"} 0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A group's state and members are series of their own; its time to loss is absent when
// nothing is predicted lost; the items a snapshot could not read are counted by kind; and a
// partition whose status is ok gets series of its own once its live consumer stalls.
func TestStateErrorsLossAndStalledPartitions(t *testing.T) {
	clk := &fixedClock{now: t0}
	snap := snapshotAt(t0, group("billing", 1, part("orders", 0, 100, 200, model.StatusOK)))
	snap.Errors = []model.Error{{Kind: model.KindDenied, Message: "topic secret: TOPIC_AUTHORIZATION_FAILED"},
		{Kind: model.KindDenied, Message: "group hr: GROUP_AUTHORIZATION_FAILED"}, {Kind: model.KindTimeout, Message: "broker 2"}}
	src := &scripted{snap: snap}
	e := newTestExporter(t, src, clk, 0)
	e.pollers[0].take(t.Context())
	got := lines(t, e, "offsettui_")
	for _, w := range []string{
		`offsettui_group_state{cluster="prod",group="billing",state="Stable",type="classic"} 1`,
		`offsettui_group_members{cluster="prod",group="billing",type="classic"} 1`,
		`offsettui_snapshot_errors{cluster="prod",kind="denied"} 2`,
		`offsettui_snapshot_errors{cluster="prod",kind="timeout"} 1`,
		`offsettui_snapshot_errors{cluster="prod",kind="unreachable"} 0`,
	} {
		if !has(got, w) {
			t.Errorf("missing %s in\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, l := range got {
		if strings.HasPrefix(l, "offsettui_group_loss_seconds{") || strings.HasPrefix(l, "offsettui_partition_") && !strings.HasPrefix(l, "offsettui_partition_series_left_out") {
			t.Errorf("nothing is lost and every partition is ok, yet: %s", l)
		}
	}

	// The member stays, the commit does not move for longer than --stall-after.
	clk.now = t0.Add(timeaxis.DefaultStallAfter + 10*time.Second)
	src.snap = snapshotAt(clk.now, group("billing", 1, part("orders", 0, 100, 230, model.StatusOK)))
	e.pollers[0].take(t.Context())
	got = lines(t, e, "offsettui_partition_status")
	if !has(got, `offsettui_partition_status{cluster="prod",group="billing",partition="0",status="ok",topic="orders",type="classic"} 1`) {
		t.Errorf("a stalled partition of status ok has no series of its own:\n%s", strings.Join(got, "\n"))
	}
}
