package views

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// TestMissedDeletesShownInTheTUI: a partition of a compacted topic whose group may have
// missed deletes makes the group's screen say so (DELETES, with the numbers) and the row's
// detail says what the lag and the time lag are on a compacted topic.
func TestMissedDeletesShownInTheTUI(t *testing.T) {
	clk := newClock()
	src := &fakeSource{now: clk.now}
	src.reply = func(q model.Query) (model.Snapshot, error) {
		s := fixtureSnapshot(clk.now(), q.FetchBudget > 0)
		for i := range s.Groups {
			if g := &s.Groups[i]; g.Group == "ledger" {
				g.Partitions[0].SetCompaction(&model.Compaction{NextStored: model.Ptr(int64(14)), Removed: model.Ptr(int64(4)),
					StoredRecords: model.Ptr(int64(3)), TimeLagFrom: model.Ptr(int64(14)), DeleteRetentionMs: model.Ptr(int64(86_400_000)),
					MayMissDeletes: true, Why: []string{model.CompactionWhyRemoved}})
			}
		}
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}
	hs := newHarness(t, optsWith(src, clk), 220, 40)
	hs.send(keyRunes("/")).typeText("ledger").send(keyType(tea.KeyEnter))
	hs.send(keyType(tea.KeyEnter))
	v := strings.Join(strings.Fields(ansi.Strip(hs.view())), " ")
	for _, want := range []string{
		"DELETES 1 partition of compacted topics: payments-0 the group read up to 10 and may have missed deletes",
		"the cleaner removed 4 offsets at its position (10..13 hold no record; the next stored is 14)",
		"compacted: MAY MISS DELETES",
		"lag 3 records stored of 10 offsets",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the group screen lacks %q:\n%s", want, ansi.Strip(hs.view()))
		}
	}
}
