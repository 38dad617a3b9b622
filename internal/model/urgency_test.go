package model

import (
	"fmt"
	"slices"
	"testing"
)

// demoGroups are the demo's groups as they stand 30 s after start (docs/demo.md),
// with the time axis: what the first screen must order.
func demoGroups() []Group {
	member := []Member{{MemberRef: MemberRef{MemberID: "m"}}}
	timed := func(ev Evaluation, loss *GroupLoss) *GroupTime {
		return &GroupTime{Samples: 7, WindowMs: 30_000, Evaluation: ev, Loss: loss}
	}
	g := func(name string, members []Member, lag int64, counts Counts, t *GroupTime) Group {
		worst := StatusOK
		for _, st := range AllStatuses {
			if counts[st] > 0 {
				worst = st
				break
			}
		}
		return Group{Group: name, Members: members, TotalLag: Ptr(lag), Counts: counts, WorstStatus: worst, Time: t}
	}
	expired := func(lost int64) []GroupPartition {
		return []GroupPartition{GroupPartition{Status: StatusExpired}.With(PartitionDetail{Lost: Ptr(lost)})}
	}
	fanout := g("fanout", []Member{}, 28, Counts{StatusExpired: 1}, timed(EvalStopped, nil))
	fanout.Partitions = expired(18)
	mail := g("mail-queue", []Member{}, 20, Counts{StatusExpired: 1}, nil)
	mail.Partitions = expired(10)
	return []Group{
		fanout, mail,
		g("replay", []Member{}, 0, Counts{StatusAhead: 1, StatusOK: 5}, timed(EvalOK, nil)),
		g("audit-export", []Member{}, 250, Counts{StatusMissing: 1, StatusAtRisk: 2, StatusOK: 3},
			timed(EvalStopped, &GroupLoss{Loss: Loss{InMs: 8*3600_000 + 59*60_000}})),
		g("new-svc", member, 0, Counts{StatusMissing: 1}, nil),
		g("event-sink", member, 6068, Counts{StatusAtRisk: 1}, timed(EvalWarn, &GroupLoss{Loss: Loss{InMs: 19*60_000 + 19_000}})),
		g("click-etl", member, 7984, Counts{StatusOK: 2}, timed(EvalOK, nil)),
		g("invoice-mailer", member, 49, Counts{StatusOK: 1}, timed(EvalStalled, nil)),
		g("billing", member, 15, Counts{StatusOK: 6}, timed(EvalStalled, nil)),
		g("ledger", []Member{}, 15, Counts{StatusOK: 3}, timed(EvalStopped, nil)),
		// Idle, all ok: retention deletes its next record in a week, far past the
		// risk window (nothing is at-risk): no problem.
		g("r11-trace", []Member{}, 3, Counts{StatusOK: 1}, timed(EvalStopped, &GroupLoss{Loss: Loss{InMs: 6*86400_000 + 23*3600_000}})),
		g("ship-svc", []Member{}, 2, Counts{StatusOK: 1}, timed(EvalStopped, &GroupLoss{Loss: Loss{InMs: 6*86400_000 + 23*3600_000}})),
	}
}

// TestUrgencyOrderOfTheDemo: the group that loses data soonest is first, then the
// other loss that can be saved, then what is lost, then live consumers stuck, then
// what is wrong without costing data; idle groups that are all ok are no problem,
// whatever their lag and evaluation (docs/tui.md, "The urgency order").
func TestUrgencyOrderOfTheDemo(t *testing.T) {
	gs := demoGroups()
	SortGroupsByUrgency(gs)
	var got, problems []string
	for i := range gs {
		got = append(got, gs[i].Group)
		if gs[i].HasProblem() {
			problems = append(problems, gs[i].Group)
		}
	}
	want := []string{"event-sink", "audit-export", "fanout", "mail-queue", "invoice-mailer", "billing", "replay", "new-svc",
		"click-etl", "ledger", "r11-trace", "ship-svc"}
	if !slices.Equal(got, want) {
		t.Fatalf("order\n got %v\nwant %v", got, want)
	}
	if !slices.Equal(problems, want[:8]) {
		t.Fatalf("with problems: %v, want %v", problems, want[:8])
	}
}

