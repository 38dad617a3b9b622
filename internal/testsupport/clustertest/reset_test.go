package clustertest

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// observe is how long the CLI's resets watch the group's commits before and after the
// write (--observe, default 10 s): long enough to ask the commits and the commit history
// across the failover, short enough for CI.
const observe = "2s"

// failoverWorld is a topic of three partitions with 20 records each on the cluster.
type failoverWorld struct {
	c      *realcluster.Cluster
	seed   *realkafka.Seed
	topic  string
	before map[model.TP]int64 // each group's commits before its reset
	target map[model.TP]int64 // --to-offset 2
}

func newFailoverWorld(t *testing.T, c *realcluster.Cluster) failoverWorld {
	t.Helper()
	w := failoverWorld{c: c, seed: realkafka.NewSeed(t, c.Bootstrap), topic: realkafka.Name("fo"),
		before: map[model.TP]int64{}, target: map[model.TP]int64{}}
	c.CreateTopic(w.topic, 3, nil)
	for p := range int32(3) {
		w.seed.ProduceN(w.topic, p, 20, func(int) time.Time { return time.Now() })
		w.before[tpOf(w.topic, p)], w.target[tpOf(w.topic, p)] = 5, 2
	}
	return w
}

// judgeReset holds what a reset printed to the group's commits read back directly: a row
// written is at its target, a row rejected where it was; verified only when every row is
// at its target; "applied" only then, "refused" only when nothing moved. The undo (when
// printed) restores exactly the rows that may have been written, to where they were; a
// reset that wrote nothing leaves no backup.
// It reads the commits once the cluster is whole again: nothing else writes them.
func (w failoverWorld) judgeReset(t *testing.T, group string, outcome string, rows map[model.TP]plan.WriteResult, verified *bool, undo *string, dir string) {
	t.Helper()
	truth := realkafka.NewSeed(t, w.c.Bootstrap).Committed(group)
	atTarget := maps.Equal(truth, w.target)
	for tp, r := range rows {
		switch {
		case r == plan.WriteWritten && truth[tp] != w.target[tp]:
			t.Errorf("%s: printed written, read back %d, target %d", tp, truth[tp], w.target[tp])
		case r == plan.WriteRejected && truth[tp] != w.before[tp]:
			t.Errorf("%s: printed rejected (not written), read back %d, was %d", tp, truth[tp], w.before[tp])
		}
	}
	if verified != nil && *verified != atTarget {
		t.Errorf("verified %v, but the commits read back are %v (target %v)", *verified, truth, w.target)
	}
	switch {
	case outcome == string(plan.OutcomeApplied) && !atTarget:
		t.Errorf("printed applied, the commits read back are %v", truth)
	case outcome == string(plan.OutcomeRefused) && !maps.Equal(truth, w.before):
		t.Errorf("printed refused (nothing written), the commits read back are %v", truth)
	}
	if outcome == string(plan.OutcomeRefused) {
		if undo != nil || len(backupFiles(t, dir)) > 0 {
			t.Errorf("refused, yet undo %v and files %v left", undo, backupFiles(t, dir))
		}
		return
	}
	if undo == nil {
		t.Fatalf("outcome %s without an undo", outcome)
	}
	b, err := reset.LoadBackup(undoFile(t, *undo), "")
	if err != nil {
		t.Fatal(err)
	}
	inUndo := map[model.TP]bool{}
	for _, row := range b.Rows {
		tp := tpOf(row.Topic, row.Partition)
		inUndo[tp] = true
		if row.Offset == nil || *row.Offset != w.before[tp] {
			t.Errorf("the undo sets %s to %v; it was %d", tp, fmtInt(row.Offset), w.before[tp])
		}
		if rows[tp] == plan.WriteRejected {
			t.Errorf("the undo holds %s, which was not written", tp)
		}
	}
	for tp, r := range rows {
		if r != plan.WriteRejected && !inUndo[tp] {
			t.Errorf("%s may have been written (%s), the undo lacks it", tp, r)
		}
	}
}

func undoFile(t *testing.T, undo string) string {
	t.Helper()
	f := strings.Fields(undo)
	for i, a := range f {
		if a == "--restore" && i+1 < len(f) {
			return f[i+1]
		}
	}
	t.Fatalf("undo %q names no file", undo)
	return ""
}

// retry runs the same reset again once the cluster is whole: it finds the targets in
// place (exit 3, nothing to reset) or writes them (exit 0, verified); the commits end at
// the targets either way, never moved twice.
func (w failoverWorld) retry(t *testing.T, group string) {
	t.Helper()
	seed := realkafka.NewSeed(t, w.c.Bootstrap)
	var (
		code int
		r    resetResult
	)
	// A leader elected a moment ago answers OFFSET_NOT_AVAILABLE until its high watermark is
	// known, and the reset refuses to plan without watermarks: that refusal must write
	// nothing, and the reset is run again until the cluster answers.
	for deadline := time.Now().Add(30 * time.Second); ; {
		before := seed.Committed(group)
		code, r = runReset(t, "--bootstrap-server", w.c.Bootstrap, "--timeout", "3s", "--backup-dir", t.TempDir(),
			"--group", group, "--to-offset", "2", "--all-topics", "--execute", "--observe", observe)
		if code != exitBlocked || !onlyUnknownOffsets(r.Blockers) || time.Now().After(deadline) {
			break
		}
		if got := seed.Committed(group); !maps.Equal(got, before) {
			t.Errorf("a reset refused for unknown watermarks changed the commits from %v to %v", before, got)
		}
		t.Logf("the retried reset was refused for watermarks not known yet (%s); again in 1s", r.Blockers[0].Message)
		time.Sleep(time.Second)
	}
	nothing := code == exitBlocked && len(r.Blockers) == 1 && r.Blockers[0].Kind == plan.BlockNothingToReset
	applied := code == exitOK && r.Verified != nil && *r.Verified
	if !nothing && !applied {
		t.Errorf("the retried reset: exit %d blockers %v verified %v; want 3 (nothing to reset) or 0 (verified)", code, r.Blockers, r.Verified)
	}
	if got := seed.Committed(group); !maps.Equal(got, w.target) {
		t.Errorf("after the retry the commits read back are %v, want %v", got, w.target)
	}
}

