package demo

import (
	"maps"
	"slices"
)

// GroupNames lists the groups of the scenario and its traffic (docs/demo.md), sorted: what
// shell completion offers for --group with --demo, without starting the cluster.
func GroupNames() []string {
	names := map[string]bool{}
	for _, g := range scenarioGroups() {
		names[g.name] = true
	}
	for g := range ShareGroups() {
		names[g] = true
	}
	for _, f := range flows {
		if f.group != "" {
			names[f.group] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// TopicNames lists the topics of the scenario and its traffic, sorted.
func TopicNames() []string {
	names := map[string]bool{}
	for _, t := range scenarioTopics() {
		names[t.name] = true
	}
	for _, f := range flows {
		names[f.topic] = true
	}
	return slices.Sorted(maps.Keys(names))
}
