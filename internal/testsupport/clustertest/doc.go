// Package clustertest holds the tests that bounce the brokers of a real three-node Kafka
// cluster (scripts/kafka.sh cluster) while offsettui reads and writes: describe, check
// and reset run as the built binary, the TUI in-process on internal/kafka, and every
// number is judged by independent franz-go reads. It has no code of its own; the tests
// skip without the cluster (docs/testing.md).
package clustertest
