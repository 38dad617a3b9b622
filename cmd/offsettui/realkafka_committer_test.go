package main

// The guard against committers outside the group (docs/resets.md#committers-outside-the-group)
// against real brokers, Kafka 4.4.0 and the oldest 4.0.0, on shapes built with Kafka's own
// Java clients (test/kafka/Shapes.java): a standalone committer (assign() + commitSync, never
// a member) every 2 s whose commits move the offsets, one every 2 s on an idle topic (the
// same offsets again), one every 30 s, and a group committed once by Kafka's Admin client.
// Each way of seeing a committer is tried on its own (the commit history alone, the watches
// alone, through the reset service) and then as the CLI runs with all of them. Every test
// logs which committer intervals which way caught.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
)

// committerPlan is the part of `reset -o json` these tests read.
type committerPlan struct {
	resetResult
	Committer      *model.Committer `json:"committer"`
	AllowCommitter bool             `json:"allowCommitter"`
}

func (p committerPlan) blockerKinds() []plan.BlockerKind {
	var out []plan.BlockerKind
	for _, b := range p.Blockers {
		out = append(out, b.Kind)
	}
	return out
}

// resetCommitter runs `offsettui reset args... -o json` and returns its exit code, the plan and
// stderr.
func resetCommitter(t *testing.T, args ...string) (int, committerPlan, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := resetMain(append(args, "-o", "json"), &out, &errb)
	var p committerPlan
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatalf("reset %s: exit %d, output is not JSON: %v\n%s\n%s", strings.Join(args, " "), code, err, out.String(), errb.String())
	}
	return code, p, errb.String()
}

// noHistory hides the commit history of a cluster: the reset service then sees a committer
// through its watches only.
type noHistory struct{ reset.Cluster }

// committerService is the reset service on b, seeing a committer only through its commit
// history (observe 0) or only through its watches (history false).
func committerService(t *testing.T, b realkafka.Broker, observe time.Duration, history bool) *reset.Service {
	t.Helper()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{b.Addr}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s := &reset.Service{Cluster: c, ClusterName: func() string { return b.Addr }, BackupDir: t.TempDir(), User: "it", Observe: observe}
	if !history {
		s.Cluster = noHistory{c}
	}
	return s
}

