// Package status holds the rules of docs/statuses.md: how one group partition is
// classified from its commit, its partition's offsets and its topic's configs (ok,
// at-risk, missing, ahead, expired, unknown; transaction markers, compaction, reads from
// remote storage), and how a group's partitions roll up into its counts, worst status and
// total lag. It is pure: no I/O.
package status
