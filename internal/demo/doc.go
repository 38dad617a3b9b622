// Package demo runs an embedded Kafka cluster seeded with a fixed scenario,
// for `offsettui --demo`, `offsettui demo` and for tests of the read path.
//
// The cluster is three kfake brokers on loopback. Start creates the topics,
// produces records whose CreateTime is relative to the start time, commits
// offsets for offsets-only groups, moves log start offsets with
// DeleteRecords and finally lets two live consumer-group members join. The
// live members never commit, so every committed offset is the one in the
// scenario (see Commits and Watermarks) for as long as the cluster runs.
// Options.Traffic adds producers and consumers (franz-go) on topics and
// groups of their own (TrafficGroups), which do move.
//
// The package seeds through internal/seed and runs its live members with
// franz-go: it is a seeding tool, not the read path, so it neither depends on
// internal/kafka nor imports sarama (only internal/kafka does).
package demo
