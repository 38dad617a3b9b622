// Package commitlog reads __consumer_offsets, the log where every group's commits
// are kept: forward from where the last read stopped for the commit-expiry clock,
// and backwards, window by window, for the commits a group's committers made. It
// reads the topic's partitions from their leaders with Fetch, through
// internal/kafka/wire, and its watermarks through internal/kafka/logread.
package commitlog

import (
	"github.com/offsettui/offsettui/internal/kafka/logread"
	"github.com/offsettui/offsettui/internal/kafka/wire"
)

// Reader reads __consumer_offsets on one connection. It keeps what the forward
// read found between snapshots (state.go); one read at a time.
type Reader struct {
	conn *wire.Conn
	logs *logread.Reader
	// clog keeps what reads of __consumer_offsets found (state.go).
	clog commitLogCache
}

// New returns a Reader on conn that reads watermarks through logs.
func New(conn *wire.Conn, logs *logread.Reader) *Reader {
	return &Reader{conn: conn, logs: logs, clog: newCommitLogCache()}
}
