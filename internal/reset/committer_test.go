package reset

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// committerCluster is a fakeCluster whose committed offsets, read by the watches, come from
// a script: before the write, before(n) for the n-th reading; after it, the offsets
// written, then after(n) for the n-th reading since the write. history is its commit
// history (CommitHistory).
type committerCluster struct {
	fakeCluster
	mu            sync.Mutex
	before, after func(n int) map[model.TP]int64
	n, nAfter     int
	history       []model.CommitSeen
	historySince  []time.Time
}

func (c *committerCluster) Committed(context.Context, string) (map[model.TP]int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commits == 0 {
		c.n++
		return c.before(c.n), nil
	}
	c.nAfter++
	if c.nAfter == 1 || c.after == nil {
		return c.committed, nil // the read-back
	}
	return c.after(c.nAfter - 1), nil
}

func (c *committerCluster) CommitsSeen(_ context.Context, _, _ string, since time.Time) []model.CommitSeen {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.historySince = append(c.historySince, since)
	return c.history
}

// still is a group whose commits do not move: t-0 and t-1 at 5.
func still(int) map[model.TP]int64 { return map[model.TP]int64{tpA: 5, tpB: 5} }

// moving is a committer that moves t-0 by 2 at each reading.
func moving(n int) map[model.TP]int64 { return map[model.TP]int64{tpA: 5 + 2*int64(n), tpB: 5} }

// watched plans --to-offset 1 on c with a watch of observe, executes it, and returns the
// result, the progress reported and the files left in the backup dir.
func watched(t *testing.T, c *committerCluster, observe time.Duration, allow bool) (Result, []plan.Progress, []string) {
	t.Helper()
	dir := t.TempDir()
	var mu sync.Mutex
	var progress []plan.Progress
	ctx := plan.WithProgress(context.Background(), func(p plan.Progress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	})
	res := planWatched(t, c, dir, ctx, func(s *Service) { s.Observe, s.AllowCommitter = observe, allow })
	var files []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		files = append(files, e.Name())
	}
	mu.Lock()
	defer mu.Unlock()
	return res, progress, files
}

// planWatched plans --to-offset 1 --all-topics on c and executes it with ctx.
func planWatched(t *testing.T, c *committerCluster, dir string, ctx context.Context, setup func(s *Service)) Result {
	t.Helper()
	s := &Service{Cluster: c, BackupDir: dir, ClusterName: func() string { return "k:9092" },
		UndoCommand: func(g, b string) string { return "offsettui reset --group " + g + " --restore " + b + " --execute" }}
	setup(s)
	st, _ := plan.ParseStrategy(plan.ToOffset, "1", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToOffset)
	p, err := s.Plan(ctx, "g", sc, st)
	if err != nil || !p.Executable() {
		t.Fatalf("plan %+v %v", p, err)
	}
	return s.Execute(ctx, p)
}

// watchedIn is watched without an override, returning the backup dir instead of its files.
func watchedIn(t *testing.T, c *committerCluster, observe time.Duration) (Result, []plan.Progress, string) {
	t.Helper()
	dir := t.TempDir()
	var mu sync.Mutex
	var progress []plan.Progress
	ctx := plan.WithProgress(context.Background(), func(p plan.Progress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	})
	res := planWatched(t, c, dir, ctx, func(s *Service) { s.Observe = observe })
	mu.Lock()
	defer mu.Unlock()
	return res, progress, dir
}

func blockerKinds(p plan.Plan) []plan.BlockerKind {
	var out []plan.BlockerKind
	for _, b := range p.Blockers {
		out = append(out, b.Kind)
	}
	return out
}

// phases lists the phases the progress went through, and whether each counted down to 0.
func phases(ps []plan.Progress) string {
	var out []string
	for i, p := range ps {
		if i == 0 || ps[i-1].Phase != p.Phase {
			out = append(out, p.Phase)
		}
		if p.Left == 0 {
			out[len(out)-1] += ":0"
		}
	}
	return strings.Join(out, " ")
}

