package commitlog

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// offsetsPartition agrees with the tests' own implementation of Kafka's rule (which
// encodes to UTF-16 first), on the corners: a hash of Integer.MIN_VALUE
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
		if got := offsetsPartition(c.group, c.n); got != c.want {
			t.Errorf("offsetsPartition(%q, %d) = %d, want %d", c.group, c.n, got, c.want)
		}
	}
	for _, g := range []string{"polygenelubricants", "billing", "grüße", "日本語", "🚀-rocket", "a\U0010FFFFb", "x"} {
		for _, n := range []int32{1, 3, 50, 97} {
			if got, want := offsetsPartition(g, n), realkafka.OffsetsPartition(g, n); got != want {
				t.Errorf("offsetsPartition(%q, %d) = %d, realkafka says %d", g, n, got, want)
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
		if got, want := offsetsPartition(group, n), realkafka.OffsetsPartition(group, n); got != want {
			t.Errorf("offsetsPartition(%q, %d) = %d, realkafka says %d", group, n, got, want)
		}
	})
}

// Any bytes as a record of __consumer_offsets: never a panic, and a record that decodes
// is kept only for the group it names.
func FuzzCommitLogRecord(f *testing.F) {
	k := kmsg.NewOffsetCommitKey()
	k.Version, k.Group, k.Topic, k.Partition = 1, "g", "t", 3
	v := kmsg.NewOffsetCommitValue()
	v.Version, v.Offset, v.CommitTimestamp = 3, 42, 1_700_000_000_000
	f.Add(k.AppendTo(nil), v.AppendTo(nil))
	v.Version, v.ExpireTimestamp = 1, 1_800_000_000_000
	f.Add(k.AppendTo(nil), v.AppendTo(nil))
	gk := kmsg.NewGroupMetadataKey()
	gk.Version, gk.Group = 2, "g"
	gv := kmsg.NewGroupMetadataValue()
	gv.Version, gv.ProtocolType, gv.CurrentStateTimestamp = 4, "consumer", 1_700_000_000_000
	f.Add(gk.AppendTo(nil), gv.AppendTo(nil))
	f.Add([]byte{0, 5, 0, 1, 'g'}, []byte(nil))
	f.Fuzz(func(t *testing.T, key, value []byte) {
		st := &offsetsPartitionState{groups: map[string]*groupLogState{"g": {}}, topics: map[string]string{}}
		st.record(key, value, time.UnixMilli(1), -1, 4, 60_000)
		st.record(key, value, time.UnixMilli(2), 7, 4, 60_000)
		st.decide(7, []byte{0, 0, 0, 1}, 4, 60_000)
		if len(st.groups) != 1 || st.groups["g"] == nil {
			t.Fatalf("groups changed: %v", st.groups)
		}
		_, group, ok := keyGroup(key)
		if (len(st.groups["g"].commits) > 0 || st.groups["g"].classic != nil) && (!ok || string(group) != "g") {
			t.Errorf("a record of group %q (%v) was kept for g", group, ok)
		}
		for tp, c := range st.groups["g"].commits {
			if tp.Topic == "" && len(key) < 8 {
				t.Errorf("commit %v: %+v from a key too short to hold one", tp, c)
			}
		}
	})
}
