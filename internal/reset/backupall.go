package reset

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Backups of a cluster's positions (offsettui backup, docs/resets.md#backing-up-a-cluster):
// one backup per group, the same CSV and manifest a reset writes before its commit, all in
// one archive (archive.go) that `reset --restore` takes group by group. The positions come
// from one snapshot (describe's batched reads), not one read per group.

// Saved is what became of one group's backup: the archive holding it, or why it was not
// saved.
type Saved struct {
	Group string
	Path  string
	Rows  int
	Err   error
}

// SaveBackups writes the backups of snap's groups into one new archive in dir ("" = the
// default state dir) and returns, in the snapshot's order, what became of each. A group
// whose positions could not all be read is not saved (fail closed): a backup that silently
// misses partitions would restore less than it claims. No archive is written when no group
// can be saved.
func (s *Service) SaveBackups(snap model.Snapshot, dir string) []Saved {
	out := make([]Saved, len(snap.Groups))
	dir, err := StateDir(dir)
	hidden := snap.Cluster.AllTopicsVisible == nil || !*snap.Cluster.AllTopicsVisible
	at := s.now()
	stamp := at.UTC().Format("20060102T150405.000Z")
	m := Manifest{ClusterID: snap.Cluster.ID, Bootstrap: s.clusterName(), CreatedAt: model.Stamp{Time: at},
		User: s.user(), Strategy: plan.Strategy{Kind: plan.PlainBackup}, Purpose: "backup"}
	var (
		backups []archivedBackup
		kept    []int // the indexes in out of backups
		again   []int // the indexes of a group named again
	)
	first := map[string]int{} // a group's first index in out
	for i, g := range snap.Groups {
		out[i].Group = g.Group
		if _, seen := first[g.Group]; seen {
			again = append(again, i)
			continue
		}
		first[g.Group] = i
		rows, rerr := positionRows(g)
		switch {
		case err != nil:
			out[i].Err = err
			continue
		case rerr != nil:
			out[i].Err = rerr
			continue
		case hidden:
			out[i].Err = fmt.Errorf("topics may be hidden from this principal, and Kafka leaves their commits out without a word: run as a principal that may describe every topic")
			continue
		}
		gm := m
		gm.Group, gm.GroupType = g.Group, g.Type
		csv, meta, berr := backupBytes(gm, rows)
		if berr != nil {
			out[i].Err = berr
			continue
		}
		out[i].Rows = len(rows)
		backups = append(backups, archivedBackup{group: g.Group, name: backupName(g.Group, stamp, ""), csv: csv, manifest: meta})
		kept = append(kept, i)
	}
	if len(backups) > 0 {
		path := filepath.Join(dir, archiveName(stamp))
		werr := saveArchive(dir, path, backups, at)
		for _, i := range kept {
			if werr != nil {
				out[i].Err, out[i].Rows = werr, 0
				continue
			}
			out[i].Path = path
		}
	}
	for _, i := range again {
		out[i] = out[first[out[i].Group]]
	}
	return out
}

// saveArchive writes backups as a new archive at path in dir, syncs both, and reads the
// archive back: every group in it must be restorable from it as written. On any failure
// nothing is left behind.
func saveArchive(dir, path string, backups []archivedBackup, at time.Time) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("backup directory %s: %w", dir, err)
	}
	if err := writeArchive(path, backups, at); err != nil {
		return err
	}
	err := syncDir(dir)
	if err == nil {
		if cerr := checkArchive(path, len(backups)); cerr != nil {
			err = fmt.Errorf("the archive %s written does not read back whole: %w", path, cerr)
		}
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// positionRows are a group's positions as backup rows: committed offsets (a share
// group's start offsets) of every partition that has one.
func positionRows(g model.Group) ([]plan.CSVRow, error) {
	switch {
	case g.Error != nil:
		return nil, fmt.Errorf("read group %s: %s", g.Group, g.Error.Error())
	case g.Type == model.TypeUnknown:
		return nil, fmt.Errorf("group %s is of a type offsettui does not know: its positions cannot be read", g.Group)
	}
	rows := []plan.CSVRow{}
	for _, p := range g.Partitions {
		pos := p.Committed
		if g.Type == model.TypeShare {
			pos = p.StartOffset()
		}
		if pos == nil && p.Error != nil {
			return nil, fmt.Errorf("%s-%d of group %s: %s", p.Topic, p.Partition, g.Group, p.Error.Error())
		}
		if pos != nil {
			rows = append(rows, plan.CSVRow{Topic: p.Topic, Partition: p.Partition, Offset: model.Ptr(*pos)})
		}
	}
	return rows, nil
}
