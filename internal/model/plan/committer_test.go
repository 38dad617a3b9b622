package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

var seenCommitter = &model.Committer{Seen: []string{model.SeenCommitLog}, Commits: 5,
	First: model.Stamp{Time: planNow.Add(-8 * time.Second)}, Last: model.Stamp{Time: planNow}, IntervalMs: model.Some(int64(2000)), Rate: 20}

func kinds(bs []Blocker) []BlockerKind {
	var out []BlockerKind
	for _, b := range bs {
		out = append(out, b.Kind)
	}
	return out
}

func countKind(bs []Blocker, k BlockerKind) int {
	n := 0
	for _, b := range bs {
		if b.Kind == k {
			n++
		}
	}
	return n
}

// TestCommitterGuard: a committer seen when planning blocks the plan with a blocker that
// names the risk and the fix; the override keeps what was seen and lifts the block; Refresh
// re-evaluates it from the state re-read (once, never twice).
func TestCommitterGuard(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	st := mustStrategy(t, ToEarliest, "")
	in := fixture()
	in.Committer = seenCommitter
	p := Make(orders, st, in)
	if p.Executable() || countKind(p.Blockers, BlockCommitter) != 1 || p.Committer != seenCommitter || p.AllowCommitter {
		t.Fatalf("plan blockers %v committer %v allow %v", kinds(p.Blockers), p.Committer, p.AllowCommitter)
	}
	msg := p.Blockers[0].Message
	for _, want := range []string{"group g has no members", "5 commits over 8s, every 2s, moving the offsets 20/s (seen in __consumer_offsets)",
		"Stop the consumer that commits for this group", "--allow-committer (the TUI's planner: !)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("blocker %q lacks %q", msg, want)
		}
	}

	in.AllowCommitter = true
	allowed := Make(orders, st, in)
	if !allowed.Executable() || !allowed.AllowCommitter || allowed.Committer != seenCommitter {
		t.Fatalf("with the override: blockers %v", kinds(allowed.Blockers))
	}

	// Re-read right before the commit: the committer still commits.
	now := fixture()
	now.Committer = seenCommitter
	if r := Make(orders, st, fixture()).Refresh(now); countKind(r.Blockers, BlockCommitter) != 1 || r.Committer != seenCommitter {
		t.Errorf("refresh: blockers %v", kinds(r.Blockers))
	}
	if r := p.Refresh(now); countKind(r.Blockers, BlockCommitter) != 1 {
		t.Errorf("refresh of a blocked plan: %d committer blockers, want 1", countKind(r.Blockers, BlockCommitter))
	}
	if r := p.Refresh(fixture()); countKind(r.Blockers, BlockCommitter) != 0 {
		t.Errorf("the committer stopped: refresh still blocks: %v", kinds(r.Blockers))
	}
	now.AllowCommitter = true
	if r := allowed.Refresh(now); !r.Executable() {
		t.Errorf("refresh with the override: %v", kinds(r.Blockers))
	}
	// A group with members is not-empty, not a committer.
	in = fixture()
	in.State, in.Members, in.Committer = "Stable", []model.Member{{}}, seenCommitter
	if k := kinds(Make(orders, st, in).Blockers); countKind(Make(orders, st, in).Blockers, BlockCommitter) != 0 {
		t.Errorf("a group with members got a committer blocker: %v", k)
	}
}

// TestWithCommitter: the TUI adds what its time axis saw, and the operator's ! toggles the
// override on a plan made without it.
func TestWithCommitter(t *testing.T) {
	p := Make(Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), fixture())
	if !p.Executable() || p.Committer != nil {
		t.Fatalf("fixture plan: %v", kinds(p.Blockers))
	}
	if q := p.WithCommitter(nil, false); !q.Executable() || q.Committer != nil {
		t.Errorf("nothing seen: %v", kinds(q.Blockers))
	}
	seen := p.WithCommitter(seenCommitter, false)
	if seen.Executable() || seen.Committer != seenCommitter || countKind(seen.Blockers, BlockCommitter) != 1 {
		t.Fatalf("seen: %v", kinds(seen.Blockers))
	}
	if again := seen.WithCommitter(seenCommitter, false); countKind(again.Blockers, BlockCommitter) != 1 {
		t.Errorf("applied twice: %d committer blockers", countKind(again.Blockers, BlockCommitter))
	}
	off := seen.WithCommitter(nil, true)
	if !off.Executable() || !off.AllowCommitter || off.Committer != seenCommitter {
		t.Errorf("override: %v", kinds(off.Blockers))
	}
	if on := off.WithCommitter(nil, false); on.Executable() || on.AllowCommitter {
		t.Errorf("override off again: %v", kinds(on.Blockers))
	}
	if len(seen.Blockers) == len(p.Blockers) {
		t.Error("WithCommitter changed the plan it was called on")
	}
}

// TestMovedBlocker names the moves, the watch and the fix.
func TestMovedBlocker(t *testing.T) {
	for n, want := range map[int]string{1: "moved once during the 10s watch", 3: "moved 3 times during the 10s watch"} {
		b := MovedBlocker("g", n, 10*time.Second)
		if b.Kind != BlockCommitter || !strings.Contains(b.Message, want) || !strings.Contains(b.Message, "Stop the consumer that commits for this group") {
			t.Errorf("%d moves: %+v", n, b)
		}
	}
}

// TestApplyOverwrites: a row read back at its target and changed during the watch is
// overwritten, with the offset that overwrote it; the outcome is overwritten (exit 5) unless a
// row's fate is unknown, and verified is no.
func TestApplyOverwrites(t *testing.T) {
	tp0, tp1 := model.TP{Topic: "orders", Partition: 0}, model.TP{Topic: "orders", Partition: 1}
	mk := func(ans CommitAnswer, readBack map[model.TP]int64) Plan {
		p := Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 1}}}}, mustStrategy(t, ToOffset, "45"), fixture())
		p.ApplyResults(ans, readBack)
		return p
	}
	p := mk(CommitAnswer{}, map[model.TP]int64{tp0: 45, tp1: 45})
	if got := p.ApplyOverwrites(map[model.TP]int64{tp0: 60}); got != OutcomeOverwritten {
		t.Errorf("outcome %s", got)
	}
	if r := p.Rows[0]; r.Result != WriteOverwritten || *r.ReadBack != 60 || p.Rows[1].Result != WriteWritten || *p.Verified {
		t.Errorf("rows %s %d, %s; verified %v", r.Result, *r.ReadBack, p.Rows[1].Result, *p.Verified)
	}
	if n := p.Rows[0].ResultNote(p.Strategy.Kind); !strings.Contains(n, "overwritten with 60 by a client outside the group: stop the consumer that commits for this group") {
		t.Errorf("note %q", n)
	}
	p = mk(CommitAnswer{}, map[model.TP]int64{tp0: 45, tp1: 45})
	if got := p.ApplyOverwrites(nil); got != OutcomeApplied || !*p.Verified {
		t.Errorf("nothing overwritten: %s", got)
	}
	p = mk(CommitAnswer{}, map[model.TP]int64{tp0: 45, tp1: 7})
	if got := p.ApplyOverwrites(map[model.TP]int64{tp1: 9}); got != OutcomePartlyApplied || p.Rows[1].Result != WriteChanged {
		t.Errorf("a row changed before the read-back is changed-since, not overwritten: %s %s", got, p.Rows[1].Result)
	}
	p = mk(CommitAnswer{}, nil)
	if got := p.ApplyOverwrites(map[model.TP]int64{tp0: 60}); got != OutcomeFailed {
		t.Errorf("unverified rows: %s, want failed", got)
	}
}
