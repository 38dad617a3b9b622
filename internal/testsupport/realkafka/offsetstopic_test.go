package realkafka_test

import (
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// OffsetsPartition agrees with Kafka's Utils.abs(groupId.hashCode()) % n, as Java computed it
// for these names ("polygenelubricants" hashes to Integer.MIN_VALUE; the last two need UTF-16
// code units, one of them a surrogate pair).
func TestOffsetsPartitionMatchesJava(t *testing.T) {
	for _, c := range []struct {
		group       string
		mod50, mod3 int32
	}{
		{"", 0, 0},
		{"a", 47, 1},
		{"my-group", 12, 0},
		{"connect-sink-orders", 28, 2},
		{"it-stale-grp-bb36f8d9", 26, 1},
		{"polygenelubricants", 0, 0},
		{"gröup-é", 18, 0},
		{"群组-消费者", 31, 2},
		{"😀-emoji", 38, 2},
	} {
		if got := realkafka.OffsetsPartition(c.group, 50); got != c.mod50 {
			t.Errorf("OffsetsPartition(%q, 50) = %d, Java: %d", c.group, got, c.mod50)
		}
		if got := realkafka.OffsetsPartition(c.group, 3); got != c.mod3 {
			t.Errorf("OffsetsPartition(%q, 3) = %d, Java: %d", c.group, got, c.mod3)
		}
	}
}
