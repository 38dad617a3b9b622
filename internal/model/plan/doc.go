// Package plan computes reset plans with the semantics of Kafka's own
// kafka-consumer-groups and kafka-share-groups tools (docs/resets.md): strategies
// and scopes, each partition's target and effects, the guards that block a write,
// the re-check right before it, the backup and undo rows (the offsets CSV), and
// what became of an executed plan. It is pure: the I/O side reads an Input and
// writes what a plan says.
package plan
