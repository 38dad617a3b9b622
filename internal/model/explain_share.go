package model

import (
	"fmt"
	"time"
)

// ExplainFor is Explain for a group of type typ: a share group's partitions are told in
// share-group words (start offsets, delivery, the group's share.auto.offset.reset).
func ExplainFor(typ, group string, p *GroupPartition, t *Topic, window time.Duration) string {
	if typ != TypeShare {
		return Explain(group, p, t, window)
	}
	s := p.StartOffset
	switch {
	case p.Status == StatusExpired && s != nil && p.Lost != nil:
		return fmt.Sprintf("%s (%s..%s) %s deleted before share group %s delivered them; its share partition continues from the log start",
			records(*p.Lost), Thousands(*s), Thousands(*s+*p.Lost-1), wereWas(*p.Lost), group)
	case p.Status == StatusAhead && s != nil && p.High != nil && p.Beyond != nil:
		return fmt.Sprintf("start offset %s is %s past the end (high %s): topic recreated, truncated or an unclean leader election",
			Thousands(*s), Thousands(*p.Beyond), Thousands(*p.High))
	case p.Status == StatusMissing:
		return "no start offset yet: a member's first fetch starts the partition where the group's share.auto.offset.reset says"
	case p.Status == StatusAtRisk && s != nil:
		return fmt.Sprintf("record %s, the next %s delivers, can be deleted by retention within the %s risk window",
			Thousands(*s), group, HumanDuration(window))
	case p.Status == StatusOK && s != nil && p.Lag != nil && *p.Lag == 0:
		return fmt.Sprintf("caught up: the broker counts no record left to deliver or acknowledge (start offset %s)", Thousands(*s))
	case p.Status == StatusOK && s != nil && p.Lag != nil:
		return fmt.Sprintf("%s not yet delivered or acknowledged (the broker's lag; start offset %s)", records(*p.Lag), Thousands(*s))
	case p.Status == StatusOK && s != nil:
		return fmt.Sprintf("start offset %s within the stored records (this broker gives no share lag)", Thousands(*s))
	}
	return Explain(group, p, t, window)
}
