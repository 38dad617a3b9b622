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
			rollup(g)
			g.LostRatePerSec = Some(2.1)
		case "mail-queue": // an idle group whose lost count grew between its last two snapshots
			g.LosingNow, g.LostRatePerSec = true, Some(0.5)
		}
	}
	SortGroupsByUrgency(gs)
	var got []string
	for i := range gs[:4] {
		got = append(got, gs[i].Group)
	}
	if want := []string{"event-sink", "mail-queue", "audit-export", "fanout"}; !slices.Equal(got, want) {
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
		rollup(&g)
		if g.LosingNow != c.want || g.LiveBehindLogStart() != c.want {
			t.Errorf("%s: losingNow %v, want %v", c.name, g.LosingNow, c.want)
		}
	}
}
