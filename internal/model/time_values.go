package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The time axis (docs/timeaxis.md): what two or more snapshots of the same
// group show that one cannot — rates, a lag trend, an ETA to caught up, an
// evaluation of the consumer's behaviour and the time until retention deletes
// records the group has not read. One snapshot alone shows none of it: every
// field here is null until a second snapshot exists.

// Opt is an optional value that marshals as null when unset. Rows carry it
// by value, so a snapshot of half a million partitions does not allocate a
// pointer per number.
type Opt[T any] struct {
	V  T
	OK bool
}

// Some returns a set Opt.
func Some[T any](v T) Opt[T] { return Opt[T]{V: v, OK: true} }

// MarshalJSON writes the value, or null.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.OK {
		return []byte("null"), nil
	}
	return json.Marshal(o.V)
}

// UnmarshalJSON reads a value or null.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*o = Opt[T]{}
		return nil
	}
	if err := json.Unmarshal(b, &o.V); err != nil {
		return err
	}
	o.OK = true
	return nil
}

// Evaluation judges a consumer's behaviour over the samples kept, after
// Burrow's rules (docs/timeaxis.md says where they differ). The zero value
// means "not evaluated" (one snapshot, or no commit) and marshals as null.
// Higher values are worse.
type Evaluation int

// Evaluations, best first.
const (
	EvalNone Evaluation = iota
	EvalOK
	EvalWarn
	EvalStopped
	EvalStalled
	EvalRewound
	EvalUnknown
)

var evalNames = [...]string{"", "ok", "warn", "stopped", "stalled", "rewound", "unknown"}

// String returns the JSON name ("stalled"), "" for EvalNone.
func (e Evaluation) String() string {
	if e < 0 || int(e) >= len(evalNames) {
		return fmt.Sprintf("evaluation(%d)", int(e))
	}
	return evalNames[e]
}

// Badge is the upper-case table form ("STALLED"), "-" when not evaluated.
func (e Evaluation) Badge() string {
	if e == EvalNone {
		return "-"
	}
	return strings.ToUpper(e.String())
}

// Problem reports whether the evaluation is worth an on-call engineer's look.
func (e Evaluation) Problem() bool { return e >= EvalWarn }

// MarshalJSON writes the name, or null for EvalNone.
func (e Evaluation) MarshalJSON() ([]byte, error) { return nameJSON(e.String()) }

// UnmarshalJSON reads a name or null.
func (e *Evaluation) UnmarshalJSON(b []byte) error {
	i, err := nameFromJSON(b, evalNames[:], "evaluation")
	*e = Evaluation(i)
	return err
}

// ETAState says how a partition or group is doing against its lag. The zero
// value means unknown and marshals as null.
type ETAState int

// ETA states, best first.
const (
	ETANone ETAState = iota
	ETACaughtUp
	ETACatchingUp
	ETANever
	ETAStopped
	ETAStalled
	ETARewound
)

var etaNames = [...]string{"", "caught-up", "catching-up", "never", "stopped", "stalled", "rewound"}

// String returns the JSON name ("catching-up"), "" for ETANone.
func (s ETAState) String() string {
	if s < 0 || int(s) >= len(etaNames) {
		return fmt.Sprintf("eta(%d)", int(s))
	}
	return etaNames[s]
}

// MarshalJSON writes the name, or null for ETANone.
func (s ETAState) MarshalJSON() ([]byte, error) { return nameJSON(s.String()) }

// UnmarshalJSON reads a name or null.
func (s *ETAState) UnmarshalJSON(b []byte) error {
	i, err := nameFromJSON(b, etaNames[:], "eta")
	*s = ETAState(i)
	return err
}

func nameJSON(n string) ([]byte, error) {
	if n == "" {
		return []byte("null"), nil
	}
	return json.Marshal(n)
}

func nameFromJSON(b []byte, names []string, what string) (int, error) {
	var n *string
	if err := json.Unmarshal(b, &n); err != nil {
		return 0, err
	}
	if n == nil {
		return 0, nil
	}
	for i, name := range names {
		if i > 0 && name == *n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q", what, *n)
}

// PartitionTime is one group partition on the time axis. Rates are offsets
// per second over the samples kept (records per second on topics without
// compaction or transactions).
type PartitionTime struct {
	// ConsumeRate is how fast the committed offset moved; null without a
	// commit in two samples.
	ConsumeRate Opt[float64] `json:"consumeRate"`
	// ProduceRate is how fast the high watermark moved.
	ProduceRate Opt[float64] `json:"produceRate"`
	// LagRate is how fast the lag changed: positive when it grows.
	LagRate Opt[float64] `json:"lagRate"`
	ETA     ETAState     `json:"eta"`
	// ETAMs is the time to caught up at these rates: 0 when caught up, null
	// when never (or unknown).
	ETAMs      Opt[int64] `json:"etaMs"`
	Evaluation Evaluation `json:"evaluation"`
	// Loss is set when, at these rates, retention deletes records the group
	// has not read.
	Loss *Loss `json:"loss"`
}

// Loss is when retention overtakes a consumer at its current rate.
type Loss struct {
	// InMs is the time until retention may delete a record the group has not
	// read yet.
	InMs int64 `json:"inMs"`
	// NextExpiresInMs is when the next record the group needs may be deleted.
	NextExpiresInMs int64 `json:"nextExpiresInMs"`
	// ConsumeRate is the rate the prediction is made at (0 when not moving).
	ConsumeRate float64 `json:"consumeRate"`
	// NeededRate is the consume rate at and above which nothing is lost.
	NeededRate float64 `json:"neededRate"`
}

// GroupTime is a group on the time axis: sums of its partitions' rates and
// the worst of their ETAs and evaluations. Partitions without a commit are
// left out, as from the total lag; a partition whose position is unknown
// makes every sum and the ETA null (never a partial number shown as whole).
type GroupTime struct {
	// Samples is how many snapshots of the group are kept.
	Samples int `json:"samples"`
	// WindowMs is the time between the first and the last of them.
	WindowMs    int64        `json:"windowMs"`
	ConsumeRate Opt[float64] `json:"consumeRate"`
	ProduceRate Opt[float64] `json:"produceRate"`
	LagRate     Opt[float64] `json:"lagRate"`
	// ETA is the worst partition's; ETAMs the longest partition ETA, set only
	// when every partition with a commit has one.
	ETA        ETAState   `json:"eta"`
	ETAMs      Opt[int64] `json:"etaMs"`
	Evaluation Evaluation `json:"evaluation"`
	// Loss is the partition that retention overtakes soonest, with the
	// sentence an incident needs.
	Loss *GroupLoss `json:"loss"`
}

// GroupLoss is the soonest loss among a group's partitions.
type GroupLoss struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Loss
	// Sentence says it in words, e.g. "orders-3: at this rate the group
	// catches up in 3h, but retention deletes records it has not read in 52m…".
	Sentence string `json:"sentence"`
}

// Window says which snapshots the time axis of a snapshot is measured over.
type Window struct {
	// Samples is how many snapshots are kept and measured from; Snapshots how many
	// were taken from the first of them to the last (more than Samples when a
	// sample closer than the minimum gap replaced the newest).
	Samples   int   `json:"samples"`
	Snapshots int   `json:"snapshots"`
	From      Stamp `json:"from"`
	To        Stamp `json:"to"`
}
