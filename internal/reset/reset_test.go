package reset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// env is a demo cluster, a service on it, an independent franz-go client to read
// the truth, and a counter of OffsetCommit and OffsetDelete requests.
type env struct {
	d    *demo.Cluster
	svc  *Service
	seed *kafkatest.Seed
	reqs *kafkatest.RequestCounter
}

func newEnv(t *testing.T) *env {
	t.Helper()
	d, err := demo.Start(context.Background(), demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: d.Bootstrap(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	e := &env{d: d, seed: kafkatest.NewSeed(t, d.Bootstrap()),
		svc: &Service{Cluster: c, ClusterName: func() string { return "test" }, BackupDir: t.TempDir(),
			UndoCommand: func(g, b string) string { return "offsettui reset --group " + g + " --restore " + b + " --execute" }},
		reqs: kafkatest.CountRequests(d.Fake(), kmsg.OffsetCommit, kmsg.OffsetDelete),
	}
	return e
}

// truth reads a group's commits with franz-go, not with internal/kafka.
func (e *env) truth(t *testing.T, group string) map[model.TP]int64 {
	t.Helper()
	return e.seed.Committed(group)
}

// commits and deletes are the OffsetCommit and OffsetDelete requests the broker
// has received.
func (e *env) commits() int { return e.reqs.Hits(kmsg.OffsetCommit) }
func (e *env) deletes() int { return e.reqs.Hits(kmsg.OffsetDelete) }

func mustScope(t *testing.T, all bool, topics ...string) plan.Scope {
	t.Helper()
	s, err := plan.NewScope(all, topics, plan.ToOffset)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func strategy(t *testing.T, k plan.StrategyKind, v string) plan.Strategy {
	t.Helper()
	st, err := plan.ParseStrategy(k, v, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func tp(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

func TestExecuteSetsPlannedOffsets(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, false, "shipments"), strategy(t, plan.ToOffset, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Executable() || p.Totals.Duplicates != 2 || p.Rows[0].TargetTimestamp == nil {
		t.Fatalf("plan: %+v", p)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeApplied || res.Plan.Verified == nil || !*res.Plan.Verified || res.Plan.Backup == nil || res.Plan.Undo == nil {
		t.Fatalf("result: %+v", res)
	}
	if got := e.truth(t, "ship-svc")[tp("shipments", 0)]; got != 1 {
		t.Errorf("committed after reset = %d, want 1", got)
	}
	b, err := os.ReadFile(*res.Plan.Backup)
	if err != nil || string(b) != "shipments,0,3\n" {
		t.Errorf("backup = %q (%v), want the previous offset", b, err)
	}
	if bk, err := LoadBackup(*res.Plan.Backup, ""); err != nil || bk.Manifest.Group != "ship-svc" || bk.Manifest.ClusterID == nil {
		t.Errorf("backup manifest %+v (%v)", bk.Manifest, err)
	}
	if ev := auditEvents(t, e.svc.BackupDir); strings.Join(ev, ",") != "intent,outcome:applied" {
		t.Errorf("audit events %v", ev)
	}
	// What a restore from the TUI offers: the backup just written.
	if bs, err := e.svc.Backups("ship-svc"); err != nil || len(bs) != 1 || bs[0].Path != *res.Plan.Backup {
		t.Errorf("Backups = %+v, %v; want the backup written", bs, err)
	}
}

func TestLiveGroupRefusedBeforeAnythingIsSent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "billing", mustScope(t, true), strategy(t, plan.ToEarliest, ""))
	if err != nil {
		t.Fatal(err)
	}
	if p.Executable() || p.Blockers[0].Kind != plan.BlockGroupNotEmpty || !strings.Contains(p.Blockers[0].Message, "offsettui-demo-billing") {
		t.Fatalf("blockers = %+v; want group-not-empty naming the member", p.Blockers)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed {
		t.Errorf("outcome %s executed %v", res.Outcome, res.Plan.Executed)
	}
	if n := e.commits(); n != 0 {
		t.Errorf("%d OffsetCommit requests reached the broker, want 0", n)
	}
	if got := e.truth(t, "billing")[tp("orders", 0)]; got != 95 {
		t.Errorf("billing orders-0 = %d, want 95 untouched", got)
	}
}

func TestCommitBetweenPlanAndExecuteAborts(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "r11-trace", mustScope(t, true), strategy(t, plan.ToEarliest, ""))
	if err != nil {
		t.Fatal(err)
	}
	e.svc.beforeCommit = func() {
		o := kadm.Offsets{}
		o.Add(kadm.Offset{Topic: "r11.trace", Partition: 0, At: 7, LeaderEpoch: -1})
		if _, err := e.seed.Adm.CommitOffsets(ctx, "r11-trace", o); err != nil {
			t.Error(err)
		}
	}
	before := e.commits()
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || res.Plan.Backup != nil {
		t.Fatalf("result: %+v", res)
	}
	drift := false
	for _, b := range res.Plan.Blockers {
		drift = drift || (b.Kind == plan.BlockDrift && strings.Contains(b.Message, "5 to 7"))
	}
	if !drift {
		t.Errorf("blockers %+v; want drift naming 5 to 7", res.Plan.Blockers)
	}
	if n := e.commits() - before; n != 1 { // the test's own commit only
		t.Errorf("%d OffsetCommit requests after the plan, want only the test's 1", n)
	}
	if got := e.truth(t, "r11-trace")[tp("r11.trace", 0)]; got != 7 {
		t.Errorf("committed = %d, want 7 (the concurrent commit, untouched)", got)
	}
}

func TestRestorePutsBackPreviousOffsetsAndDeletes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	before := e.truth(t, "audit-export")
	if _, has := before[tp("orders", 5)]; has {
		t.Fatal("demo changed: audit-export orders-5 should have no commit")
	}
	p, err := e.svc.Plan(ctx, "audit-export", mustScope(t, false, "orders"), strategy(t, plan.ToLatest, ""))
	if err != nil {
		t.Fatal(err)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeApplied {
		t.Fatalf("reset: %+v", res)
	}
	if got := e.truth(t, "audit-export")[tp("orders", 5)]; got != 100 {
		t.Fatalf("orders-5 after to-latest = %d, want 100", got)
	}
	bk, err := LoadBackup(*res.Plan.Backup, "")
	if err != nil {
		t.Fatal(err)
	}
	rp, err := e.svc.PlanRestore(ctx, "audit-export", bk, RestoreOptions{})
	if err != nil || !rp.Executable() {
		t.Fatalf("restore plan %+v, %v", rp.Blockers, err)
	}
	rres := e.svc.Execute(ctx, rp)
	if rres.Outcome != plan.OutcomeApplied {
		t.Fatalf("restore: %+v", rres)
	}
	after := e.truth(t, "audit-export")
	if len(after) != len(before) {
		t.Errorf("after restore %v, want %v", after, before)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s = %d after restore, want %d", k, after[k], v)
		}
	}
	if e.deletes() != 1 {
		t.Errorf("OffsetDelete requests = %d, want 1", e.deletes())
	}
}

func TestReadOnlyRefuses(t *testing.T) {
	e := newEnv(t)
	e.svc.ReadOnly = true
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, true), strategy(t, plan.ToEarliest, ""))
	if err != nil {
		t.Fatal(err)
	}
	if p.Executable() {
		t.Fatal("read-only plan is executable")
	}
	p.Blockers = nil // even a plan forced past the planner's blocker is refused
	if res := e.svc.Execute(ctx, p); res.Outcome != plan.OutcomeRefused || res.Plan.Executed {
		t.Errorf("outcome %s", res.Outcome)
	}
	if e.commits() != 0 {
		t.Errorf("OffsetCommit sent in read-only mode")
	}
}

func TestUnwritableBackupMeansNoCommit(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e.svc.BackupDir = filepath.Join(file, "backups")
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, true), strategy(t, plan.ToEarliest, ""))
	if err != nil {
		t.Fatal(err)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || e.commits() != 0 {
		t.Errorf("outcome %s executed %v commits %d; want refused with nothing sent", res.Outcome, res.Plan.Executed, e.commits())
	}
	if got := e.truth(t, "ship-svc")[tp("shipments", 0)]; got != 3 {
		t.Errorf("committed = %d, want 3", got)
	}
}

func TestPartlyRejectedCommitIsReported(t *testing.T) {
	e := newEnv(t)
	e.d.Fake().Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{3},
		Err: kerr.TopicAuthorizationFailed, Count: -1})
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "audit-export", mustScope(t, false, "orders"), strategy(t, plan.ToLatest, ""))
	if err != nil {
		t.Fatal(err)
	}
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomePartlyApplied {
		t.Fatalf("outcome %s, want partly-applied", res.Outcome)
	}
	if len(res.Plan.Rejected) != 1 || *res.Plan.Rejected[0].Partition != 3 || res.Plan.Rejected[0].Kind != model.KindDenied {
		t.Errorf("rejected = %+v, want orders-3 denied", res.Plan.Rejected)
	}
	if res.Plan.Verified == nil || *res.Plan.Verified {
		t.Errorf("verified = %v, want false (orders-3 kept 70)", res.Plan.Verified)
	}
	truth := e.truth(t, "audit-export")
	if truth[tp("orders", 3)] != 70 || truth[tp("orders", 0)] != 100 {
		t.Errorf("truth = %v; want orders-3 untouched at 70 and orders-0 at 100", truth)
	}
}

