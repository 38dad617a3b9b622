package timeaxis

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/offsettui/offsettui/internal/model"
)

// ReadBaseline reads an earlier `describe -o json` document; name is the file
// the errors name.
func ReadBaseline(r io.Reader, name string) (model.Snapshot, error) {
	var s model.Snapshot
	dec := json.NewDecoder(r)
	if err := dec.Decode(&s); err != nil {
		return model.Snapshot{}, fmt.Errorf("%s: not a describe -o json document: %w", name, err)
	}
	if s.Cluster.TakenAt.IsZero() || s.Groups == nil {
		return model.Snapshot{}, fmt.Errorf("%s: not a describe -o json document (no cluster.takenAt or groups)", name)
	}
	return s, nil
}

// OtherCluster reports, as an error naming both, a baseline of another
// cluster than now: comparing them would be nonsense. Clusters whose id was
// not read cannot be told apart and pass.
func OtherCluster(now, base *model.Snapshot, file string) error {
	a, b := now.Cluster.ID, base.Cluster.ID
	if a == nil || b == nil || *a == *b {
		return nil
	}
	return fmt.Errorf("%s is a snapshot of cluster %s (%s), this is cluster %s (%s)", file, *b, base.Cluster.Bootstrap, *a, now.Cluster.Bootstrap)
}

// CompareBaseline records in now what changed since base: per group and
// partition, and the groups base had that now lacks. groups limits which of
// base's groups can be gone (describe --group); empty means all.
func CompareBaseline(now *model.Snapshot, base *model.Snapshot, file string, groups []string) {
	info := &model.BaselineInfo{File: file, TakenAt: base.Cluster.TakenAt, Bootstrap: base.Cluster.Bootstrap, ClusterID: base.Cluster.ID,
		GoneGroups: []string{}}
	was := make(map[string]*model.Group, len(base.Groups))
	for i := range base.Groups {
		was[base.Groups[i].Group] = &base.Groups[i]
	}
	seen := make(map[string]bool, len(now.Groups))
	for i := range now.Groups {
		g := &now.Groups[i]
		seen[g.Group] = true
		compareGroup(g, was[g.Group])
	}
	for i := range base.Groups {
		name := base.Groups[i].Group
		if !seen[name] && (len(groups) == 0 || slices.Contains(groups, name)) {
			info.GoneGroups = append(info.GoneGroups, name)
		}
	}
	slices.Sort(info.GoneGroups)
	now.Baseline = info
}

func compareGroup(g, b *model.Group) {
	ch := &model.GroupChange{GonePartitions: []model.PartitionRef{}}
	g.Change = ch
	if b == nil {
		ch.New = true
		for i := range g.Partitions {
			g.Partitions[i].SetChange(&model.PartitionChange{New: true})
		}
		return
	}
	ch.StateWas, ch.WorstStatusWas = model.Ptr(b.State), model.Ptr(b.WorstStatus)
	if g.TotalLag != nil && b.TotalLag != nil {
		ch.TotalLagBy = model.Some(*g.TotalLag - *b.TotalLag) // only whole totals are compared
	}
	old := make(map[model.TP]*model.GroupPartition, len(b.Partitions))
	for i := range b.Partitions {
		old[b.Partitions[i].TP()] = &b.Partitions[i]
	}
	changes := make([]model.PartitionChange, len(g.Partitions)) // one allocation per group (each row's detail is its own)
	for i := range g.Partitions {
		p := &g.Partitions[i]
		bp := old[p.TP()]
		delete(old, p.TP())
		p.SetChange(&changes[i])
		if bp == nil {
			changes[i].New = true
			continue
		}
		changes[i].StatusWas = &bp.Status
		if p.Committed != nil && bp.Committed != nil {
			changes[i].CommittedBy = model.Some(*p.Committed - *bp.Committed)
		}
		if p.Lag != nil && bp.Lag != nil {
			changes[i].LagBy = model.Some(*p.Lag - *bp.Lag)
		}
	}
	for _, tp := range slices.SortedFunc(maps.Keys(old), model.CompareTP) {
		ch.GonePartitions = append(ch.GonePartitions, model.PartitionRef(tp))
	}
}
