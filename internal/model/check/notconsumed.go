package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// CodeNotConsumed notes a partition of a topic no member of the group subscribes to: it is
// shown, not judged (docs/statuses.md#partitions-nobody-consumes).
const CodeNotConsumed = "not-consumed"

// notConsumedPartition is a partition no member subscribes to: it passes with a note that
// says why and what its commit is, for the check judges what the running consumer reads.
func notConsumedPartition(g model.Group, gp model.GroupPartition) Partition {
	p := Partition{Topic: gp.Topic, Partition: gp.Partition, Low: gp.Low, High: gp.High, Committed: gp.Committed,
		Status: gp.Status, Lost: gp.Lost(), Beyond: gp.Beyond(), ExpiresInMs: gp.ExpiresInMs, Result: VerdictPass, Pass: true,
		Reasons: []Reason{}, Notes: []Reason{}, Error: gp.Error, Time: gp.Time,
		CommitsExpireAt: gp.CommitsExpireAt, CommitsExpireBy: gp.CommitsExpireBy}
	p.note(CodeNotConsumed, fmt.Sprintf("no member of %s subscribes to topic %s (%s): not judged, whatever its status (%s); check --topic %s judges it",
		g.Group, gp.Topic, subscribedText(g), gp.Status, gp.Topic))
	return p
}

// notConsumedNote is the group's note naming the topics no member subscribes to and when
// Kafka deletes their commits.
func notConsumedNote(g model.Group, checked []Partition, offsetsRetentionMinutes *int64) (Reason, bool) {
	var topics []string
	for _, p := range checked {
		if p.notConsumed() && (len(topics) == 0 || topics[len(topics)-1] != p.Topic) {
			topics = append(topics, p.Topic)
		}
	}
	if len(topics) == 0 {
		return Reason{}, false
	}
	kept := "offsets.retention.minutes (default 7d)"
	if m := offsetsRetentionMinutes; m != nil {
		kept = fmt.Sprintf("offsets.retention.minutes (%s)", text.HumanDuration(time.Duration(*m)*time.Minute))
	}
	return Reason{Code: CodeNotConsumed, Result: VerdictPass, Message: fmt.Sprintf(
		"not judged: no member of %s subscribes to %s %s (%s); while the group has members Kafka deletes each of their commits %s after it was made (KIP-496)",
		g.Group, topicNoun(len(topics)), strings.Join(topics, ", "), subscribedText(g), kept)}, true
}

// subscribedText says what the members subscribe to.
func subscribedText(g model.Group) string {
	subs := g.Subscriptions()
	var parts []string
	if ts := subs.Topics(); len(ts) > 0 {
		parts = append(parts, "its members subscribe to "+strings.Join(ts, ", "))
	}
	for _, re := range subs.Patterns() {
		parts = append(parts, "the pattern "+re)
	}
	if len(parts) == 0 {
		return "its members subscribe to no topic"
	}
	return strings.Join(parts, " and ")
}

// notConsumed reports whether the partition was left unjudged as not consumed.
func (p *Partition) notConsumed() bool {
	for _, n := range p.Notes {
		if n.Code == CodeNotConsumed {
			return true
		}
	}
	return false
}

func topicNoun(n int) string {
	if n == 1 {
		return "topic"
	}
	return "topics"
}
