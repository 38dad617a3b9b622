package model

// TransactionMarkers is what lies between a committed offset and the high watermark when a
// read_committed consumer would receive none of it: the control records that end
// transactions (commit and abort markers) and the records of aborted transactions. The
// consumer's position moves past them without a record delivered, so a consumer that
// committed "last record + 1" sits before them for ever although it has read everything.
// Such a partition is caught up: its lag is 0, and KafkaLag keeps the number Kafka's CLI
// shows (high − committed).
type TransactionMarkers struct {
	ControlRecords int64 `json:"controlRecords"`
	AbortedRecords int64 `json:"abortedRecords"`
	KafkaLag       int64 `json:"kafkaLag"`
}

// onlyMarkers reports whether committed c is caught up past transaction markers: below high,
// with no open transaction (last stable = high), and m found nothing else up to high.
func onlyMarkers(m *TransactionMarkers, c int64, o PartitionOffsets) bool {
	return m != nil && o.LastStable != nil && o.High != nil && *o.LastStable == *o.High && c < *o.High &&
		m.ControlRecords+m.AbortedRecords > 0 && m.ControlRecords+m.AbortedRecords <= *o.High-c
}
