package status

import "github.com/offsettui/offsettui/internal/model"

// onlyMarkers reports whether committed c is caught up past transaction markers: below high,
// with no open transaction (last stable = high), and m found nothing else up to high.
func onlyMarkers(m *model.TransactionMarkers, c int64, o model.PartitionOffsets) bool {
	return m != nil && o.LastStable != nil && o.High != nil && *o.LastStable == *o.High && c < *o.High &&
		m.ControlRecords+m.AbortedRecords > 0 && m.ControlRecords+m.AbortedRecords <= *o.High-c
}
