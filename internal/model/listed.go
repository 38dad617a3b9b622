package model

import (
	"slices"
	"strings"
)

// ListedSnapshot is what is known once the groups are listed and described:
// every group with its type, state and members, and none of its offsets. It
// is marked Loading: each group's worst status is unknown, its totals are
// null and it has no partitions yet, so nothing can pass for a lag or for
// "ok". A screen shows it while the rest is read; a report never does.
func ListedSnapshot(obs Observation) Snapshot {
	s := Snapshot{
		Cluster: Cluster{
			Bootstrap: obs.Bootstrap, ID: obs.ClusterID, AllTopicsVisible: obs.AllTopicsVisible,
			Brokers: obs.Brokers, TakenAt: Stamp{obs.TakenAt}, OffsetsRetentionMinutes: obs.OffsetsRetentionMinutes,
			OffsetsRetentionCheckIntervalMs: obs.OffsetsRetentionCheckIntervalMs,
			KafkaVersion:                    KafkaLine(obs.APIVersions), Capabilities: ClusterCapabilities(obs.APIVersions),
		},
		Groups:  make([]Group, 0, len(obs.Groups)),
		Topics:  []Topic{},
		Errors:  append([]Error{}, obs.Errors...),
		Loading: true,
	}
	for _, g := range obs.Groups {
		grp := Group{
			Group: g.Group, Type: g.Type, State: g.State, ProtocolType: g.ProtocolType,
			Protocol: g.Protocol, Coordinator: g.Coordinator, Members: g.Members, Topology: g.Topology,
			WorstStatus: StatusUnknown, Counts: Counts{}, Partitions: []GroupPartition{}, Error: g.Error,
		}
		switch {
		case g.DescribeError != nil:
			grp.Members = nil // unknown, as assemble.Snapshot has it: never "0 members"
		case grp.Members == nil:
			grp.Members = []Member{}
		}
		s.Groups = append(s.Groups, grp)
	}
	slices.SortFunc(s.Groups, func(a, b Group) int { return strings.Compare(a.Group, b.Group) })
	return s
}