// TestWatchRefusesACommitterOutsideTheGroup: the group's offsets move at every reading of
// the watch before the write: nothing is written (no commit, no backup, no audit line),
// exit 3, and the blocker names the risk and the fix.
func TestWatchRefusesACommitterOutsideTheGroup(t *testing.T) {
	t.Parallel()
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: moving}
	res, progress, files := watched(t, c, 1600*time.Millisecond, false)
	if res.Outcome != plan.OutcomeRefused || c.commits != 0 || len(files) != 0 {
		t.Fatalf("outcome %s, %d commits, files %v; want refused, nothing written", res.Outcome, c.commits, files)
	}
	kinds := blockerKinds(res.Plan)
	if len(kinds) == 0 || kinds[0] != plan.BlockCommitter || res.Plan.Committer == nil {
		t.Fatalf("blockers %v, committer %v; want the committer first", kinds, res.Plan.Committer)
	}
	msg := res.Plan.Blockers[0].Message
	for _, want := range []string{"no members", "Stop the consumer that commits for this group", "--allow-committer", "while watching before the write"} {
		if !strings.Contains(msg, want) {
			t.Errorf("blocker %q does not say %q", msg, want)
		}
	}
	if got := res.Plan.Committer; got.Commits < 3 || got.Rate <= 0 || got.Seen[0] != model.SeenObservation {
		t.Errorf("committer %+v: want at least 3 moves at a positive rate, seen by the watch", *got)
	}
	if p := phases(progress); p != "observe:0" {
		t.Errorf("progress %q, want the watch before the write counted down to 0", p)
	}
	if !slices.ContainsFunc(c.historySince, func(at time.Time) bool { return !at.IsZero() }) {
		t.Errorf("the commit history was asked since %v, never since the watch's start", c.historySince)
	}
}

// TestWatchRefusesOneMove: a single move during the watch (too few for a cadence) still
// refuses: something commits for the group right now.
func TestWatchRefusesOneMove(t *testing.T) {
	t.Parallel()
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: func(n int) map[model.TP]int64 {
		if n >= 2 {
			return map[model.TP]int64{tpA: 8, tpB: 5}
		}
		return still(n)
	}}
	res, _, _ := watched(t, c, 1200*time.Millisecond, false)
	if res.Outcome != plan.OutcomeRefused || c.commits != 0 || res.Plan.Committer != nil {
		t.Fatalf("outcome %s, %d commits, committer %v", res.Outcome, c.commits, res.Plan.Committer)
	}
	if kinds := blockerKinds(res.Plan); kinds[0] != plan.BlockCommitter || !strings.Contains(res.Plan.Blockers[0].Message, "moved once during the 1s watch") {
		t.Errorf("blockers %+v", res.Plan.Blockers)
	}
}

// TestWatchedAndNotOverwritten: a group whose commits stand still is written after the
// watch, the watch after the read-back sees nothing, and the outcome is applied.
func TestWatchedAndNotOverwritten(t *testing.T) {
	t.Parallel()
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: still}
	res, progress, _ := watched(t, c, 1200*time.Millisecond, false)
	if res.Outcome != plan.OutcomeApplied || c.commits != 1 {
		t.Fatalf("outcome %s, %d commits, blockers %+v", res.Outcome, c.commits, res.Plan.Blockers)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"watched the group's commits for 1s before the write: none moved", "after the write: nothing overwrote it"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if p := phases(progress); p != "observe:0 write:0 watch:0" {
		t.Errorf("progress %q, want both watches counted down", p)
	}
}

// TestOverwriteAfterTheWriteIsReported: read back at its target, then a committer puts its
// own position back: the row is overwritten (not written), the outcome overwritten (exit 5),
// the undo still printed, the audit says so.
func TestOverwriteAfterTheWriteIsReported(t *testing.T) {
	t.Parallel()
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: still,
		after: func(n int) map[model.TP]int64 {
			if n >= 2 {
				return map[model.TP]int64{tpA: 7, tpB: 1}
			}
			return map[model.TP]int64{tpA: 1, tpB: 1}
		}}
	start := time.Now()
	res, progress, dir := watchedIn(t, c, 3*time.Second)
	if res.Outcome != plan.OutcomeOverwritten || res.Plan.Undo == nil {
		t.Fatalf("outcome %s undo %v notes %v", res.Outcome, res.Plan.Undo, res.Notes)
	}
	r0, r1 := res.Plan.Rows[0], res.Plan.Rows[1]
	if r0.Result != plan.WriteOverwritten || *r0.ReadBack != 7 || r1.Result != plan.WriteWritten || *res.Plan.Verified {
		t.Errorf("rows %s %v, %s; verified %v", r0.Result, *r0.ReadBack, r1.Result, *res.Plan.Verified)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "t-0: written and read back, then overwritten with 7 by a client outside the group") {
		t.Errorf("notes %v", res.Notes)
	}
	if took := time.Since(start); took > 5500*time.Millisecond {
		t.Errorf("took %s: the watch after the write should stop at the overwrite", took)
	}
	if p := phases(progress); !strings.HasPrefix(p, "observe:0 write:0 watch") {
		t.Errorf("progress %q", p)
	}
	if ev := auditEvents(t, dir); len(ev) != 2 || ev[1] != "outcome:overwritten" {
		t.Errorf("audit %v", ev)
	}
}

