// Package assemble turns an Observation, what internal/kafka read from a cluster, into the
// Snapshot the front ends show: each group's partitions found, classified
// (internal/model/status), given their commit-expiry clock (internal/model/expiry), rolled
// up, and the groups put in urgency order; and it narrows a snapshot of every group to
// what a read of some of them would hold (serve's read API). It is pure: no I/O.
package assemble
