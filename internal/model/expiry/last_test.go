package expiry

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// The clock's walk over the commit log finds what a search finds, for rows in partition
// order and for rows out of it.
func TestExpiryClockLastWalksTheLog(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		log := &model.CommitLog{}
		for _, topic := range []string{"a", "b", "c"} {
			for p := range int32(6) {
				if r.IntN(2) == 0 {
					log.Commits = append(log.Commits, model.CommitRecord{TP: model.TP{Topic: topic, Partition: p}, Offset: r.Int64N(100)})
				}
			}
		}
		var rows []model.TP
		for range 12 {
			rows = append(rows, model.TP{Topic: []string{"a", "b", "c", "d"}[r.IntN(4)], Partition: r.Int32N(7)})
		}
		if r.IntN(2) == 0 {
			slices.SortFunc(rows, model.CompareTP)
		}
		c := &Clock{log: log}
		for _, tp := range rows {
			got, gotOK := c.last(tp)
			want, wantOK := log.Last(tp)
			if got != want || gotOK != wantOK {
				t.Fatalf("rows %v, log %v: last(%v) = %v %v, the search %v %v", rows, log.Commits, tp, got, gotOK, want, wantOK)
			}
		}
	}
	if _, ok := (&Clock{}).last(model.TP{Topic: "a", Partition: 0}); ok {
		t.Fatal("a clock without a log found a commit")
	}
}
