package status

import "github.com/offsettui/offsettui/internal/model"

// Numbers hands out *int64 from blocks: a snapshot's rows point at some 2 million numbers,
// and one allocation per number is most of what assembling them costs (and then what the
// collector scans). The zero value works; a nil *Numbers allocates each number alone.
type Numbers struct {
	block []int64
}

// numbersBlock is the numbers per block: a few 50-partition groups' worth.
const numbersBlock = 512

// Ptr returns a pointer to a new int64 holding v.
func (a *Numbers) Ptr(v int64) *int64 {
	if a == nil {
		return model.Ptr(v)
	}
	if len(a.block) == cap(a.block) {
		a.block = make([]int64, 0, numbersBlock)
	}
	a.block = append(a.block, v)
	return &a.block[len(a.block)-1]
}
