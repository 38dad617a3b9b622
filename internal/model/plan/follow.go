package plan

// TargetFollowsWatermarks reports whether a row's target follows the watermarks:
// to-earliest, to-latest, and to-current rows without a commit. Refresh re-reads
// such targets right before the commit, so a re-plan that only moved them (the
// topic being written to) is not a change an operator has to confirm again. The
// TUI's planner uses it to tell watermark growth from drift; it is the same rule
// Refresh applies.
func (p Plan) TargetFollowsWatermarks(r Row) bool { return p.refreshable(r) }
