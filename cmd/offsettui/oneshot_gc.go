package main

import "runtime/debug"

// oneShotGCPercent is the collector's target for a command that takes one snapshot and
// exits: its heap only grows until the snapshot is written, so collecting at 4× the live
// heap rather than 2× saves most of the collections. At 10,000 groups that is about 15% of
// the whole process's time at the same peak; at 1,000 the peak is 25 MiB higher
// (docs/testing.md#speed).
const oneShotGCPercent = 300

// oneShotGC sets the collector for a one-snapshot command and returns what restores it.
func oneShotGC() (restore func()) {
	old := debug.SetGCPercent(oneShotGCPercent)
	return func() { debug.SetGCPercent(old) }
}
