package model

// Losing now (docs/statuses.md#losing-now): records the group has not read are being
// deleted while the operator looks, the first step of the urgency order.

// LosingNowPartition reports whether p is where the group is losing records now: a
// partition it consumes whose commit is below the log start (expired), while a live
// consumer is there (it reads nothing retention has not deleted already, or jumps by
// auto.offset.reset at its next fetch) or while the group is losing now (its lost count
// grew between its last two snapshots).
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
// partitions it consumes (their lost, low − committed); ok is false when the group could
// not be read.
func (g *Group) LostRecords() (n int64, ok bool) {
	if g.Error != nil {
		return 0, false
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if l := p.Lost(); l != nil && !p.NotConsumed() {
			n += *l
		}
	}
	return n, true
}