// TestAdminCommitOnLiveGroupRejectedByBroker: even a commit that skipped every
// offsettui guard cannot land on a live group, because it uses the admin form.
func TestAdminCommitOnLiveGroupRejectedByBroker(t *testing.T) {
	e := newEnv(t)
	rej, err := e.svc.Cluster.CommitOffsets(context.Background(), "billing", map[model.TP]int64{tp("orders", 0): 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rej) != 1 || rej[0].Code == nil || *rej[0].Code != "UNKNOWN_MEMBER_ID" {
		t.Errorf("rejected = %+v, want UNKNOWN_MEMBER_ID", rej)
	}
	if got := e.truth(t, "billing")[tp("orders", 0)]; got != 95 {
		t.Errorf("billing orders-0 = %d, want 95", got)
	}
}

// TestCommitStoresUnknownLeaderEpoch: the admin commit stores leader epoch -1, as
// Kafka's tools do; epoch 0 would make KIP-320 consumers validate their position
// against epoch 0 after a reset.
func TestCommitStoresUnknownLeaderEpoch(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, true), strategy(t, plan.ToOffset, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if res := e.svc.Execute(ctx, p); res.Outcome != plan.OutcomeApplied {
		t.Fatalf("outcome %s", res.Outcome)
	}
	resp, err := e.seed.Adm.FetchOffsets(ctx, "ship-svc")
	if err != nil {
		t.Fatal(err)
	}
	o, ok := resp.Lookup("shipments", 0)
	if !ok || o.At != 1 || o.LeaderEpoch != -1 {
		t.Errorf("committed %+v, want offset 1 with leader epoch -1", o)
	}
}

// TestMemberJoiningBetweenPlanAndExecuteAborts: a consumer that joins after the
// plan was made stops the commit (the group is re-read right before it).
func TestMemberJoiningBetweenPlanAndExecuteAborts(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.svc.Plan(ctx, "ship-svc", mustScope(t, true), strategy(t, plan.ToEarliest, ""))
	if err != nil || !p.Executable() {
		t.Fatalf("plan: %+v, %v", p, err)
	}
	e.svc.beforeCommit = func() {
		cl, err := kgo.NewClient(kgo.SeedBrokers(e.d.Bootstrap()...), kgo.ConsumerGroup("ship-svc"),
			kgo.ConsumeTopics("shipments"), kgo.DisableAutoCommit(), kgo.ClientID("late-joiner"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		cl.PollRecords(ctx, 1) // join
		if _, err := e.d.Fake().WaitGroupStable(ctx, "ship-svc", 1); err != nil {
			t.Fatal(err)
		}
	}
	before := e.commits()
	res := e.svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || e.commits() != before {
		t.Fatalf("outcome %s executed %v commits %d; want refused, nothing sent", res.Outcome, res.Plan.Executed, e.commits()-before)
	}
	named := false
	for _, b := range res.Plan.Blockers {
		named = named || (b.Kind == plan.BlockGroupNotEmpty && strings.Contains(b.Message, "late-joiner"))
	}
	if !named {
		t.Errorf("blockers %+v; want group-not-empty naming late-joiner", res.Plan.Blockers)
	}
	if got := e.truth(t, "ship-svc")[tp("shipments", 0)]; got != 3 {
		t.Errorf("committed = %d, want 3", got)
	}
}
