package demo

import (
	"fmt"
	"time"
)

// Topic names of the scenario.
const (
	// TopicOutbox has one partition whose log start was moved past the
	// fanout group's commit, as if retention had run.
	TopicOutbox = "outbox"
	// TopicShipments holds five records with values order-1..order-5.
	TopicShipments = "shipments"
	// TopicTrace has a dot in its name, which some tools mangle.
	TopicTrace = "r11.trace"
	// TopicOrders has six partitions, 72h retention and records spanning
	// the last 70 hours, so old commits are close to expiring.
	TopicOrders = "orders"
	// TopicPayments is compacted; its keys repeat.
	TopicPayments = "payments"
)

// Group names of the scenario.
const (
	// GroupFanout committed outbox at 12, below its log start of 30.
	GroupFanout = "fanout"
	// GroupNewSvc is a live member on outbox that has never committed.
	GroupNewSvc = "new-svc"
	// GroupShipSvc is an offsets-only group, two records behind.
	GroupShipSvc = "ship-svc"
	// GroupTrace is an offsets-only group, three records behind.
	GroupTrace = "r11-trace"
	// GroupAuditExport is an offsets-only group on orders with old commits
	// and no commit for partition 5.
	GroupAuditExport = "audit-export"
	// GroupBilling has a live member on all six orders partitions; its
	// commits were made before the member joined.
	GroupBilling = "billing"
	// GroupReplay committed orders partition 2 at 150, beyond its high
	// watermark of 100.
	GroupReplay = "replay"
	// GroupLedger is an offsets-only group on the compacted payments topic.
	GroupLedger = "ledger"
)

// Topic settings that differ from the broker defaults.
const (
	// OrdersRetention is the retention.ms set on TopicOrders.
	OrdersRetention = 72 * time.Hour
	// PaymentsCleanupPolicy is the cleanup.policy set on TopicPayments.
	PaymentsCleanupPolicy = "compact"
)

// topicSpec describes how one topic is created and filled.
type topicSpec struct {
	name       string
	partitions int32
	records    int64 // per partition
	configs    map[string]string
	low        map[int32]int64               // DeleteRecords targets; absent means 0
	key        func(p int32, k int64) string // nil: records have no key
	value      func(p int32, k int64) string
	at         func(start time.Time, k int64) time.Time
}

// groupSpec describes one group: its commits, made while it is empty, and
// the topics of its live member, which joins afterwards.
type groupSpec struct {
	name    string
	commits map[string]map[int32]int64
	live    []string
}

// scenarioTopics returns a fresh copy of the topic table of docs/demo.md.
func scenarioTopics() []topicSpec {
	return []topicSpec{
		{
			name: TopicOutbox, partitions: 1, records: 40,
			low:   map[int32]int64{0: 30},
			value: func(_ int32, k int64) string { return fmt.Sprintf("event-%d", k) },
			// Evenly over the last two hours: the first record two hours
			// before the start, one every three minutes.
			at: func(start time.Time, k int64) time.Time {
				return start.Add(-2*time.Hour + time.Duration(k)*3*time.Minute)
			},
		},
		{
			name: TopicShipments, partitions: 1, records: 5,
			value: func(_ int32, k int64) string { return fmt.Sprintf("order-%d", k+1) },
			at:    minutely(5),
		},
		{
			name: TopicTrace, partitions: 1, records: 8,
			value: func(_ int32, k int64) string { return fmt.Sprintf("span-%d", k) },
			at:    minutely(8),
		},
		{
			name: TopicOrders, partitions: 6, records: 100,
			configs: map[string]string{"retention.ms": fmt.Sprint(OrdersRetention.Milliseconds())},
			low:     map[int32]int64{5: 40},
			key:     func(p int32, k int64) string { return fmt.Sprintf("order-%d-%d", p, k) },
			value:   func(p int32, k int64) string { return fmt.Sprintf(`{"partition":%d,"n":%d}`, p, k) },
			// Record k at start − 70h + k·42m: the oldest is two hours
			// from the 72h retention, the newest 42 minutes old.
			at: func(start time.Time, k int64) time.Time {
				return start.Add(-70*time.Hour + time.Duration(k)*42*time.Minute)
			},
		},
		{
			name: TopicPayments, partitions: 3, records: 20,
			configs: map[string]string{"cleanup.policy": PaymentsCleanupPolicy},
			key:     func(_ int32, k int64) string { return fmt.Sprintf("acct-%d", k%5) },
			value:   func(p int32, k int64) string { return fmt.Sprintf("balance-%d-%d", p, k) },
			at:      minutely(20),
		},
	}
}

// minutely spaces n records one minute apart, the last a minute before the
// start.
func minutely(n int64) func(time.Time, int64) time.Time {
	return func(start time.Time, k int64) time.Time {
		return start.Add(-time.Duration(n-k) * time.Minute)
	}
}

// scenarioGroups returns a fresh copy of the group table of docs/demo.md.
func scenarioGroups() []groupSpec {
	return []groupSpec{
		{name: GroupFanout, commits: map[string]map[int32]int64{TopicOutbox: {0: 12}}},
		{name: GroupNewSvc, live: []string{TopicOutbox}},
		{name: GroupShipSvc, commits: map[string]map[int32]int64{TopicShipments: {0: 3}}},
		{name: GroupTrace, commits: map[string]map[int32]int64{TopicTrace: {0: 5}}},
		{name: GroupAuditExport, commits: map[string]map[int32]int64{
			TopicOrders: {0: 10, 1: 20, 2: 100, 3: 70, 4: 50},
		}},
		{
			name:    GroupBilling,
			commits: map[string]map[int32]int64{TopicOrders: {0: 95, 1: 96, 2: 97, 3: 98, 4: 99, 5: 100}},
			live:    []string{TopicOrders},
		},
		{name: GroupReplay, commits: map[string]map[int32]int64{
			TopicOrders: {0: 100, 1: 100, 2: 150, 3: 100, 4: 100, 5: 100},
		}},
		{name: GroupLedger, commits: map[string]map[int32]int64{TopicPayments: {0: 10, 1: 15, 2: 20}}},
	}
}
