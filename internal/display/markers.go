package display

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// MarkersText says what lies between a commit and high when only transaction markers and
// aborted records do: "1 transaction marker; Kafka's CLI shows LAG 1".
func MarkersText(m *model.TransactionMarkers) string {
	s := text.Plural(m.ControlRecords, "transaction marker")
	if m.AbortedRecords > 0 {
		s += " and " + text.Plural(m.AbortedRecords, "aborted record")
	}
	return fmt.Sprintf("%s; Kafka's CLI shows LAG %d", s, m.KafkaLag)
}
