package serve

import (
	"fmt"
	"regexp"
	"slices"
)

// Which series serve exports (docs/metrics.md "Choosing the series"): the groups and
// topics its filters keep, and how finely it splits lag. They choose series only: every
// snapshot reads every group, whatever is exported of it.

// Granularity is how finely the lag and time-lag series are split.
type Granularity int

// The granularities.
const (
	// GranularityPartition: a group's totals, and the lag of each partition that is not ok
	// among its series (the default, as before the choice).
	GranularityPartition Granularity = iota
	// GranularityTopic: a group's totals and one lag series per topic; no lag series carries
	// a partition label.
	GranularityTopic
	// GranularityGroup: a group's totals only.
	GranularityGroup
)

var granularityNames = [...]string{"partition", "topic", "group"}

func (g Granularity) String() string {
	if g < 0 || int(g) >= len(granularityNames) {
		return fmt.Sprintf("Granularity(%d)", int(g))
	}
	return granularityNames[g]
}

// ParseGranularity reads a granularity's name.
func ParseGranularity(s string) (Granularity, error) {
	if i := slices.Index(granularityNames[:], s); i >= 0 {
		return Granularity(i), nil
	}
	return 0, fmt.Errorf("want partition, topic or group, got %q", s)
}

// Selection chooses the series: a group is exported when a name of IncludeGroups (all,
// when empty) matches it and none of ExcludeGroups does, and a topic likewise. A topic left
// out has no series of its own (its partitions' and its lag), and still counts in its
// group's totals.
type Selection struct {
	IncludeGroups, ExcludeGroups []*regexp.Regexp
	IncludeTopics, ExcludeTopics []*regexp.Regexp
	Granularity                  Granularity
}

// CompileNames compiles the regular expressions of flag (RE2 syntax), each matching a
// whole name, as Kafka's tools match their patterns (Java's Matcher.matches).
func CompileNames(flag string, exprs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(exprs))
	for _, e := range exprs {
		re, err := regexp.Compile(`^(?:` + e + `)$`)
		if err != nil {
			return nil, fmt.Errorf("%s %q: not a regular expression (RE2 syntax): %w", flag, e, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// group reports whether the group's series are exported.
func (s *Selection) group(name string) bool { return chosen(name, s.IncludeGroups, s.ExcludeGroups) }

// topic reports whether the topic's series are exported.
func (s *Selection) topic(name string) bool { return chosen(name, s.IncludeTopics, s.ExcludeTopics) }

// chosen: an exclusion wins; without inclusions everything else is in.
func chosen(name string, include, exclude []*regexp.Regexp) bool {
	matches := func(re *regexp.Regexp) bool { return re.MatchString(name) }
	if slices.ContainsFunc(exclude, matches) {
		return false
	}
	return len(include) == 0 || slices.ContainsFunc(include, matches)
}
