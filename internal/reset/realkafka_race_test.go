package reset_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRealKafkaMemberJoinsDuringCommitWindow: the group was Empty when planned
// and when re-read; then a consumer joins and commits its own position before
// the admin commit arrives. Kafka refuses every partition (UNKNOWN_MEMBER_ID):
// the reset is refused with nothing written (exit 3), no undo is printed, and
// the consumer's commits stand.
func TestRealKafkaMemberJoinsDuringCommitWindow(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("race"), realkafka.Name("race-g")
	s.CreateTopic(topic, 2, nil)
	now := time.Now()
	for p := int32(0); p < 2; p++ {
		s.ProduceN(topic, p, 10, func(int) time.Time { return now })
	}
	s.Commit(group, map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 5})
	svc := realService(t, addr)
	svc.UndoCommand = func(g, b string) string { return "undo " + b }
	ctx := realkafka.Ctx(t, 90*time.Second)
	st, err := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := svc.Plan(ctx, group, sc, st)
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p.Blockers, err)
	}
	reset.SetBeforeWrite(svc, func() { joinAndCommit(t, ctx, s.Adm, addr, group, topic, 7) })
	res := svc.Execute(ctx, p)
	if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || res.Plan.Undo != nil || res.Plan.Backup != nil {
		t.Fatalf("outcome %s executed %v undo %v backup %v; want refused, nothing written, no undo\nnotes %v",
			res.Outcome, res.Plan.Executed, res.Plan.Undo, res.Plan.Backup, res.Notes)
	}
	for _, e := range res.Plan.Rejected {
		if e.Code == nil || *e.Code != "UNKNOWN_MEMBER_ID" {
			t.Errorf("rejected %v, want UNKNOWN_MEMBER_ID", e.Error())
		}
	}
	got := s.Committed(group)
	if got[tpOf(topic, 0)] != 7 || got[tpOf(topic, 1)] != 7 {
		t.Errorf("committed %v; want the consumer's 7 on both partitions", got)
	}
}

// joinAndCommit starts a live member of group on topic, waits until the group is
// Stable with it, and commits offset at on both partitions as that member.
func joinAndCommit(t *testing.T, ctx context.Context, adm *kadm.Client, addr, group, topic string, at int64) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(), kgo.ClientID("late-joiner"), kgo.SessionTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	pollCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for pollCtx.Err() == nil {
			cl.PollFetches(pollCtx)
		}
	}()
	t.Cleanup(func() { stop(); <-done; cl.Close() })
	realkafka.WaitUntil(t, 30*time.Second, "the late joiner is a Stable member", func() (bool, string) {
		d, err := adm.DescribeGroups(ctx, group)
		if err != nil {
			return false, err.Error()
		}
		g := d[group]
		return g.State == "Stable" && len(g.Members) == 1, g.State
	})
	offs := map[string]map[int32]kgo.EpochOffset{topic: {0: {Epoch: -1, Offset: at}, 1: {Epoch: -1, Offset: at}}}
	var commitErr error
	cl.CommitOffsetsSync(ctx, offs, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		commitErr = err
	})
	if commitErr != nil {
		t.Fatalf("member commit: %v", commitErr)
	}
}
