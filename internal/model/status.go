// Package model is offsettui's pure domain: the values a cluster snapshot holds
// (groups, partitions, topics, per-item errors, and the time-axis values the
// snapshot carries), and the values a consumer's auto.offset.reset takes. Its
// subpackages compute over these values: assemble (a snapshot from what was read),
// status (how each group partition is classified, docs/statuses.md, and rolled up),
// expiry (the commit-expiry clock), timeaxis (rates, ETA, evaluation, time to loss,
// baselines), check (the fail-closed proof), plan (reset plans, guards, results) and
// parse (Kafka's datetime and duration forms). None of them does I/O or knows sarama
// or bubbletea; words for people live in internal/text and internal/display.
package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Status classifies one group partition. The zero value is StatusOK; higher values
// are worse, so severity comparisons are plain integer comparisons.
type Status int8

// Statuses, best first. Sorting "worst first" uses the reverse of this order.
const (
	StatusOK Status = iota
	StatusAtRisk
	StatusMissing
	StatusAhead
	StatusExpired
	StatusUnknown
)

// AllStatuses lists every status worst first, the order docs/statuses.md uses.
var AllStatuses = []Status{StatusUnknown, StatusExpired, StatusAhead, StatusMissing, StatusAtRisk, StatusOK}

// statusNames holds each status' name, indexed by the status.
var statusNames = [...]string{
	StatusOK:      "ok",
	StatusAtRisk:  "at-risk",
	StatusMissing: "missing",
	StatusAhead:   "ahead",
	StatusExpired: "expired",
	StatusUnknown: "unknown",
}

// String returns the status name used in JSON ("at-risk").
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// Badge returns the upper-case text badge shown in tables ("AT-RISK"), so that a
// status never depends on color alone.
func (s Status) Badge() string {
	switch s {
	case StatusOK:
		return "OK"
	case StatusAtRisk:
		return "AT-RISK"
	case StatusMissing:
		return "MISSING"
	case StatusAhead:
		return "AHEAD"
	case StatusExpired:
		return "EXPIRED"
	default:
		return "UNKNOWN"
	}
}

// ParseStatus is the inverse of String.
func ParseStatus(s string) (Status, error) {
	for st, n := range statusNames {
		if n == s {
			return Status(st), nil
		}
	}
	return StatusUnknown, fmt.Errorf("unknown status %q", s)
}

// MarshalJSON writes the status name.
func (s Status) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a status name.
func (s *Status) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	st, err := ParseStatus(n)
	if err != nil {
		return err
	}
	*s = st
	return nil
}

// Counts holds how many partitions have each status. Only non-zero counts are kept,
// so the JSON reads {"expired":1}.
type Counts map[Status]int

// MarshalJSON writes the counts keyed by status name.
func (c Counts) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// AppendJSON appends the counts as MarshalJSON writes them: the non-zero ones keyed by
// status name, in the names' order (as encoding/json orders a map's keys).
func (c Counts) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	for _, s := range statusesByName {
		if n := c[s]; n > 0 {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, s.String()...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	return append(b, '}')
}

// statusesByName lists every status in its name's byte order.
var statusesByName = slices.SortedFunc(slices.Values(AllStatuses), func(a, b Status) int {
	return strings.Compare(a.String(), b.String())
})

// UnmarshalJSON reads counts keyed by status name.
func (c *Counts) UnmarshalJSON(b []byte) error {
	var m map[string]int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := Counts{}
	for k, n := range m {
		st, err := ParseStatus(k)
		if err != nil {
			return err
		}
		out[st] = n
	}
	*c = out
	return nil
}

// StatusCount is how many partitions of a group have one status.
type StatusCount struct {
	Status Status
	N      int
}

// Ordered lists the non-zero counts worst first. OK is listed only when it is
// the only status: a group with problems is summed up by them.
func (c Counts) Ordered() []StatusCount {
	var out []StatusCount
	for _, st := range AllStatuses {
		if n := c[st]; n > 0 && (st != StatusOK || len(out) == 0) {
			out = append(out, StatusCount{st, n})
		}
	}
	return out
}
