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
