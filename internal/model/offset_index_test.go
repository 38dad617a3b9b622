package model

import "testing"

// The index answers as the map does, for dense, sparse, negative and absent
// partitions.
func TestOffsetIndexIsTheMap(t *testing.T) {
	m := map[TP]PartitionOffsets{
		{"a", 0}: {Low: Ptr(int64(1))}, {"a", 1}: {High: Ptr(int64(2))}, {"a", 2}: {Low: Ptr(int64(3))},
		{"sparse", 0}: {Low: Ptr(int64(4))}, {"sparse", 7}: {High: Ptr(int64(5))}, {"sparse", 1 << 30}: {Low: Ptr(int64(6))},
		{"neg", -1}: {Low: Ptr(int64(7))},
	}
	x := IndexOffsets(m)
	for _, topic := range []string{"a", "sparse", "neg", "absent"} {
		for _, p := range []int32{-1, 0, 1, 2, 3, 7, 1 << 30} {
			got, want := x.Topic(topic).Get(p), m[TP{topic, p}]
			if got.Low != want.Low || got.High != want.High {
				t.Errorf("%s-%d: got %+v, want %+v", topic, p, got, want)
			}
		}
	}
}
