package display

import "github.com/offsettui/offsettui/internal/model"

// NeverDeletedLine describes the retention of a topic whose cleanup.policy is empty (Kafka
// 4.2+, KIP-1161) for describe, the report and the TUI, with what still goes on a tiered
// topic; "" for any other topic.
func NeverDeletedLine(t *model.Topic) string {
	if t == nil || !t.NeverDeleted() {
		return ""
	}
	if t.Tiered() {
		return model.NeverDeletedText + ": retention.ms and retention.bytes delete nothing; local segments still go by local.retention.* and stay readable from remote storage"
	}
	return model.NeverDeletedText + ": retention.ms and retention.bytes delete nothing"
}
