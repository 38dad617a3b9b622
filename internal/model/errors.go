package model

import (
	"fmt"
	"strings"
)

// ErrorKind is the coarse class of a failure, chosen so an operator knows what to try.
type ErrorKind string

// Error kinds (docs/json.md).
const (
	KindDenied      ErrorKind = "denied"
	KindTimeout     ErrorKind = "timeout"
	KindUnreachable ErrorKind = "unreachable"
	KindBroker      ErrorKind = "broker"
	KindNotFound    ErrorKind = "not-found"
	KindUnsupported ErrorKind = "unsupported"
)

// Error is a failure attached to the item it concerns (broker, group, topic or
// partition). It is data, shown where the item is shown, and collected in
// Snapshot.Errors; it never turns into a zero.
type Error struct {
	Kind      ErrorKind `json:"kind"`
	Code      *string   `json:"code"`
	Message   string    `json:"message"`
	Topic     *string   `json:"topic"`
	Partition *int32    `json:"partition"`
	Group     *string   `json:"group"`
	Broker    *int32    `json:"broker"`
}

// Error renders the error with the item it is about.
func (e *Error) Error() string {
	var where []string
	if e.Group != nil {
		where = append(where, "group "+*e.Group)
	}
	if e.Topic != nil {
		t := "topic " + *e.Topic
		if e.Partition != nil {
			t = fmt.Sprintf("partition %s-%d", *e.Topic, *e.Partition)
		}
		where = append(where, t)
	}
	if e.Broker != nil {
		where = append(where, fmt.Sprintf("broker %d", *e.Broker))
	}
	msg := e.Message
	if e.Code != nil && !strings.Contains(msg, *e.Code) {
		msg = *e.Code + ": " + msg
	}
	if len(where) == 0 {
		return fmt.Sprintf("%s: %s", e.Kind, msg)
	}
	return fmt.Sprintf("%s (%s): %s", strings.Join(where, ", "), e.Kind, msg)
}

// WithGroup returns a copy of e that names group g.
func (e Error) WithGroup(g string) *Error { e.Group = &g; return &e }

// WithTopic returns a copy of e that names topic t.
func (e Error) WithTopic(t string) *Error { e.Topic = &t; return &e }

// WithPartition returns a copy of e that names partition tp.
func (e Error) WithPartition(tp TP) *Error {
	e.Topic = &tp.Topic
	e.Partition = &tp.Partition
	return &e
}

// Messages of the snapshot-wide visibility notes (see VisibilityError).
const (
	hiddenTopicsMessage  = "this principal cannot describe every topic (the broker denied it a topic name): Kafka leaves commits on topics it may not describe out of every group, so totals are lower bounds; grant Describe on all topics, or name the topics (check --topic)"
	mayHideTopicsMessage = "this principal is not a super user (it lacks CLUSTER_ACTION), so ACLs may hide topics from it: Kafka would leave commits on topics it may not describe out of every group, so totals are lower bounds; grant Describe on all topics, or name the topics (check --topic)"
	unknownTopicsMessage = "could not determine whether this principal can see every topic; group totals are lower bounds"
)

// VisibilityError is the snapshot-wide note that topics may be hidden from the
// principal (visible false) or that this could not be determined (visible nil).
// probeDenied tells a hard denial (the broker answered TOPIC_AUTHORIZATION_FAILED for
// the probe topic) from a principal that is only not a super user, whose ACLs may hide
// topics: only the first carries Kafka's code.
func VisibilityError(visible *bool, probeDenied bool) Error {
	switch {
	case visible == nil:
		return Error{Kind: KindUnsupported, Message: unknownTopicsMessage}
	case probeDenied:
		return Error{Kind: KindDenied, Code: Ptr("TOPIC_AUTHORIZATION_FAILED"), Message: hiddenTopicsMessage}
	}
	return Error{Kind: KindDenied, Message: mayHideTopicsMessage}
}

// IsVisibilityNote reports whether e is one of VisibilityError's notes.
func (e *Error) IsVisibilityNote() bool {
	return e.Group == nil && e.Topic == nil && e.Broker == nil &&
		(e.Message == hiddenTopicsMessage || e.Message == mayHideTopicsMessage || e.Message == unknownTopicsMessage)
}

// BrokerConfigsWhat starts the message of an error reading the broker's
// offsets.retention.minutes, which only notes depend on.
const BrokerConfigsWhat = "describe broker configs (offsets.retention.minutes)"

// IsBrokerConfigError reports whether e is about reading the broker's configs.
func (e *Error) IsBrokerConfigError() bool {
	return e.Topic == nil && e.Group == nil && strings.HasPrefix(e.Message, BrokerConfigsWhat)
}

// IsGroupNotFound reports whether e says a group does not exist.
func (e *Error) IsGroupNotFound() bool {
	return e != nil && e.Kind == KindNotFound && e.Group != nil && e.Topic == nil
}
