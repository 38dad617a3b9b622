package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// A listed snapshot claims nothing about offsets: every group unknown, no
// totals, no partitions, and it says it is loading.
func TestListedSnapshotClaimsNoOffsets(t *testing.T) {
	obs := Observation{Bootstrap: "k:9092", Brokers: 3, Groups: []GroupObservation{
		{Group: "b", Type: "classic", State: "Stable", Members: []Member{{MemberRef: MemberRef{MemberID: "m"}}},
			Committed: map[TP]int64{{"t", 0}: 5}},
		{Group: "a", Type: "consumer", State: "Empty"},
	}}
	s := ListedSnapshot(obs)
	if !s.Loading || len(s.Groups) != 2 || s.Groups[0].Group != "a" || len(s.Groups[1].Members) != 1 {
		t.Fatalf("got %+v", s)
	}
	for _, g := range s.Groups {
		if g.WorstStatus != StatusUnknown || g.TotalLag != nil || g.TotalLagAtLeast != nil || len(g.Partitions) != 0 || g.Members == nil {
			t.Errorf("%s: %+v claims more than the listing knows", g.Group, g)
		}
	}
	if b, _ := json.Marshal(s); strings.Contains(string(b), "oading") {
		t.Errorf("the loading mark is written out: %s", b)
	}
}
