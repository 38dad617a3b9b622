package wire

import (
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestOffsetsPartitionJava: the partition of a group is Kafka's abs(groupId.hashCode()) %
// partitions, with Java's String.hashCode (values well known from Java) and Utils.abs
// (Math.abs, 0 for Integer.MIN_VALUE, which "polygenelubricants" hashes to).
func TestOffsetsPartitionJava(t *testing.T) {
	for _, c := range []struct {
		group string
		n     int32
		want  int32
	}{
		{"abc", 50, 96354 % 50},
		{"hello", 50, 99162322 % 50},
		{"polygenelubricants", 50, 0},
		{"Aa", 7, 2112 % 7}, // "Aa" and "BB" collide in Java
		{"BB", 7, 2112 % 7},
		{"", 50, 0},
		{"offsettui-shard-probe-0", 6, 2}, // hashCode -727707860: Math.abs gives 2, the sign bit cleared 0
		{"€", 50, 0x20AC % 50},            // one UTF-16 unit
		{"😀", 50, (0xD83D*31 + 0xDE00) % 50},
	} {
		if got := OffsetsPartition(c.group, c.n); got != c.want {
			t.Errorf("OffsetsPartition(%q, %d) = %d, want %d", c.group, c.n, got, c.want)
		}
	}
}

// TestOffsetsPartition: OffsetsPartition agrees with the tests' own implementation of
// Kafka's rule (which encodes to UTF-16 first), on the corners: a hash of Integer.MIN_VALUE
// ("polygenelubricants", Utils.abs gives 0), characters outside the BMP (surrogate
// pairs), and the values Java gives for a few ids.
func TestOffsetsPartition(t *testing.T) {
	for _, c := range []struct {
		group string
		n     int32
		want  int32
	}{
		{"polygenelubricants", 50, 0}, // "polygenelubricants".hashCode() == Integer.MIN_VALUE
		{"", 50, 0},
		{"billing", 50, 9},   // Java 17: Math.abs("billing".hashCode()) % 50
		{"orders-app", 3, 1}, // Java 17: Math.abs("orders-app".hashCode()) % 3
		{"🚀-rocket", 50, 40}, // Java 17: a surrogate pair
	} {
		if got := OffsetsPartition(c.group, c.n); got != c.want {
			t.Errorf("OffsetsPartition(%q, %d) = %d, want %d", c.group, c.n, got, c.want)
		}
	}
	for _, g := range []string{"polygenelubricants", "billing", "grüße", "日本語", "🚀-rocket", "a\U0010FFFFb", "x"} {
		for _, n := range []int32{1, 3, 50, 97} {
			if got, want := OffsetsPartition(g, n), realkafka.OffsetsPartition(g, n); got != want {
				t.Errorf("OffsetsPartition(%q, %d) = %d, realkafka says %d", g, n, got, want)
			}
		}
	}
}

func FuzzOffsetsPartition(f *testing.F) {
	for _, s := range []string{"polygenelubricants", "billing", "🚀", "\xff"} {
		f.Add(s, int32(50))
	}
	f.Fuzz(func(t *testing.T, group string, n int32) {
		if n <= 0 {
			return
		}
		if got, want := OffsetsPartition(group, n), realkafka.OffsetsPartition(group, n); got != want {
			t.Errorf("OffsetsPartition(%q, %d) = %d, realkafka says %d", group, n, got, want)
		}
	})
}