// committingEvery2s is the commit history of a client outside the group committing every
// 2 s, its last commit a moment before now, as __consumer_offsets shows it.
func committingEvery2s(now time.Time) []model.CommitSeen {
	return []model.CommitSeen{
		{At: now.Add(-4 * time.Second), Source: model.SeenCommitLog},
		{At: now.Add(-2 * time.Second), Moved: 10, Source: model.SeenCommitLog},
		{At: now.Add(-10 * time.Millisecond), Moved: 10, Source: model.SeenCommitLog},
	}
}

// TestCommitHistoryBlocksThePlan: commit records of a client outside the group block the plan
// itself (a dry run shows it, exit 3) and every write of it; --allow-committer lets it
// through without the watch before the write, still watching after it.
func TestCommitHistoryBlocksThePlan(t *testing.T) {
	t.Parallel()
	now := time.Now()
	history := committingEvery2s(now)
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: still, history: history}
	s := &Service{Cluster: c, BackupDir: t.TempDir(), Observe: time.Second}
	st, _ := plan.ParseStrategy(plan.ToEarliest, "", time.Now())
	sc, _ := plan.NewScope(true, nil, plan.ToEarliest)
	p, err := s.Plan(context.Background(), "g", sc, st)
	if err != nil || p.Executable() || blockerKinds(p)[0] != plan.BlockCommitter || p.Committer == nil || p.Committer.IntervalMs.V != 2000 {
		t.Fatalf("plan %+v %v: want blocked by the committer every 2s", p, err)
	}
	if !strings.Contains(p.Blockers[0].Message, "every 2s") || !strings.Contains(p.Blockers[0].Message, "in __consumer_offsets") {
		t.Errorf("blocker %q", p.Blockers[0].Message)
	}
	if res := s.Execute(context.Background(), p); res.Outcome != plan.OutcomeRefused || c.commits != 0 {
		t.Fatalf("a blocked plan executed: %s", res.Outcome)
	}

	s.AllowCommitter = true
	p, err = s.Plan(context.Background(), "g", sc, st)
	if err != nil || !p.Executable() || !p.AllowCommitter || p.Committer == nil {
		t.Fatalf("plan with --allow-committer: %+v %v", p, err)
	}
	res := s.Execute(context.Background(), p)
	if res.Outcome != plan.OutcomeApplied || c.n != 0 {
		t.Errorf("outcome %s, %d readings before the write (want none: the override skips that watch)", res.Outcome, c.n)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "after the write: nothing overwrote it") {
		t.Errorf("notes %v: the watch after the write still runs", res.Notes)
	}
}

// TestMembersDuringTheWatchAreNotACommitter: the offsets moved because a member joined: the
// re-read refuses the plan for its members, not for a committer.
func TestMembersDuringTheWatchAreNotACommitter(t *testing.T) {
	t.Parallel()
	c := &committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: moving}
	dir := t.TempDir()
	res := planWatched(t, c, dir, context.Background(), func(s *Service) {
		s.Observe = 1200 * time.Millisecond
		s.beforeCommit = func() {
			c.mu.Lock()
			c.state.State, c.state.Members = "Stable", []model.Member{{MemberRef: model.MemberRef{ClientID: "svc"}}}
			c.mu.Unlock()
		}
	})
	if kinds := blockerKinds(res.Plan); res.Outcome != plan.OutcomeRefused || len(kinds) == 0 || kinds[0] != plan.BlockGroupNotEmpty {
		t.Fatalf("outcome %s blockers %v", res.Outcome, kinds)
	}
	for _, b := range res.Plan.Blockers {
		if b.Kind == plan.BlockCommitter {
			t.Errorf("a member's commits read as a committer: %s", b.Message)
		}
	}
}

// TestNoWatchWithoutObserveOrCommits: no watch when Observe is 0, for a share group, or
// when the group has no commit to move.
func TestNoWatchWithoutObserveOrCommits(t *testing.T) {
	t.Parallel()
	s := &Service{Observe: time.Second}
	withCommit := plan.Plan{Type: model.TypeClassic, Rows: []plan.Row{{Committed: model.Ptr(int64(3))}}}
	for _, c := range []struct {
		name string
		s    *Service
		p    plan.Plan
		want bool
	}{
		{"a classic group with a commit", s, withCommit, true},
		{"Observe 0", &Service{}, withCommit, false},
		{"a share group", s, plan.Plan{Type: model.TypeShare, Rows: withCommit.Rows}, false},
		{"nothing committed", s, plan.Plan{Type: model.TypeClassic, Rows: []plan.Row{{}}}, false},
	} {
		if got := c.s.watches(c.p); got != c.want {
			t.Errorf("%s: watches %v, want %v", c.name, got, c.want)
		}
	}
}

