package display

import (
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// ExplainFor is Explain for a group of type typ: a share group's partitions are told in
// share-group words (start offsets, delivery, the group's share.auto.offset.reset).
func ExplainFor(typ, group string, p *model.GroupPartition, t *model.Topic, window time.Duration) string {
	if typ != model.TypeShare {
		return Explain(group, p, t, window)
	}
	s := p.StartOffset()
	switch {
	case p.Status == model.StatusExpired && s != nil && p.Lost() != nil:
		return fmt.Sprintf("%s (%s..%s) %s deleted before share group %s delivered them; its share partition continues from the log start",
			records(*p.Lost()), text.Thousands(*s), text.Thousands(*s+*p.Lost()-1), wereWas(*p.Lost()), group)
	case p.Status == model.StatusAhead && s != nil && p.High != nil && p.Beyond() != nil:
		return fmt.Sprintf("start offset %s is %s past the end (high %s): topic recreated, truncated or an unclean leader election",
			text.Thousands(*s), text.Thousands(*p.Beyond()), text.Thousands(*p.High))
	case p.Status == model.StatusMissing:
		return "no start offset yet: a member's first fetch starts the partition where the group's share.auto.offset.reset says"
	case p.Status == model.StatusAtRisk && s != nil:
		return fmt.Sprintf("record %s, the next %s delivers, can be deleted by retention within the %s risk window",
			text.Thousands(*s), group, text.HumanDuration(window))
	case p.Status == model.StatusOK && s != nil && p.Lag != nil && *p.Lag == 0:
		return fmt.Sprintf("caught up: the broker counts no record left to deliver or acknowledge (start offset %s)", text.Thousands(*s))
	case p.Status == model.StatusOK && s != nil && p.Lag != nil:
		return fmt.Sprintf("%s not yet delivered or acknowledged (the broker's lag; start offset %s)", records(*p.Lag), text.Thousands(*s))
	case p.Status == model.StatusOK && s != nil:
		return fmt.Sprintf("start offset %s within the stored records (this broker gives no share lag)", text.Thousands(*s))
	}
	return Explain(group, p, t, window)
}