// planEarliest plans --to-earliest --all-topics of group with s.
func planEarliest(t *testing.T, s *reset.Service, group string) plan.Plan {
	t.Helper()
	st, _ := plan.ParseStrategy(plan.ToEarliest, "", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToEarliest)
	p, err := s.Plan(realkafka.Ctx(t, time.Minute), group, sc, st)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func blockedBy(bs []plan.Blocker, k plan.BlockerKind) bool {
	return slices.ContainsFunc(bs, func(b plan.Blocker) bool { return b.Kind == k })
}

// nothingIn fails when dir holds a file: a refused write leaves no backup and no audit line.
func nothingIn(t *testing.T, dir string) {
	t.Helper()
	if es, _ := os.ReadDir(dir); len(es) > 0 {
		t.Errorf("%s holds %d files (%s…): something was prepared for a write", dir, len(es), es[0].Name())
	}
}

func committerText(c *model.Committer) string {
	if c == nil {
		return "none"
	}
	return plan.CommitterText(c)
}

// TestRealKafkaCommitterEvery2s: a committer every 2 s whose commits move the offsets
// (20 records a second). The watch before the write alone refuses it; the commit history
// alone blocks the plan; the CLI refuses --execute with exit 3 and writes nothing; describe
// --sample shows it with its rate, seen in __consumer_offsets and across snapshots.
func TestRealKafkaCommitterEvery2s(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("c2"), realkafka.Name("c2-grp")
		s.CreateTopic(topic, 2, nil)
		c := b.Committer(t, group, topic, 2*time.Second, 20)
		c.Wait(t, "commit", 4, time.Minute)

		// The watch alone (no commit history): the offsets move during it.
		watch := committerService(t, b, 10*time.Second, false)
		p := planEarliest(t, watch, group)
		if !p.Executable() {
			t.Fatalf("without the commit history the plan should pass until the watch: %+v", p.Blockers)
		}
		start := time.Now()
		res := watch.Execute(realkafka.Ctx(t, time.Minute), p)
		if res.Outcome != plan.OutcomeRefused || !blockedBy(res.Plan.Blockers, plan.BlockCommitter) || res.Plan.Committer == nil {
			t.Fatalf("the watch did not refuse the committer: %s %+v", res.Outcome, res.Plan.Blockers)
		}
		t.Logf("%s: every 2 s, moving: the watch before the write caught it in %.1fs: %s", b.Name(), time.Since(start).Seconds(), committerText(res.Plan.Committer))

		// The commit history alone (no watch): the plan itself is blocked.
		logOnly := committerService(t, b, 0, true)
		p = planEarliest(t, logOnly, group)
		if !blockedBy(p.Blockers, plan.BlockCommitter) || p.Committer == nil || !slices.Contains(p.Committer.Seen, model.SeenCommitLog) {
			t.Fatalf("the commit history did not block the plan: %+v", p.Blockers)
		}
		if iv := p.Committer.IntervalMs; !iv.OK || iv.V < 1500 || iv.V > 4000 || p.Committer.Rate <= 0 {
			t.Errorf("committer %+v: want every ~2 s, moving", *p.Committer)
		}
		t.Logf("%s: every 2 s, moving: the commit history caught it: %s", b.Name(), committerText(p.Committer))

		// The CLI: the dry run and --execute are refused, exit 3, nothing written.
		dir := t.TempDir()
		conn := []string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", group, "--to-earliest", "--all-topics"}
		code, dry, _ := resetCommitter(t, conn...)
		if code != exitBlocked || !blockedBy(dry.Blockers, plan.BlockCommitter) {
			t.Errorf("dry run: exit %d, blockers %v", code, dry.blockerKinds())
		}
		code, done, errOut := resetCommitter(t, append(conn, "--execute", "--observe", "10s")...)
		if code != exitBlocked || done.Executed || !blockedBy(done.Blockers, plan.BlockCommitter) || done.Committer == nil {
			t.Errorf("--execute: exit %d, executed %v, blockers %v\n%s", code, done.Executed, done.blockerKinds(), errOut)
		}
		for _, bl := range done.Blockers {
			if bl.Kind == plan.BlockCommitter && !strings.Contains(bl.Message, "Stop the consumer that commits for this group") {
				t.Errorf("the blocker does not name the fix: %s", bl.Message)
			}
		}
		nothingIn(t, dir)
		if got := committed(t, s, group); got[model.TP{Topic: topic, Partition: 0}] == 0 && got[model.TP{Topic: topic, Partition: 1}] == 0 {
			t.Errorf("the group is at the earliest offsets: %v", got)
		}

		// describe --sample: flagged, with the rate, both ways.
		code, snap, _ := describeJSON(t, "--bootstrap-server", b.Addr, "--group", group, "--sample", "10s", "--interval", "2s")
		if code != exitOK || len(snap.Groups) != 1 {
			t.Fatalf("describe: exit %d, %d groups", code, len(snap.Groups))
		}
		g := snap.Groups[0]
		if g.Committer == nil || g.Committer.Rate < 5 || g.Committer.Rate > 60 ||
			!slices.Contains(g.Committer.Seen, model.SeenCommitLog) || !slices.Contains(g.Committer.Seen, model.SeenTimeAxis) {
			t.Errorf("describe --sample: committer %+v; want seen both ways at about 20/s", g.Committer)
		}
		t.Logf("%s: every 2 s, moving: describe --sample 10s: %s", b.Name(), committerText(g.Committer))
	})
}

