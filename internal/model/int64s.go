package model

// int64s hands out *int64 from blocks: a snapshot's rows point at some 2 million numbers,
// and one allocation per number is most of what assembling them costs (and then what the
// collector scans). The zero value works; a nil *int64s allocates each number alone.
type int64s struct {
	block []int64
}

// int64sBlock is the numbers per block: a few 50-partition groups' worth.
const int64sBlock = 512

// ptr returns a pointer to a new int64 holding v.
func (a *int64s) ptr(v int64) *int64 {
	if a == nil {
		return Ptr(v)
	}
	if len(a.block) == cap(a.block) {
		a.block = make([]int64, 0, int64sBlock)
	}
	a.block = append(a.block, v)
	return &a.block[len(a.block)-1]
}
