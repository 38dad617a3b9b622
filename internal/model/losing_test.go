package model

import (
	"slices"
	"testing"
)

// TestLosingNowLeadsTheOrder: a live consumer behind the log start (event-sink, Stable,
// its commit below low) is first, above a loss predicted within the window and above
// records lost long ago by an idle group (docs/tui.md, "The urgency order", step 0); two
// groups losing now are ordered by how fast they lose, then by how much is lost.
func TestLosingNowLeadsTheOrder(t *testing.T) {
	gs := demoGroups()
	for i := range gs {
		g := &gs[i]
		switch g.Group {
		case "event-sink":
			g.Counts = Counts{StatusExpired: 1}
			g.WorstStatus = StatusExpired
			g.Partitions = []GroupPartition{GroupPartition{Topic: "events", Status: StatusExpired}.With(PartitionDetail{Lost: Ptr(int64(57))})}
			g.Time.Loss = nil
			g.TotalLag, g.TotalLagAtLeast = nil, nil // as status.Rollup counts it: no partition has a lag
			g.LosingNow, g.LostRatePerSec = g.LiveBehindLogStart(), Some(2.1)
		case "mail-queue": // an idle group whose lost count grew lately
			g.LosingNow, g.LostRatePerSec = true, Some(0.5)
		case "fanout": // as fast as mail-queue, more lost (18 to 10)
			g.LosingNow, g.LostRatePerSec = true, Some(0.5)
		}
	}
	SortGroupsByUrgency(gs)
	var got []string
	for i := range gs[:4] {
		got = append(got, gs[i].Group)
	}
	if want := []string{"event-sink", "fanout", "mail-queue", "audit-export"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if !gs[0].LosingNow || gs[0].Urgency() != UrgencyLosing || !gs[0].HasProblem() {
		t.Fatalf("event-sink: losingNow %v, urgency %v", gs[0].LosingNow, gs[0].Urgency())
	}
}

// TestLiveBehindLogStart: only a group with members, on a partition they consume whose
// commit is below the log start, loses records now without a time axis.
func TestLiveBehindLogStart(t *testing.T) {
	member := []Member{{MemberRef: MemberRef{MemberID: "m"}}}
	no := false
	cases := []struct {
		name    string
		members []Member
		p       GroupPartition
		want    bool
	}{
		{"live, expired", member, GroupPartition{Status: StatusExpired}, true},
		{"idle, expired", []Member{}, GroupPartition{Status: StatusExpired}, false},
		{"live, at risk", member, GroupPartition{Status: StatusAtRisk}, false},
		{"live, expired, nobody consumes it", member, GroupPartition{Status: StatusExpired, Subscribed: &no}, false},
	}
	for _, c := range cases {
		g := Group{Group: "g", Members: c.members, Partitions: []GroupPartition{c.p}}
		if g.LiveBehindLogStart() != c.want {
			t.Errorf("%s: live behind the log start %v, want %v", c.name, !c.want, c.want)
		}
	}
}
