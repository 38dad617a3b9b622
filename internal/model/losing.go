package model

// Losing now (docs/statuses.md#losing-now): records the group has not read are being
// deleted while the operator looks, the first step of the urgency order.

// LosingNowPartition reports whether p is where the group is losing records now: a
// partition it consumes whose commit is below the log start (expired), while a live
// consumer is there (it reads nothing retention has not deleted already, or jumps by
// auto.offset.reset at its next fetch) or while the group is losing now (its lost count
// grew within the last 5 minutes of snapshots: internal/model/timeaxis/losing.go).
func (g *Group) LosingNowPartition(p *GroupPartition) bool {
	return p.Status == StatusExpired && !p.NotConsumed() && (len(g.Members) > 0 || g.LosingNow)
}

// LiveBehindLogStart reports whether the group has members and a partition they consume
// whose commit is below the log start.
func (g *Group) LiveBehindLogStart() bool {
	if len(g.Members) == 0 {
		return false
	}
	for i := range g.Partitions {
		if g.LosingNowPartition(&g.Partitions[i]) {
			return true
		}
	}
	return false
}

// LostRecords is the group's lost count: the records deleted before it read them, over the
// partitions it consumes (their lost, low − committed). ok is false when the group, or the
// status of a partition it consumes, could not be read: a lost count may hide there, and n
// is what could be read.
func (g *Group) LostRecords() (n int64, ok bool) {
	ok = g.Error == nil
	for i := range g.Partitions {
		p := &g.Partitions[i]
		switch {
		case p.NotConsumed():
		case p.Status == StatusUnknown:
			ok = false
		case p.Lost() != nil:
			n += *p.Lost()
		}
	}
	return n, ok
}
