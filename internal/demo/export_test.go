package demo

// What the demo's own tests check the cluster against: the scenario's truth, exported to
// them only (the program reads the cluster, never these).

import "time"

// LiveGroups are the groups with a live member once Start returns; every
// other group of the scenario is Empty.
func LiveGroups() []string {
	var gs []string
	for _, g := range scenarioGroups() {
		if len(g.live) > 0 {
			gs = append(gs, g.name)
		}
	}
	return gs
}

// Groups lists every group of the scenario.
func Groups() []string {
	var gs []string
	for _, g := range scenarioGroups() {
		gs = append(gs, g.name)
	}
	return gs
}

// Topics lists every topic of the scenario.
func Topics() []string {
	var ts []string
	for _, t := range scenarioTopics() {
		ts = append(ts, t.name)
	}
	return ts
}

// Watermark is a partition's log start offset (low) and high watermark.
type Watermark struct {
	Low, High int64
}

// Watermarks returns the low and high watermark of every partition, indexed
// by topic and then partition, as Start leaves them.
func Watermarks() map[string][]Watermark {
	out := make(map[string][]Watermark)
	for _, t := range scenarioTopics() {
		ws := make([]Watermark, t.partitions)
		for p := range ws {
			ws[p] = Watermark{Low: t.low[int32(p)], High: t.records}
		}
		out[t.name] = ws
	}
	return out
}

// Commits returns the committed offset of every group, indexed by group,
// topic and partition. A partition without a commit is absent, and so is a
// group without any (new-svc).
func Commits() map[string]map[string]map[int32]int64 {
	out := make(map[string]map[string]map[int32]int64)
	for _, g := range scenarioGroups() {
		if len(g.commits) > 0 {
			out[g.name] = g.commits
		}
	}
	return out
}

// RecordTime returns the CreateTime of the record at offset in topic (the
// same on every partition of the topic) for a cluster started at start, as
// StartedAt reports it. ok is false for an unknown topic or offset.
func RecordTime(start time.Time, topic string, offset int64) (t time.Time, ok bool) {
	for _, ts := range scenarioTopics() {
		if ts.name == topic && offset >= 0 && offset < ts.records {
			return ts.at(start, offset), true
		}
	}
	return time.Time{}, false
}

// StartedAt returns the start time record timestamps are relative to,
// truncated to milliseconds.
func (c *Cluster) StartedAt() time.Time { return c.startedAt }
