package model

import (
	"slices"
	"strings"
)

// Group types, as ListGroups v5 reports them (docs/kafka.md). Each is described with its own
// API; TypeUnknown is any type this version of offsettui does not know, shown as such and
// never described, reset or judged as another type.
const (
	TypeClassic  = "classic"
	TypeConsumer = "consumer"
	TypeShare    = "share"
	TypeStreams  = "streams"
	TypeUnknown  = "unknown"
)

// GroupTypes lists the known types in the order filters and help texts show them.
var GroupTypes = []string{TypeClassic, TypeConsumer, TypeShare, TypeStreams, TypeUnknown}

// ParseGroupType maps a type as ListGroups writes it ("Classic", "share") to one of the
// Type constants; "" (a broker older than ListGroups v5) is classic, anything else unknown.
func ParseGroupType(s string) string {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "", TypeClassic:
		return TypeClassic
	case TypeConsumer, TypeShare, TypeStreams:
		return t
	}
	return TypeUnknown
}

// knownStates lists the states each type has (Kafka's GroupState per GroupType).
var knownStates = map[string][]string{
	TypeClassic:  {"Stable", "PreparingRebalance", "CompletingRebalance", "Empty", "Dead"},
	TypeConsumer: {"Empty", "Assigning", "Reconciling", "Stable", "Dead"},
	TypeShare:    {"Empty", "Stable", "Dead"},
	TypeStreams:  {"Empty", "NotReady", "Assigning", "Reconciling", "Stable", "Dead"},
}

// KnownState reports whether state is one a group of type typ can be in. Views mark other
// states (a newer broker's) as unknown rather than guess what they mean.
func KnownState(typ, state string) bool {
	return slices.Contains(knownStates[typ], state)
}

// Topology is a streams group's topology as the broker holds it (StreamsGroupDescribe).
type Topology struct {
	Epoch         int32         `json:"epoch"`
	Subtopologies []Subtopology `json:"subtopologies"`
}

// Subtopology is one independent part of a streams topology: the topics it reads and writes.
type Subtopology struct {
	ID                      string   `json:"id"`
	SourceTopics            []string `json:"sourceTopics"`
	RepartitionSourceTopics []string `json:"repartitionSourceTopics"`
	RepartitionSinkTopics   []string `json:"repartitionSinkTopics"`
	StateChangelogTopics    []string `json:"stateChangelogTopics"`
}

// SourceTopics returns the topology's input topics (not repartition topics), sorted and
// distinct: the topics kafka-streams-groups --all-input-topics resets.
func (t *Topology) SourceTopics() []string {
	out := []string{}
	for _, s := range t.Subtopologies {
		for _, name := range s.SourceTopics {
			out = appendUnique(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Tasks is what a streams member runs: active, standby and warm-up tasks, each a
// subtopology and the partitions of its source topics.
type Tasks struct {
	Active  []TaskIDs `json:"active"`
	Standby []TaskIDs `json:"standby"`
	Warmup  []TaskIDs `json:"warmup"`
}

// TaskIDs names the tasks of one subtopology: one per partition.
type TaskIDs struct {
	Subtopology string  `json:"subtopology"`
	Partitions  []int32 `json:"partitions"`
}

func appendUnique(out []string, s string) []string {
	if slices.Contains(out, s) {
		return out
	}
	return append(out, s)
}

// Position is where the group resumes in the partition: the committed offset, or a share
// group's start offset.
func (p *GroupPartition) Position() *int64 { return PositionOf(p.Committed, p.StartOffset()) }

// PositionOf is a share group's start offset where it has one, else the committed offset.
func PositionOf(committed, start *int64) *int64 {
	if start != nil {
		return start
	}
	return committed
}
