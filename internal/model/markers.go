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