// TestRealKafkaCommitterIdle: a committer every 2 s on a topic nobody writes to commits the
// same offsets again: no watch before the write sees it move, the commit history does (the
// plan is blocked), and without the history the write is made and the watch after it reports
// the committer's overwrite as overwritten (exit 5 in the CLI's scheme), or the read-back
// does when the commit lands first (changed-since, exit 4).
func TestRealKafkaCommitterIdle(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("idle"), realkafka.Name("idle-grp")
		s.CreateTopic(topic, 1, nil)
		b.Produce(t, topic, 0, "", 20)
		c := b.Committer(t, group, topic, 2*time.Second, 0)
		c.Wait(t, "commit", 4, time.Minute)
		tp := model.TP{Topic: topic, Partition: 0}
		if got := committed(t, s, group)[tp]; got != 20 {
			t.Fatalf("the idle committer committed %d, want 20", got)
		}

		logOnly := committerService(t, b, 0, true)
		p := planEarliest(t, logOnly, group)
		if !blockedBy(p.Blockers, plan.BlockCommitter) || p.Committer == nil || p.Committer.Rate != 0 {
			t.Fatalf("the commit history did not block the idle committer's plan: %+v committer %v", p.Blockers, p.Committer)
		}
		t.Logf("%s: every 2 s, idle: the commit history caught it: %s", b.Name(), committerText(p.Committer))

		watch := committerService(t, b, 10*time.Second, false)
		p = planEarliest(t, watch, group)
		start := time.Now()
		res := watch.Execute(realkafka.Ctx(t, time.Minute), p)
		// The committer's next commit lands after the read-back (overwritten, exit 5), or,
		// once in a while, in the milliseconds between the write and the read-back: then
		// the read-back itself shows it (changed-since, partly applied, exit 4). Either
		// way the row reads 20 again and says another client committed over it.
		r := res.Plan.Rows[0]
		switch {
		case res.Outcome == plan.OutcomeOverwritten && outcomeExitCode(res.Outcome) == 5 && r.Result == plan.WriteOverwritten:
		case res.Outcome == plan.OutcomePartlyApplied && outcomeExitCode(res.Outcome) == 4 && r.Result == plan.WriteChanged:
			t.Logf("%s: the committer's commit landed before the read-back: %s", b.Name(), r.ResultNote(res.Plan.Strategy.Kind))
		default:
			t.Fatalf("outcome %s (exit %d), row %s; want overwritten (5), or changed-since (4) when the commit beat the read-back; notes %v",
				res.Outcome, outcomeExitCode(res.Outcome), r.Result, res.Notes)
		}
		if r.ReadBack == nil || *r.ReadBack != 20 || res.Plan.Undo == nil && res.Plan.Backup == nil {
			t.Errorf("row %+v: want it read back at 20, the committer's offset", r)
		}
		t.Logf("%s: every 2 s, idle: the watch before the write saw nothing; the watch after it saw the overwrite (%.1fs for both)",
			b.Name(), time.Since(start).Seconds())

		dir := t.TempDir()
		code, done, _ := resetCommitter(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", group, "--to-earliest", "--all-topics",
			"--execute", "--observe", "10s")
		if code != exitBlocked || !blockedBy(done.Blockers, plan.BlockCommitter) {
			t.Errorf("CLI --execute: exit %d, blockers %v", code, done.blockerKinds())
		}
		nothingIn(t, dir)
	})
}

// TestRealKafkaCommitterEvery30s: a committer every 30 s (Kafka Connect's and many Flink jobs'
// interval): after its third commit the commit history blocks the plan and --execute (exit
// 3, nothing written); without the history a watch of 50 s before the write refuses it.
func TestRealKafkaCommitterEvery30s(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("c30"), realkafka.Name("c30-grp")
		s.CreateTopic(topic, 1, nil)
		c := b.Committer(t, group, topic, 30*time.Second, 5)
		c.Wait(t, "commit", 3, 100*time.Second)

		dir := t.TempDir()
		conn := []string{"--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", group, "--to-earliest", "--all-topics"}
		code, dry, _ := resetCommitter(t, conn...)
		if code != exitBlocked || dry.Committer == nil || !dry.Committer.IntervalMs.OK || dry.Committer.IntervalMs.V < 25000 || dry.Committer.IntervalMs.V > 45000 {
			t.Fatalf("dry run: exit %d, blockers %v, committer %+v: want blocked, every ~30 s", code, dry.blockerKinds(), dry.Committer)
		}
		t.Logf("%s: every 30 s: the commit history caught it: %s", b.Name(), committerText(dry.Committer))
		code, done, _ := resetCommitter(t, append(conn, "--execute")...)
		if code != exitBlocked || done.Executed || !blockedBy(done.Blockers, plan.BlockCommitter) {
			t.Errorf("--execute: exit %d, blockers %v", code, done.blockerKinds())
		}
		nothingIn(t, dir)

		watch := committerService(t, b, 50*time.Second, false)
		res := watch.Execute(realkafka.Ctx(t, 2*time.Minute), planEarliest(t, watch, group))
		if res.Outcome != plan.OutcomeRefused || !blockedBy(res.Plan.Blockers, plan.BlockCommitter) {
			t.Errorf("a 50 s watch: %s %+v", res.Outcome, res.Plan.Blockers)
		}
		t.Logf("%s: every 30 s: a 50 s watch before the write caught it: %v", b.Name(), res.Plan.Blockers)

		// The time axis alone, as the TUI keeps it (16 samples, a refresh every 5 s: a window of
		// 75 s), for a principal that may not read __consumer_offsets: the commit logs are left
		// out. Its window holds the 3 commits it needs for about half of every 30 s, so it flags
		// the committer once its window has filled, within two minutes.
		cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{b.Addr}, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		h := timeaxis.NewWatchHistory(timeaxis.DefaultStallAfter)
		var flagged *model.Committer
		start := time.Now()
		for i := 0; i < 26 && flagged == nil; i++ {
			if i > 0 {
				time.Sleep(5 * time.Second)
			}
			snap, err := cl.Snapshot(realkafka.Ctx(t, time.Minute), model.Query{Groups: []string{group}})
			if err != nil || len(snap.Groups) != 1 {
				t.Fatalf("snapshot: %v", err)
			}
			snap.Groups[0].CommitLog = nil
			h.Add(&snap, true)
			h.Annotate(&snap, timeaxis.Options{})
			flagged = snap.Groups[0].Committer
		}
		if flagged == nil {
			t.Errorf("the time axis alone did not flag the 30 s committer within 26 refreshes 5 s apart")
		}
		t.Logf("%s: every 30 s: the time axis alone (5 s refreshes, no commit log) flagged it after %.0fs: %s", b.Name(), time.Since(start).Seconds(), committerText(flagged))
	})
}

