package assemble

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// Rows taken for one group never overlap another's, and a group that grows past its
// rows moves out rather than over its neighbour.
func TestRowBlocksKeepGroupsApart(t *testing.T) {
	var r rowBlocks
	a, b := r.take(3), r.take(5)
	a = append(a, model.GroupPartition{Topic: "a0"}, model.GroupPartition{Topic: "a1"}, model.GroupPartition{Topic: "a2"})
	b = append(b, model.GroupPartition{Topic: "b0"})
	a = append(a, model.GroupPartition{Topic: "a3"}) // past its 3: moves
	if b[0].Topic != "b0" || len(a) != 4 || a[3].Topic != "a3" || cap(r.take(0)) != 0 {
		t.Errorf("a %v, b %v", a, b)
	}
	for n := range 5000 {
		if got := r.take(n % 70); len(got) != 0 || cap(got) != n%70 {
			t.Fatalf("take(%d): len %d cap %d", n%70, len(got), cap(got))
		}
	}
}
