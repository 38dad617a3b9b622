package plan

import (
	"fmt"
	"slices"
	"time"
)

// A reviewed plan is one read back from a plan file (docs/resets.md#plan-files): written by
// one person (reset --plan-out, the TUI's planner, offsettui mcp), applied by another
// (offsettui apply). It writes exactly what was reviewed: its targets are never read again
// (refreshable), its rows' commits must be the ones it was planned on (Drift), and it
// applies only on the cluster it was read on (clusterDrift).

// BlockOtherCluster: a reviewed plan read again on another cluster than the one it was
// planned on, or on one whose id cannot be read.
const BlockOtherCluster BlockerKind = "other-cluster"

// Reviewed is where a plan file's plan comes from: the plan file's own members
// (docs/json.md) but the plan.
type Reviewed struct {
	// File is the plan file's path, SHA256 its sha256.
	File, SHA256 string
	// ClusterID is the id of the cluster it was planned on, Bootstrap that cluster's address.
	ClusterID, Bootstrap string
	// PlannedBy is who planned it (the OS user), PlannedWith what with ("offsettui reset"),
	// PlannedAt when the file was written.
	PlannedBy, PlannedWith string
	PlannedAt              time.Time
}

// Fileable reports whether p may go to a plan file: it has rows, was not executed, and no
// blocker but read-only, which is the setting of who plans and not the group's state (the
// person who applies it has their own).
func (p Plan) Fileable() bool {
	return len(p.Rows) > 0 && !p.Executed && !slices.ContainsFunc(p.Blockers, func(b Blocker) bool { return b.Kind != BlockReadOnly })
}

// clusterDrift refuses a reviewed plan on a cluster other than its own.
func (p Plan) clusterDrift(now Input) []Blocker {
	r := p.Reviewed
	switch {
	case r == nil:
		return nil
	case now.ClusterID == nil:
		return []Blocker{{Kind: BlockOtherCluster, Message: fmt.Sprintf(
			"the plan file %s was planned on cluster %s (%s), and this cluster's id cannot be read: offsettui cannot confirm it is the same cluster, and writes nothing",
			r.File, r.ClusterID, r.Bootstrap)}}
	case *now.ClusterID != r.ClusterID:
		return []Blocker{{Kind: BlockOtherCluster, Message: fmt.Sprintf(
			"the plan file %s was planned on cluster %s (%s), and this is cluster %s: a plan applies only on the cluster it was read on; plan again on this one",
			r.File, r.ClusterID, r.Bootstrap, *now.ClusterID)}}
	}
	return nil
}
