package check

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The verdict of a check and its one-line summary.

// finish computes counts, the verdict and the summary.
func (r *Result) finish() {
	r.Counts = Counts{Partitions: len(r.Partitions)}
	r.Verdict = VerdictPass
	for _, p := range r.Partitions {
		switch p.Result {
		case VerdictPass:
			r.Counts.Pass++
		case VerdictFail:
			r.Counts.Fail++
		default:
			r.Counts.Incomplete++
		}
		if p.Result.rank() > r.Verdict.rank() {
			r.Verdict = p.Result
		}
		if d := p.DeadlineMs; d != nil && (r.DeadlineMs == nil || *d < *r.DeadlineMs) {
			r.DeadlineMs = d
		}
	}
	if len(r.Problems) > 0 || len(r.Partitions) == 0 {
		r.Verdict = VerdictIncomplete
	}
	r.Summary = r.summary()
}

// summary is the one-line verdict, e.g. "FAIL fanout: 1 of 1 partitions fail
// (outbox-0 expired: 18 records 12..29 deleted before the group read them)".
// Partitions no member subscribes to are not judged: they are named, not counted.
func (r *Result) summary() string {
	unjudged := r.unjudgedTopics()
	n := r.Counts.Partitions - unjudged.partitions
	switch r.Verdict {
	case VerdictPass:
		noun := "partitions"
		if n == 1 {
			noun = "partition"
		}
		s := fmt.Sprintf("PASS %s: %d %s proven", r.Group, n, noun)
		if why := r.passNotes(); why != "" {
			s += " (" + why + ")"
		}
		if len(unjudged.topics) > 0 {
			s += "; not consumed, not judged: " + strings.Join(unjudged.topics, ", ")
		}
		return s
	case VerdictFail:
		return fmt.Sprintf("FAIL %s: %d of %d partitions fail (%s)", r.Group, r.Counts.Fail, n, r.firstCause(VerdictFail, r.Counts.Fail))
	}
	var parts []string
	if r.Counts.Incomplete > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d partitions could not be proven", r.Counts.Incomplete, n))
	}
	switch {
	case r.Counts.Fail > 0 && len(parts) > 0:
		parts = append(parts, fmt.Sprintf("%d fail", r.Counts.Fail))
	case r.Counts.Fail > 0:
		parts = append(parts, fmt.Sprintf("%d of %d partitions fail", r.Counts.Fail, n))
	}
	if len(parts) == 0 {
		parts = append(parts, "the proof could not be completed")
	}
	cause := ""
	if len(r.Problems) > 0 && r.Problems[0].Code == CodeNothingToCheck && n == 0 {
		return fmt.Sprintf("INCOMPLETE %s: %s", r.Group, r.Problems[0].Message)
	}
	if len(r.Problems) > 0 {
		cause = r.Problems[0].Message
		if k := len(r.Problems) - 1; k > 0 {
			cause += fmt.Sprintf("; +%d more", k)
		}
	} else {
		cause = r.firstCause(VerdictIncomplete, r.Counts.Incomplete)
	}
	return fmt.Sprintf("INCOMPLETE %s: %s (%s)", r.Group, strings.Join(parts, ", "), cause)
}

// firstCause renders the first reason of the first partition with result v.
func (r *Result) firstCause(v Verdict, count int) string {
	for _, p := range soonestFirst(r.Partitions) {
		if p.Result != v {
			continue
		}
		for _, rs := range p.Reasons {
			if rs.Result == v {
				s := fmt.Sprintf("%s %s: %s", p.TP(), Label(rs.Code), rs.Message)
				if count > 1 {
					s += fmt.Sprintf("; +%d more", count-1)
				}
				return s
			}
		}
	}
	return ""
}

// soonestFirst orders partitions by their deadline: those that already lost records (their
// deadline passed), then the soonest, then those without one, keeping the check's order
// otherwise: the summary names the most urgent cause.
func soonestFirst(ps []Partition) []Partition {
	deadline := func(p Partition) *int64 {
		if p.Lost != nil && *p.Lost > 0 {
			return new(int64)
		}
		return p.DeadlineMs
	}
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b Partition) int {
		da, db := deadline(a), deadline(b)
		switch {
		case da == nil && db == nil:
			return 0
		case da == nil:
			return 1
		case db == nil:
			return -1
		}
		return cmp.Compare(*da, *db)
	})
	return out
}

// passNotes joins the distinct retention notes of the topics checked.
func (r *Result) passNotes() string {
	byTopic := map[string]string{}
	var topics, msgs []string
	for _, p := range r.Partitions {
		for _, n := range p.Notes {
			if n.Code == CodeOnRestart || n.Code == CodeStartsAtLow || n.Code == CodeNotConsumed {
				continue
			}
			if _, ok := byTopic[p.Topic]; !ok {
				topics = append(topics, p.Topic)
			}
			if !strings.Contains(byTopic[p.Topic], n.Message) {
				byTopic[p.Topic] = strings.TrimPrefix(byTopic[p.Topic]+", "+n.Message, ", ")
			}
		}
	}
	for _, t := range topics {
		if !slices.Contains(msgs, byTopic[t]) {
			msgs = append(msgs, byTopic[t])
		}
	}
	if len(msgs) <= 1 {
		return strings.Join(msgs, "")
	}
	msgs = msgs[:0]
	for _, t := range topics {
		msgs = append(msgs, t+": "+byTopic[t])
	}
	return strings.Join(msgs, "; ")
}

// unjudged is what a check left unjudged: the partitions of topics no member subscribes to.
type unjudged struct {
	topics     []string
	partitions int
}

func (r *Result) unjudgedTopics() unjudged {
	var u unjudged
	for i := range r.Partitions {
		if p := &r.Partitions[i]; p.notConsumed() {
			u.partitions++
			if !slices.Contains(u.topics, p.Topic) {
				u.topics = append(u.topics, p.Topic)
			}
		}
	}
	return u
}

// Label is the short text form of a reason code used in tables and verdicts.
func Label(code string) string {
	switch code {
	case CodeRetentionShort:
		return "retention too short"
	case CodeSizeRetention:
		return "size-based retention"
	case CodeTopicConfig:
		return "topic config unreadable"
	}
	return code
}
