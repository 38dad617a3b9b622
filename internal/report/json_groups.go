package report

import (
	"bytes"
	"runtime"

	"github.com/offsettui/offsettui/internal/model"
)

// groupChunk is the number of groups one goroutine writes at a time (3,200 rows of a
// fleet's 50-partition groups, about 1.4 MB of JSON).
const groupChunk = 64

// groups writes the groups array. Many groups are written in chunks by as many goroutines
// as there are cores, each into a buffer of its own, and the buffers go out in order: the
// same bytes as one writer, in about half the time on two cores. Two buffers per core are
// reused from chunk to chunk, so the output is never held whole and allocates little.
func (j *jsonWriter) groups(gs []model.Group) {
	if len(gs) < 2*groupChunk {
		j.array(gs == nil, len(gs), func(i int) { j.group(&gs[i]) })
		return
	}
	type chunk struct {
		buf *bytes.Buffer
		err error
	}
	n := (len(gs) + groupChunk - 1) / groupChunk
	done := make([]chan chunk, n)
	for k := range done {
		done[k] = make(chan chunk, 1)
	}
	free := make(chan *bytes.Buffer, 2*runtime.GOMAXPROCS(0))
	for range cap(free) {
		free <- new(bytes.Buffer)
	}
	go func() {
		for k := range n {
			buf := <-free // waits while every buffer is written or waiting to be
			go func() {
				cw := jsonWriter{w: buf}
				for i := k * groupChunk; i < min((k+1)*groupChunk, len(gs)); i++ {
					if i > 0 {
						cw.raw(",")
					}
					cw.group(&gs[i])
				}
				done[k] <- chunk{buf, cw.err}
			}()
		}
	}()
	j.raw("[")
	for k := range n {
		c := <-done[k]
		if j.err == nil {
			j.err = c.err
		}
		j.bytes(c.buf.Bytes())
		c.buf.Reset()
		free <- c.buf
	}
	j.raw("]")
}
