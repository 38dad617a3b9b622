// Package write writes group offsets as Kafka's own tools do, never joining the
// group: OffsetCommit in the admin form, OffsetDelete, DeleteGroups, and the share
// groups' AlterShareGroupOffsets and DeleteShareGroupOffsets, each to the group's
// coordinator. Each is sent once (wire.CallOnce): a lost answer is read back, not
// written again. DeleteGroups alone goes with wire.Call, sent again once when its
// connection dropped: a group deleted twice is deleted once, and the second answer,
// GROUP_ID_NOT_FOUND, counts as deleted. The guards around a write are
// internal/reset's; this package only sends it.
package write

import (
	"github.com/offsettui/offsettui/internal/kafka/groupread"
	"github.com/offsettui/offsettui/internal/kafka/wire"
)

// Writer writes on one connection; a group it deletes is forgotten by groups.
type Writer struct {
	conn   *wire.Conn
	groups *groupread.Reader
}

// New returns a Writer on conn.
func New(conn *wire.Conn, groups *groupread.Reader) *Writer {
	return &Writer{conn: conn, groups: groups}
}
