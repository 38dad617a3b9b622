// Package timeaxis measures a group over time (docs/timeaxis.md): the bounded
// history of committed offsets and high watermarks, the rates, ETA and evaluation
// of each partition, the time to loss and its sentence, and the comparison with a
// baseline snapshot. The values it computes (model.PartitionTime, model.GroupTime,
// model.Window, the baseline changes) are declared in internal/model, because the
// snapshot carries them; this package fills them. It is pure: no I/O.
package timeaxis