// TestWrittenAsPlanned: the rows the watch after the write guards: at their target, or
// deleted (no target) and read back without a commit.
func TestWrittenAsPlanned(t *testing.T) {
	tpC := model.TP{Topic: "t", Partition: 2}
	p := plan.Plan{Rows: []plan.Row{
		{Topic: "t", Partition: 0, Target: model.Ptr(int64(1))},
		{Topic: "t", Partition: 1, Target: model.Ptr(int64(1))},
		{Topic: "t", Partition: 2, Reason: plan.ReasonRestore},
	}}
	got := writtenAsPlanned(p, map[model.TP]int64{tpA: 1, tpB: 9})
	if !slices.Equal(got, []model.TP{tpA, tpC}) {
		t.Errorf("written as planned: %v, want t-0 (at its target) and t-2 (deleted)", got)
	}
	if got := writtenAsPlanned(p, map[model.TP]int64{tpC: 4}); len(got) != 0 {
		t.Errorf("nothing as planned, got %v", got)
	}
}

// writeCounter is a committerCluster that counts every write request, deletes included.
type writeCounter struct {
	committerCluster
	deletes int
}

func (w *writeCounter) DeleteOffsets(context.Context, string, []model.TP) ([]model.Error, error) {
	w.deletes++
	return nil, nil
}

func (w *writeCounter) DeleteGroup(context.Context, string, []model.TP) ([]model.Error, error) {
	w.deletes++
	return nil, nil
}

// TestCommitHistoryBlocksEveryWrite: the committer guard is not the resets' alone: a
// restore, a delete-offsets and a delete-group of a group whose commit history shows a
// committer outside it are blocked (exit 3's blocker), and executing them writes nothing:
// no commit, no delete, no backup.
func TestCommitHistoryBlocksEveryWrite(t *testing.T) {
	t.Parallel()
	now := time.Now()
	history := committingEvery2s(now)
	backup, err := writeBackup(t.TempDir(), backupName("g", "20261130T030000.000Z", ""), Manifest{Group: "g",
		ClusterID: model.Ptr("c1"), CreatedAt: model.Stamp{Time: now}, Strategy: plan.Strategy{Kind: plan.PlainBackup}, Purpose: "backup"},
		[]plan.CSVRow{{Topic: "t", Partition: 0, Offset: model.Ptr(int64(2))}, {Topic: "t", Partition: 1, Offset: model.Ptr(int64(3))}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadBackup(backup, "")
	if err != nil {
		t.Fatal(err)
	}
	tScope, _ := plan.NewScope(false, []string{"t"}, plan.DeleteOffsets)
	for name, planIt := range map[string]func(s *Service) (plan.Plan, error){
		"restore": func(s *Service) (plan.Plan, error) {
			return s.PlanRestore(context.Background(), "g", b, RestoreOptions{})
		},
		"delete-offsets": func(s *Service) (plan.Plan, error) {
			return s.Plan(context.Background(), "g", tScope, plan.DeleteOffsetsStrategy())
		},
		"delete-group": func(s *Service) (plan.Plan, error) {
			return s.Plan(context.Background(), "g", plan.DeleteGroupScope, plan.DeleteGroupStrategy())
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := &writeCounter{committerCluster: committerCluster{fakeCluster: fakeCluster{state: twoPartitions()}, before: still, history: history}}
			dir := t.TempDir()
			s := &Service{Cluster: c, BackupDir: dir, Observe: time.Second}
			p, err := planIt(s)
			if err != nil || p.Executable() || !slices.Contains(blockerKinds(p), plan.BlockCommitter) {
				t.Fatalf("plan %v %v: want blocked by the committer", blockerKinds(p), err)
			}
			res := s.Execute(context.Background(), p)
			if entries, _ := os.ReadDir(dir); res.Outcome != plan.OutcomeRefused || c.commits != 0 || c.deletes != 0 || len(entries) != 0 {
				t.Errorf("executed: %s, %d commits, %d deletes, %d files: want refused, nothing written", res.Outcome, c.commits, c.deletes, len(entries))
			}
		})
	}
}
