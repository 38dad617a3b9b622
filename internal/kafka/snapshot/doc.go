// Package snapshot observes a cluster: the groups a query names (groupread), the
// partitions and configs of the topics they read or the query names (logread) and
// what __consumer_offsets says of those groups (commitlog), as one
// model.Observation, then assembled into a model.Snapshot; and the same observation
// of one group for a reset plan (planinput.go).
package snapshot

import (
	"github.com/offsettui/offsettui/internal/kafka/commitlog"
	"github.com/offsettui/offsettui/internal/kafka/groupread"
	"github.com/offsettui/offsettui/internal/kafka/logread"
	"github.com/offsettui/offsettui/internal/kafka/wire"
)

// Reader takes snapshots on one connection through the three readers.
type Reader struct {
	conn      *wire.Conn
	groups    *groupread.Reader
	logs      *logread.Reader
	commitLog *commitlog.Reader
}

// New returns a Reader on conn.
func New(conn *wire.Conn, groups *groupread.Reader, logs *logread.Reader, commitLog *commitlog.Reader) *Reader {
	return &Reader{conn: conn, groups: groups, logs: logs, commitLog: commitLog}
}
