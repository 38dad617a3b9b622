package main

import "runtime/debug"

// oneShotGCPercent is the collector's target for a command that takes one snapshot and
// exits: its heap only grows until the snapshot is written, so collecting at 2.5× the live
// heap rather than 2× saves collections. On the real three-node cluster at 10,000 groups
// (docs/testing.md#speed), 3× peaked at 287–335 MiB, 2.5× at 256–292 and 2× at 236–256,
// in the same time; on the fake cluster 2.5× took the time of 3× and 2× some 5% more.
const oneShotGCPercent = 150

// oneShotGC sets the collector for a one-snapshot command and returns what restores it.
func oneShotGC() (restore func()) {
	old := debug.SetGCPercent(oneShotGCPercent)
	return func() { debug.SetGCPercent(old) }
}
