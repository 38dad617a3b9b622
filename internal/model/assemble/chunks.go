package assemble

import (
	"runtime"
	"sync"
)

// chunkSize is the number of groups one goroutine assembles at a time: enough rows that
// starting it costs nothing beside them.
const chunkSize = 256

// inChunks calls do on [from, to) ranges covering [0, n), as many at once as there are
// cores: assembling 10,000 groups is a third of a snapshot's CPU, and each group is
// assembled from the observation alone. Below two chunks it runs in the caller.
func inChunks(n int, do func(from, to int)) {
	if n < 2*chunkSize {
		do(0, n)
		return
	}
	var (
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range min(runtime.GOMAXPROCS(0), (n+chunkSize-1)/chunkSize) {
		wg.Go(func() {
			for from := range next {
				do(from, min(from+chunkSize, n))
			}
		})
	}
	for from := 0; from < n; from += chunkSize {
		next <- from
	}
	close(next)
	wg.Wait()
}
