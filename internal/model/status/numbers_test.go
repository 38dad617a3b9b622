package status

import "testing"

// Every number handed out keeps its value and its own slot, across blocks, and a nil
// *Numbers still hands out numbers.
func TestNumbers(t *testing.T) {
	for _, a := range []*Numbers{nil, {}, {block: make([]int64, 0, 3)}} {
		var ps []*int64
		for i := range int64(3*numbersBlock + 5) {
			ps = append(ps, a.Ptr(i))
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