// onlyUnknownOffsets reports whether every blocker is watermarks not read.
func onlyUnknownOffsets(bs []plan.Blocker) bool {
	for _, b := range bs {
		if b.Kind != plan.BlockUnknownOffsets {
			return false
		}
	}
	return len(bs) > 0
}

// TestRealClusterResetCoordinatorFailover: the coordinator of the group being reset is
// killed (kill -9) between the plan and its execution (the reset service as the TUI's
// planner uses it: plan, confirm, execute), and once between the commit and its answer (the answer held by a fault
// proxy while the node dies). What offsettui prints equals the commits read back
// directly, the undo holds only what may have been written, and the same reset run
// again once the cluster is whole is refused as nothing to reset or writes the targets:
// never a second move.
func TestRealClusterResetCoordinatorFailover(t *testing.T) {
	c := realcluster.Get(t)
	w := newFailoverWorld(t, c)
	ctx := context.Background()

	t.Run("between plan and execute", func(t *testing.T) {
		group := realkafka.Name("fo-plan")
		w.seed.Commit(group, w.before)
		coord := c.Coordinator(group)
		cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: strings.Split(c.Bootstrap, ","), Timeout: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		dir := t.TempDir()
		// The reset service as the TUI's planner uses it: plan, confirm, execute.
		rs := &reset.Service{Cluster: cl, ClusterName: func() string { return c.Bootstrap }, BackupDir: dir,
			UndoCommand: func(group, backup string) string {
				return "offsettui reset --bootstrap-server " + c.Bootstrap + " --group " + group + " --restore " + backup + " --execute"
			}}
		st, err := plan.ParseStrategy(plan.ToOffset, "2", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		pl, err := rs.Plan(ctx, group, plan.Scope{AllTopics: true}, st)
		if err != nil || !pl.Executable() {
			t.Fatalf("plan: %v, blockers %v", err, pl.Blockers)
		}
		c.Kill(coord)
		start := time.Now()
		res := rs.Execute(ctx, pl)
		t.Logf("coordinator %d killed after the plan: %s in %v (%s)", coord, res.Outcome, time.Since(start).Round(time.Millisecond),
			strings.Join(res.Notes, "; "))
		rows := map[model.TP]plan.WriteResult{}
		for _, r := range res.Plan.Rows {
			rows[tpOf(r.Topic, r.Partition)] = r.Result
		}
		c.Start(coord)
		c.WaitInSync(true)
		w.judgeReset(t, group, string(res.Outcome), rows, res.Plan.Verified, res.Plan.Undo, dir)
		w.retry(t, group)
	})

	t.Run("between the commit and its answer", func(t *testing.T) {
		group := realkafka.Name("fo-commit")
		w.seed.Commit(group, w.before)
		coord := c.Coordinator(group)
		var addrs []string
		for _, id := range []int32{1, 2, 3} {
			addrs = append(addrs, c.Nodes[id])
		}
		p := faultproxy.New(t, addrs)
		p.Add(faultproxy.Rule{Broker: coord, Key: kmsg.OffsetCommit, Action: faultproxy.StallAfter, Times: 1})
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			for p.Requests(coord, kmsg.OffsetCommit) == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			c.Kill(coord)
		}()
		dir := t.TempDir()
		code, r := runReset(t, "--bootstrap-server", strings.Join(p.Addrs(), ","), "--timeout", "3s", "--backup-dir", dir,
			"--group", group, "--to-offset", "2", "--all-topics", "--execute", "--observe", observe)
		<-killed
		outcome := map[int]string{exitOK: string(plan.OutcomeApplied), exitBlocked: string(plan.OutcomeRefused),
			exitPartly: string(plan.OutcomePartlyApplied), exitFailure: string(plan.OutcomeFailed),
			exitOverwritten: string(plan.OutcomeOverwritten)}[code]
		t.Logf("coordinator %d killed with the commit's answer on its way: exit %d (%s), verified %v", coord, code, outcome, r.Verified)
		if p.Requests(coord, kmsg.OffsetCommit) != 1 {
			t.Errorf("%d commits reached the coordinator, want 1: a commit without an answer is never sent again", p.Requests(coord, kmsg.OffsetCommit))
		}
		c.Start(coord)
		c.WaitInSync(true)
		w.judgeReset(t, group, outcome, r.results(), r.Verified, r.Undo, dir)
		w.retry(t, group)
	})
	t.Logf("went through %s", c.Tally())
	if tally := c.Tally(); tally.Kills != 2 || tally.CoordinatorMoves == 0 {
		t.Errorf("went through %s; want two kills and coordinators moving", tally)
	}
}
