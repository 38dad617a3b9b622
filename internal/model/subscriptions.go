package model

import (
	"regexp"
	"slices"
)

// Subscription is what one member subscribes to, as its group's coordinator holds it: a
// classic member's JoinGroup metadata (the consumer protocol's topics), or a
// consumer-protocol member's topic names and regular expression (ConsumerGroupDescribe).
type Subscription struct {
	Topics []string `json:"topics"`
	// Regex is a consumer-protocol member's regular expression (RE2 syntax, matched against
	// whole topic names, as the broker resolves it), or null.
	Regex *string `json:"regex"`
}

// Subscriptions is what a group subscribes to, as Kafka's group coordinator counts it when
// it decides whether a commit may expire (isSubscribedToTopic, docs/kafka.md). When Known is
// false offsettui cannot tell which topics the group reads, and nothing may be concluded
// from it.
type Subscriptions struct {
	Known    bool
	topics   []string // sorted, distinct
	patterns []string // as the members wrote them
	regexes  []*regexp.Regexp
}

// Topics lists the topics subscribed by name, sorted.
func (s Subscriptions) Topics() []string { return slices.Clone(s.topics) }

// Patterns lists the regular expressions subscribed (consumer protocol), as written.
func (s Subscriptions) Patterns() []string { return slices.Clone(s.patterns) }

// Has reports whether a member of the group subscribes to topic (false when not Known).
func (s Subscriptions) Has(topic string) bool {
	if !s.Known {
		return false
	}
	if _, ok := slices.BinarySearch(s.topics, topic); ok {
		return true
	}
	return slices.ContainsFunc(s.regexes, func(re *regexp.Regexp) bool { return re.MatchString(topic) })
}

// Subscriptions returns what the group subscribes to, by the rule of its type and state
// (Kafka's ClassicGroup, ConsumerGroup and StreamsGroup isSubscribedToTopic):
//
//   - classic without a protocol type (a group that only ever had commits, never a member):
//     nothing;
//   - classic "consumer", Empty: nothing; Stable: the union of the members' JoinGroup
//     subscriptions, when every member's could be read; any other state, or another protocol
//     type: not known (the broker gives member metadata only for Stable groups);
//   - consumer protocol, in every state: the union of the members' topic names and the
//     topics their regular expressions match;
//   - streams: Empty or Dead: nothing; otherwise the topology's source and repartition source
//     topics, not known without a topology or when a subtopology names no source topic (a
//     pattern the broker's description leaves out);
//   - share groups, unknown types, and a group that could not be described: not known.
//
// An Empty group subscribes to nothing, as Kafka counts it: nobody consumes now.
func (g *Group) Subscriptions() Subscriptions {
	if g.Members == nil {
		return Subscriptions{}
	}
	switch g.Type {
	case TypeClassic:
		switch {
		case g.ProtocolType == "" && len(g.Members) == 0:
			return Subscriptions{Known: true}
		case g.ProtocolType != "consumer":
			return Subscriptions{}
		case g.State == "Empty" && len(g.Members) == 0:
			return Subscriptions{Known: true}
		case g.State == "Stable":
			return memberSubscriptions(g.Members, false)
		}
	case TypeConsumer:
		return memberSubscriptions(g.Members, true)
	case TypeStreams:
		if g.State == "Empty" || g.State == "Dead" {
			return Subscriptions{Known: true}
		}
		return topologySubscriptions(g.Topology)
	}
	return Subscriptions{}
}

// memberSubscriptions is the union of the members' subscriptions; not known when a member's
// is not, or when a regular expression (allowed only when regex) does not compile.
func memberSubscriptions(members []Member, regex bool) Subscriptions {
	s := Subscriptions{Known: true}
	for i := range members {
		sub := members[i].Subscription
		if sub == nil {
			return Subscriptions{}
		}
		s.topics = append(s.topics, sub.Topics...)
		if sub.Regex != nil && *sub.Regex != "" {
			re, err := regexp.Compile(`^(?:` + *sub.Regex + `)$`)
			if !regex || err != nil {
				return Subscriptions{}
			}
			if !slices.Contains(s.patterns, *sub.Regex) {
				s.patterns, s.regexes = append(s.patterns, *sub.Regex), append(s.regexes, re)
			}
		}
	}
	slices.Sort(s.topics)
	s.topics = slices.Compact(s.topics)
	return s
}

// topologySubscriptions is the source and repartition source topics of a streams topology.
func topologySubscriptions(t *Topology) Subscriptions {
	if t == nil {
		return Subscriptions{}
	}
	s := Subscriptions{Known: true}
	for _, st := range t.Subtopologies {
		if len(st.SourceTopics) == 0 && len(st.RepartitionSourceTopics) == 0 {
			return Subscriptions{}
		}
		s.topics = append(append(s.topics, st.SourceTopics...), st.RepartitionSourceTopics...)
	}
	slices.Sort(s.topics)
	s.topics = slices.Compact(s.topics)
	return s
}
