package display

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// NotConsumedBadge marks a partition of a topic no member of its group subscribes to: its
// own status is shown beside it, but it is not the group's (docs/statuses.md).
const NotConsumedBadge = "NOT-CONSUMED"

// NotConsumedText says which topics of g no member subscribes to, that they are left out
// of the group's total lag and status, and when Kafka deletes their commits;
// offsetsRetentionMinutes is the broker's setting, nil when not read. "" when there are
// none.
func NotConsumedText(g *model.Group, offsetsRetentionMinutes *int64) string {
	if len(g.UnsubscribedTopics) == 0 {
		return ""
	}
	after, setting := "7d", "offsets.retention.minutes default"
	if m := offsetsRetentionMinutes; m != nil {
		after, setting = text.HumanDuration(time.Duration(*m)*time.Minute), "offsets.retention.minutes"
	}
	noun := "topic"
	if len(g.UnsubscribedTopics) > 1 {
		noun = "topics"
	}
	return fmt.Sprintf("no member subscribes to %s %s (%s): not in the total lag or status; Kafka deletes each of its commits %s after it was made (%s, KIP-496)",
		noun, strings.Join(g.UnsubscribedTopics, ", "), SubscribedText(g), after, setting)
}

// SubscribedText says what a group's members subscribe to ("members subscribe to a, b").
func SubscribedText(g *model.Group) string {
	subs := g.Subscriptions()
	var parts []string
	if ts := subs.Topics(); len(ts) > 0 {
		parts = append(parts, "members subscribe to "+strings.Join(ts, ", "))
	}
	for _, re := range subs.Patterns() {
		parts = append(parts, "the pattern "+re)
	}
	if len(parts) == 0 {
		return "members subscribe to no topic"
	}
	return strings.Join(parts, " and ")
}
