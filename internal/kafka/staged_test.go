package kafka_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestSnapshotStaged: the groups come first, once, with their states and
// members and nothing of their offsets; then the whole snapshot, the same
// groups classified.
func TestSnapshotStaged(t *testing.T) {
	d := startDemo(t)
	c := newClient(t, d.Bootstrap(), nil)
	var calls atomic.Int32
	var first model.Snapshot
	snap, err := c.SnapshotStaged(context.Background(), model.Query{}, func(s model.Snapshot) {
		calls.Add(1)
		first = s
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 {
		t.Fatalf("listed called %d times, want once", calls.Load())
	}
	if !first.Loading || snap.Loading {
		t.Fatalf("loading marks: first %v, final %v; want true, false", first.Loading, snap.Loading)
	}
	names := func(s model.Snapshot) []string {
		var out []string
		for _, g := range s.Groups {
			out = append(out, g.Group)
		}
		slices.Sort(out)
		return out
	}
	if got, want := names(first), names(snap); !slices.Equal(got, want) || len(got) == 0 {
		t.Fatalf("first has groups %v, the snapshot %v", got, want)
	}
	live := 0
	for _, g := range first.Groups {
		if g.WorstStatus != model.StatusUnknown || g.TotalLag != nil || g.TotalLagAtLeast != nil || len(g.Partitions) > 0 {
			t.Errorf("%s: the first stage claims offsets: %+v", g.Group, g)
		}
		final := findGroup(t, snap, g.Group)
		if g.State != final.State || len(g.Members) != len(final.Members) {
			t.Errorf("%s: first %s with %d members, final %s with %d", g.Group, g.State, len(g.Members), final.State, len(final.Members))
		}
		live += len(g.Members)
	}
	if live == 0 {
		t.Error("no member in the first stage: the demo has live groups")
	}
}
