package report

import (
	"bytes"
	"runtime"
)

// groupChunk is the number of groups one goroutine writes at a time (3,200 rows of a
// fleet's 50-partition groups: about 1.4 MB of JSON, 0.6 MB of table).
const groupChunk = 64

// inChunks writes items 0 to n−1 in chunks of groupChunk, each chunk by write into a
// buffer of its own on as many goroutines as there are cores, and hands the buffers to
// emit in order: the same bytes as one writer, in about half the time on two cores. Two
// buffers per core are reused from chunk to chunk, so the output is never held whole. The
// first error of write or emit is returned once every chunk is done.
func inChunks(n int, write func(buf *bytes.Buffer, from, to int) error, emit func([]byte) error) error {
	type chunk struct {
		buf *bytes.Buffer
		err error
	}
	chunks := (n + groupChunk - 1) / groupChunk
	done := make([]chan chunk, chunks)
	for k := range done {
		done[k] = make(chan chunk, 1)
	}
	free := make(chan *bytes.Buffer, 2*runtime.GOMAXPROCS(0))
	for range cap(free) {
		free <- new(bytes.Buffer)
	}
	go func() {
		for k := range chunks {
			buf := <-free // waits while every buffer is written or waiting to be
			go func() {
				err := write(buf, k*groupChunk, min((k+1)*groupChunk, n))
				done[k] <- chunk{buf, err}
			}()
		}
	}()
	var first error
	for k := range chunks {
		c := <-done[k]
		if first == nil {
			first = c.err
		}
		if first == nil {
			first = emit(c.buf.Bytes())
		}
		c.buf.Reset()
		free <- c.buf
	}
	return first
}