// TestRealKafkaAdminCommittedNeverFlagged: a group committed once by Kafka's Admin client
// and never a member is no committer: describe --sample does not flag it, and a reset is
// applied (exit 0) after both watches.
func TestRealKafkaAdminCommittedNeverFlagged(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		topic, group := realkafka.Name("admin"), realkafka.Name("admin-grp")
		s.CreateTopic(topic, 2, nil)
		b.Produce(t, topic, 0, "", 10)
		tp0, tp1 := model.TP{Topic: topic, Partition: 0}, model.TP{Topic: topic, Partition: 1}
		b.AdminCommit(t, group, map[model.TP]int64{tp0: 7, tp1: 0})

		code, snap, _ := describeJSON(t, "--bootstrap-server", b.Addr, "--group", group, "--sample", "6s", "--interval", "2s")
		if code != exitOK || len(snap.Groups) != 1 || snap.Groups[0].Committer != nil {
			t.Fatalf("describe --sample: exit %d, groups %+v", code, snap.Groups)
		}
		dir := t.TempDir()
		code, done, errOut := resetCommitter(t, "--bootstrap-server", b.Addr, "--backup-dir", dir, "--group", group, "--to-earliest", "--all-topics",
			"--execute", "--observe", "4s")
		if code != exitOK || !done.Executed || done.Committer != nil || len(done.Blockers) > 0 {
			t.Fatalf("reset: exit %d, executed %v, committer %v, blockers %v\n%s", code, done.Executed, done.Committer, done.blockerKinds(), errOut)
		}
		for _, want := range []string{"watching group " + group + "'s commits for 4s before writing",
			"watching group " + group + "'s commits for 4s after writing"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks the countdown %q:\n%s", want, errOut)
			}
		}
		if got := committed(t, s, group); got[tp0] != 0 || got[tp1] != 0 {
			t.Errorf("committed %v after the reset to earliest", got)
		}
		// offsettui's own commit is a commit made once more: still no committer.
		if code, snap, _ = describeJSON(t, "--bootstrap-server", b.Addr, "--group", group); code != exitOK || snap.Groups[0].Committer != nil {
			t.Errorf("after the reset: exit %d, committer %+v", code, snap.Groups[0].Committer)
		}
	})
}

// committed reads group's committed offsets with franz-go's admin client.
func committed(t *testing.T, s *realkafka.Seed, group string) map[model.TP]int64 {
	t.Helper()
	resp, err := s.CommittedOffsets(group)
	if err != nil {
		t.Fatal(err)
	}
	out := map[model.TP]int64{}
	resp.Each(func(o kadm.OffsetResponse) { out[model.TP{Topic: o.Topic, Partition: o.Partition}] = o.At })
	return out
}
