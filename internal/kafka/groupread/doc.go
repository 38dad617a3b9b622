// Package groupread reads consumer groups from their coordinators: ListGroups per
// broker, the describes of every group type (classic, consumer, share, streams),
// the committed offsets with OffsetFetch (many groups per request), the share
// groups' start offsets and configs, the groups ListGroups leaves out, and the
// memory of the groups of the last snapshot. Every per-group failure goes on that
// group. It sends through internal/kafka/wire and never joins a group.
package groupread

import "github.com/offsettui/offsettui/internal/kafka/wire"

// Reader reads groups on one connection. It keeps the groups of the last snapshot
// of all groups between snapshots (remember.go); it is safe for concurrent use.
type Reader struct {
	conn *wire.Conn
	// seen holds the groups of the last snapshot of all groups (remember.go).
	seen groupMemory
}

// New returns a Reader on conn.
func New(conn *wire.Conn) *Reader { return &Reader{conn: conn} }

// Remembers reports whether a snapshot of all groups has been taken before: until
// then a listing has nothing to compare with (remember.go).
func (c *Reader) Remembers() bool { return !c.seen.empty() }

// Forget drops group from the memory of the last snapshot: a group this client
// deleted is no group gone missing, and its next snapshot leaves it out at once.
func (c *Reader) Forget(group string) { c.seen.forget(group) }
