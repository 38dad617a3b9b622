// Package logread reads the topics' partitions from their leaders and the
// brokers' configs: low, high and last stable offsets (ListOffsets), the first
// offset at or after a time, the local log start of tiered topics, topic and
// broker configs, the timestamps of committed records, transaction markers and the
// records a compacted partition still holds at a commit (Fetch). Every
// per-partition failure goes on that partition. It sends through
// internal/kafka/wire.
package logread

import (
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// Reader reads partitions and configs on one connection. It keeps what it learned
// between snapshots (committed records' timestamps, commits a reader has records
// after, configs until their max age) and is safe for concurrent use.
type Reader struct {
	conn *wire.Conn

	tsMu   sync.Mutex
	tsSeen map[model.TPO]time.Time
	// dataSeen holds commits a read_committed consumer has records after (markers.go).
	dataSeen map[model.TPO]struct{}

	configs configCache
}

// New returns a Reader on conn.
func New(conn *wire.Conn) *Reader {
	return &Reader{conn: conn, tsSeen: map[model.TPO]time.Time{}}
}
