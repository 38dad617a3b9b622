package kafka_test

import (
	"context"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model"
)

// startDemo starts the embedded demo cluster for one test.
func startDemo(t testing.TB) *demo.Cluster {
	t.Helper()
	d, err := demo.Start(context.Background(), demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

type wantRow struct {
	group, topic string
	partition    int32
	low, high    int64
	committed    any // int64 or nil
	lag          any
	status       model.Status
	lost, beyond any
}

// TestDemoSnapshot reads the demo through internal/kafka exactly like a remote
// cluster and checks every row of docs/demo.md's scenario table.
func TestDemoSnapshot(t *testing.T) {
	d := startDemo(t)
	c := newClient(t, d.Bootstrap(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{RiskWindow: 24 * time.Hour, FetchBudget: model.DefaultFetchBudget})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Errors) != 0 {
		t.Fatalf("errors: %+v", snap.Errors)
	}
	if snap.Cluster.Brokers != 3 {
		t.Errorf("brokers = %d, want 3", snap.Cluster.Brokers)
	}
	i := func(v int64) any { return v }
	rows := []wantRow{
		{group: "fanout", topic: "outbox", partition: 0, low: 30, high: 40, committed: i(12), lag: i(28), status: model.StatusExpired, lost: i(18), beyond: nil},
		{group: "new-svc", topic: "outbox", partition: 0, low: 30, high: 40, committed: nil, lag: nil, status: model.StatusMissing, lost: nil, beyond: nil},
		{group: "ship-svc", topic: "shipments", partition: 0, low: 0, high: 5, committed: i(3), lag: i(2), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "r11-trace", topic: "r11.trace", partition: 0, low: 0, high: 8, committed: i(5), lag: i(3), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 0, low: 0, high: 100, committed: i(10), lag: i(90), status: model.StatusAtRisk, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 1, low: 0, high: 100, committed: i(20), lag: i(80), status: model.StatusAtRisk, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 2, low: 0, high: 100, committed: i(100), lag: i(0), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 3, low: 0, high: 100, committed: i(70), lag: i(30), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 4, low: 0, high: 100, committed: i(50), lag: i(50), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "audit-export", topic: "orders", partition: 5, low: 40, high: 100, committed: nil, lag: nil, status: model.StatusMissing, lost: nil, beyond: nil},
		{group: "replay", topic: "orders", partition: 2, low: 0, high: 100, committed: i(150), lag: i(-50), status: model.StatusAhead, lost: nil, beyond: i(50)},
		{group: "ledger", topic: "payments", partition: 0, low: 0, high: 20, committed: i(10), lag: i(10), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "ledger", topic: "payments", partition: 1, low: 0, high: 20, committed: i(15), lag: i(5), status: model.StatusOK, lost: nil, beyond: nil},
		{group: "ledger", topic: "payments", partition: 2, low: 0, high: 20, committed: i(20), lag: i(0), status: model.StatusOK, lost: nil, beyond: nil},
		// The share group: no committed offset (its start offset, 20, is checked below); its
		// lag is the broker's.
		{group: "mail-queue", topic: "outbox", partition: 0, low: 30, high: 40, committed: nil, lag: i(20), status: model.StatusExpired, lost: i(10), beyond: nil},
	}
	for p := int32(0); p < 6; p++ {
		low := int64(0)
		if p == 5 {
			low = 40
		}
		rows = append(rows, wantRow{group: "billing", topic: "orders", partition: p, low: low, high: 100, committed: i(95 + int64(p)), lag: i(5 - int64(p)), status: model.StatusOK, lost: nil, beyond: nil})
		if p != 2 {
			rows = append(rows, wantRow{group: "replay", topic: "orders", partition: p, low: low, high: 100, committed: i(100), lag: i(0), status: model.StatusOK, lost: nil, beyond: nil})
		}
	}
	for _, w := range rows {
		g := findGroup(t, snap, w.group)
		p := findPartition(t, g, w.topic, w.partition)
		got := []any{val(p.Low), val(p.High), val(p.Committed), val(p.Lag), p.Status, val(p.Lost()), val(p.Beyond())}
		want := []any{w.low, w.high, w.committed, w.lag, w.status, w.lost, w.beyond}
		for k := range got {
			if got[k] != want[k] {
				t.Errorf("%s %s-%d: got low,high,committed,lag,status,lost,beyond = %v, want %v", w.group, w.topic, w.partition, got, want)
				break
			}
		}
	}
	counted := 0
	for _, g := range snap.Groups {
		counted += len(g.Partitions)
	}
	if counted != len(rows) {
		t.Errorf("snapshot has %d group partitions, the table %d", counted, len(rows))
	}
	for _, name := range []string{"billing", "new-svc"} {
		g := findGroup(t, snap, name)
		if g.State != "Stable" || len(g.Members) != 1 {
			t.Errorf("%s: state %s with %d members, want Stable with 1", name, g.State, len(g.Members))
		}
	}
	for _, name := range []string{"fanout", "ship-svc", "r11-trace", "audit-export", "replay", "ledger"} {
		g := findGroup(t, snap, name)
		if g.State != "Empty" || g.OffsetsExpireAfterMs == nil || *g.OffsetsExpireAfterMs != 10080*60000 {
			t.Errorf("%s: state %s, offsetsExpireAfterMs %v; want Empty with 7d", name, g.State, val(g.OffsetsExpireAfterMs))
		}
	}
	mq := findGroup(t, snap, "mail-queue")
	if p := findPartition(t, mq, "outbox", 0); mq.Type != model.TypeShare || mq.State != "Empty" || val(p.StartOffset()) != int64(20) ||
		mq.ShareAutoOffsetReset == nil || *mq.ShareAutoOffsetReset != "earliest" || mq.OffsetsExpireAfterMs != nil {
		t.Errorf("mail-queue: type %s state %s start %v reset %v expiry %v; want an Empty share group, start 20, earliest, no expiry",
			mq.Type, mq.State, val(p.StartOffset()), mq.ShareAutoOffsetReset, val(mq.OffsetsExpireAfterMs))
	}
	if w := snap.Groups[0].Group; w != "audit-export" { // the urgency order: its at-risk records can still be saved
		t.Errorf("most urgent group first: got %s, want audit-export", w)
	}
	// Compacted topics are never at-risk, whatever their age; and a lagging
	// partition gets its committed record's timestamp within the fetch budget.
	led := findPartition(t, findGroup(t, snap, "ledger"), "payments", 0)
	if led.TimeLagMs == nil || led.ExpiresInMs != nil {
		t.Errorf("ledger payments-0: timeLag %v expiresIn %v; want a time lag and no expiry (compacted)", val(led.TimeLagMs), val(led.ExpiresInMs))
	}
	ae := findPartition(t, findGroup(t, snap, "audit-export"), "orders", 0)
	if ae.CommittedTimestamp() == nil || ae.ExpiresInMs == nil || *ae.ExpiresInMs <= 0 || *ae.ExpiresInMs > int64(24*time.Hour/time.Millisecond) {
		t.Errorf("audit-export orders-0: expiresIn %v; want within the 24h risk window", val(ae.ExpiresInMs))
	}
}

// TestLiveMemberAssignments checks decoded assignments of a live classic member.
func TestLiveMemberAssignments(t *testing.T) {
	d := startDemo(t)
	c := newClient(t, d.Bootstrap(), nil)
	snap, err := c.Snapshot(context.Background(), model.Query{Groups: []string{"billing", "new-svc"}})
	if err != nil {
		t.Fatal(err)
	}
	b := findGroup(t, snap, "billing")
	if len(b.Members) != 1 || len(b.Members[0].Assignments) != 1 {
		t.Fatalf("billing members: %+v", b.Members)
	}
	a := b.Members[0].Assignments[0]
	if a.Topic != "orders" || len(a.Partitions) != 6 {
		t.Errorf("billing assignment = %+v, want orders 0..5", a)
	}
	if b.Protocol == "" || b.Members[0].ClientID == "" || b.Members[0].Host == "" {
		t.Errorf("billing: protocol %q, member %+v; want protocol, client id and host", b.Protocol, b.Members[0].MemberRef)
	}
	for _, p := range b.Partitions {
		if p.Member == nil || p.Member.MemberID != b.Members[0].MemberID {
			t.Errorf("billing %s-%d: member %+v, want the live member", p.Topic, p.Partition, p.Member)
		}
	}
	n := findGroup(t, snap, "new-svc")
	if p := findPartition(t, n, "outbox", 0); p.Member == nil || p.Status != model.StatusMissing {
		t.Errorf("new-svc outbox-0: member %v status %v; want the member and missing", p.Member, p.Status)
	}
}
