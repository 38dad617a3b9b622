package model

import "testing"

// Every number handed out keeps its value and its own slot, across blocks, and a nil
// int64s still hands out numbers.
func TestInt64s(t *testing.T) {
	for _, a := range []*int64s{nil, {}, {block: make([]int64, 0, 3)}} {
		var ps []*int64
		for i := range int64(3*int64sBlock + 5) {
			ps = append(ps, a.ptr(i))
		}
		*ps[7] = -1 // a write to one number touches no other
		for i, p := range ps {
			want := int64(i)
			if i == 7 {
				want = -1
			}
			if *p != want {
				t.Fatalf("number %d holds %d, want %d", i, *p, want)
			}
		}
	}
}
