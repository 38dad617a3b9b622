package model

import "time"

// Query says what a snapshot should cover.
type Query struct {
	// Groups limits the snapshot to these groups (and fetches only what they need);
	// empty means every consumer group.
	Groups []string
	// Topics keeps only partitions of these topics; Kafka has no topic→group
	// index, so every selected group's offsets are still read.
	Topics []string
	// WholeTopics makes every partition of Topics a partition of each selected
	// group, with or without a commit (check --topic): no commit means missing.
	WholeTopics bool
	// RiskWindow is how far ahead at-risk looks (default 24h).
	RiskWindow time.Duration
	// FetchBudget bounds the bytes fetched to learn committed-record timestamps
	// (time lag, expires-in); 0 fetches none.
	FetchBudget int64
	// TimestampsAtRiskFirst spends the fetch budget on at-risk commits first
	// (the ones whose time to loss can fall within the risk window,
	// docs/timeaxis.md), then on the other commits with lag; without it, in
	// topic and partition order. The TUI's group list asks for it: its time lag
	// fills in across refreshes, as fetched timestamps are cached.
	TimestampsAtRiskFirst bool
	// ConfigMaxAge lets a client reuse topic and broker configs it read less
	// than this long ago instead of asking again; 0 reads them every time.
	// Retention settings change rarely, and the broker applies a change only
	// at its next retention check (log.retention.check.interval.ms, 5 minutes
	// by default), so the TUI's refreshes read them every minute.
	ConfigMaxAge time.Duration
	// CommitLog reads the groups' records in __consumer_offsets (commit times, the
	// time a classic group became Empty: the commit-expiry clock, docs/kafka.md),
	// within CommitLogBudget bytes (0: DefaultCommitLogBudget). With CommitLogCatchUp
	// (a TUI, serve, --watch: one client, many snapshots) the read takes at most a
	// second longer than the rest of the snapshot, and the next snapshot goes on from
	// where it stopped; otherwise the snapshot waits for it.
	CommitLog        bool
	CommitLogBudget  int64
	CommitLogCatchUp bool
	// WaitForHighWatermarks asks again, until one --timeout is left of the deadline, for the
	// watermarks of a partition whose leader answers OFFSET_NOT_AVAILABLE (elected a moment
	// ago, it does not know its high watermark yet), where other snapshots ask again for
	// 1.5 s (docs/kafka.md "When brokers move"): a reset's phases, which refuse to plan
	// without them.
	WaitForHighWatermarks bool
}

// DefaultRiskWindow is the --risk-window default.
const DefaultRiskWindow = 24 * time.Hour

// DefaultFetchBudget is the --fetch-budget default (4 MiB).
const DefaultFetchBudget = 4 << 20

// DefaultCommitLogBudget is the --commit-log-budget default (256 MiB): the record bytes
// one read of __consumer_offsets may fetch.
const DefaultCommitLogBudget = 256 << 20