// TestUrgencyOfOneSnapshot: without a time axis, the at-risk commit that expires
// first leads, before one whose expiry is not known, before lost records.
func TestUrgencyOfOneSnapshot(t *testing.T) {
	atRisk := func(name string, expires *int64) Group {
		return Group{Group: name, TotalLag: Ptr(int64(5)), WorstStatus: StatusAtRisk, Counts: Counts{StatusAtRisk: 1},
			Partitions: []GroupPartition{{Status: StatusAtRisk, ExpiresInMs: expires}}}
	}
	gs := []Group{
		{Group: "lost", TotalLag: Ptr(int64(9)), WorstStatus: StatusExpired, Counts: Counts{StatusExpired: 1}},
		atRisk("unknown-expiry", nil),
		atRisk("in-2h", Ptr(int64(7_200_000))),
		atRisk("in-10m", Ptr(int64(600_000))),
	}
	SortGroupsByUrgency(gs)
	var got []string
	for _, g := range gs {
		got = append(got, g.Group)
	}
	if want := []string{"in-10m", "in-2h", "unknown-expiry", "lost"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// TestIdleGroupsAreNoProblem: an idle group whose partitions are ok is no problem
// even when its evaluation is warn or stopped; the same evaluation on a group with
// members is one, and so is an unknown evaluation or an error on an idle group.
func TestIdleGroupsAreNoProblem(t *testing.T) {
	live := []Member{{MemberRef: MemberRef{MemberID: "m"}}}
	for _, c := range []struct {
		name    string
		members []Member
		ev      Evaluation
		err     *Error
		want    Urgency
	}{
		{"idle, warn", nil, EvalWarn, nil, UrgencyNone},
		{"idle, stopped", nil, EvalStopped, nil, UrgencyNone},
		{"idle, rewound", nil, EvalRewound, nil, UrgencyNone},
		{"live, warn", live, EvalWarn, nil, UrgencyBehind},
		{"live, stalled", live, EvalStalled, nil, UrgencyBehind},
		{"live, ok", live, EvalOK, nil, UrgencyNone},
		{"idle, unknown evaluation", nil, EvalUnknown, nil, UrgencyOther},
		{"idle, an error", nil, EvalNone, &Error{Kind: KindTimeout}, UrgencyOther},
	} {
		g := Group{Group: "g", Members: c.members, TotalLag: Ptr(int64(12)), Counts: Counts{StatusOK: 1}, Error: c.err,
			Time: &GroupTime{Evaluation: c.ev}}
		if got := g.Urgency(); got != c.want {
			t.Errorf("%s: urgency %d, want %d", c.name, got, c.want)
		}
	}
}

// Sorting in place gives the order UrgencyOrder gives, on every permutation of
// a few groups.
func TestSortGroupsByUrgencyInPlace(t *testing.T) {
	base := demoGroups()
	for seed := range 200 {
		gs := slices.Clone(base)
		for i := range gs { // a fixed shuffle per seed
			j := (i*7 + seed*13) % len(gs)
			gs[i], gs[j] = gs[j], gs[i]
		}
		var want []string
		for _, i := range UrgencyOrder(gs) {
			want = append(want, gs[i].Group)
		}
		SortGroupsByUrgency(gs)
		var got []string
		for _, g := range gs {
			got = append(got, g.Group)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: sorted %v, want %v", seed, got, want)
		}
	}
}

// A group whose commits go within the risk window ranks with the records that can still
// be saved, soonest first: ahead of a group that already lost records.
func TestCommitExpiryUrgency(t *testing.T) {
	soon, later := &CommitExpiry{Expiring: 1, ExpiringInMs: Ptr(int64(60_000))}, &CommitExpiry{Expiring: 1, ExpiringInMs: Ptr(int64(3_600_000))}
	gs := []Group{
		{Group: "lost", WorstStatus: StatusExpired, Counts: Counts{StatusExpired: 1}, Members: []Member{}},
		{Group: "later", CommitsExpiry: later, Members: []Member{}},
		{Group: "soon", CommitsExpiry: soon, Members: []Member{}},
		{Group: "idle", Members: []Member{}},
	}
	SortGroupsByUrgency(gs)
	var got []string
	for _, g := range gs {
		got = append(got, g.Group)
	}
	if fmt.Sprint(got) != "[soon later lost idle]" {
		t.Errorf("order %v, want [soon later lost idle]", got)
	}
}
