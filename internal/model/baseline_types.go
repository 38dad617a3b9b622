package model

// BaselineInfo names the earlier snapshot a snapshot is compared with
// (describe --baseline).
type BaselineInfo struct {
	File      string  `json:"file"`
	TakenAt   Stamp   `json:"takenAt"`
	Bootstrap string  `json:"bootstrap"`
	ClusterID *string `json:"clusterId"`
	// GoneGroups are groups the baseline had that are no longer there.
	GoneGroups []string `json:"goneGroups"`
}

// GroupChange is what changed in a group since the baseline.
type GroupChange struct {
	// New is set when the baseline did not have the group.
	New            bool       `json:"new"`
	StateWas       *string    `json:"stateWas"`
	WorstStatusWas *Status    `json:"worstStatusWas"`
	TotalLagBy     Opt[int64] `json:"totalLagBy"`
	// GonePartitions are partitions the baseline had for the group that it no
	// longer has.
	GonePartitions []PartitionRef `json:"gonePartitions"`
}

// PartitionChange is what changed in a group partition since the baseline.
type PartitionChange struct {
	New bool `json:"new"`
	// CommittedBy is how far the committed offset moved (negative: back);
	// null when either side has no commit or could not be read.
	CommittedBy Opt[int64] `json:"committedBy"`
	LagBy       Opt[int64] `json:"lagBy"`
	StatusWas   *Status    `json:"statusWas"`
}

// PartitionRef names a partition in JSON.
type PartitionRef struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}
